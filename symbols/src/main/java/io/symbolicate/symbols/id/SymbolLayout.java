package io.symbolicate.symbols.id;

import java.util.List;
import java.util.Locale;

/**
 * Where a debug file lives inside a source, from validated identifiers.
 *
 * <p>Native files follow Mozilla's symbol-server layout:
 * {@code <debug_file>/<DEBUG_ID>/<debug_file minus .pdb, plus .sym>}, e.g.
 * {@code xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.sym}. The object may be plain or gzip
 * (detected by its magic bytes when parsed). Scoped (tenant) files live under
 * {@code scopes/<scope>/} of the same source; the global scope at the root.
 */
public final class SymbolLayout {
  private SymbolLayout() {}

  /** Candidate keys for a Breakpad symbol file, in the order to try. */
  public static List<String> breakpad(DebugIdentifiers.Native id) {
    String file = id.debugFile();
    String base =
        file.toLowerCase(Locale.ROOT).endsWith(".pdb")
            ? file.substring(0, file.length() - 4)
            : file;
    return List.of(file + "/" + id.debugId() + "/" + base + ".sym");
  }

  /** The prefix of a scope inside a source ("" for the global scope). */
  public static String scopePrefix(String scope) {
    DebugIdentifiers.requireScope(scope);
    return DebugIdentifiers.GLOBAL_SCOPE.equals(scope) ? "" : "scopes/" + scope + "/";
  }
}

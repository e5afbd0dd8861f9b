package io.symbolicate.connectors.loader.nativecode;

import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.symbols.id.DebugFileLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which {@link DebugFileLayout}s the loader searches each kind of source in for a native module's
 * debug file and executable ({@code loader.debug.file.layouts}): {@code
 * s3:native,unified,debuginfod;dir:native,unified,symstore,debuginfod;http:native,debuginfod}.
 * Each layout tried is a request per module not found, so a source kind lists only what its
 * stores use; a kind listed with nothing after the colon is searched for {@code .sym} files
 * only. A kind not listed gets the defaults' layouts for it (none for a kind unknown to them).
 */
public final class DebugFileLayouts {

  /**
   * The defaults: our own bucket holds uploads under {@code native} and may hold a symsorter
   * ({@code unified}) or debuginfod tree; a directory may hold any (each try is a stat); an HTTP
   * server is a Breakpad symbol server or a debuginfod server.
   */
  public static final String DEFAULT =
      "s3:native,unified,debuginfod;dir:native,unified,symstore,debuginfod;http:native,debuginfod";

  private final Map<String, List<DebugFileLayout>> byType;

  private DebugFileLayouts(Map<String, List<DebugFileLayout>> byType) {
    this.byType = byType;
  }

  public static DebugFileLayouts defaults() {
    return parse(DEFAULT);
  }

  /**
   * Parses {@code kind:layout,layout;kind:...}; throws {@link IllegalArgumentException} with the
   * reason for an unknown layout or a part without a colon.
   */
  public static DebugFileLayouts parse(String spec) {
    Map<String, List<DebugFileLayout>> m = new LinkedHashMap<>();
    if (!spec.equals(DEFAULT)) {
      m.putAll(parse(DEFAULT).byType);
    }
    for (String part : spec.split(";")) {
      if (part.isBlank()) {
        continue;
      }
      int colon = part.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(
            "'" + part.trim() + "' is not kind:layout,layout (kinds: s3, dir, http)");
      }
      String type = part.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      List<DebugFileLayout> layouts = new ArrayList<>();
      for (String name : part.substring(colon + 1).split(",")) {
        if (!name.isBlank()) {
          DebugFileLayout l = DebugFileLayout.parse(name);
          if (!layouts.contains(l)) {
            layouts.add(l);
          }
        }
      }
      m.put(type, List.copyOf(layouts));
    }
    return new DebugFileLayouts(Map.copyOf(m));
  }

  /** The layouts a source is searched in, in order (empty: none). */
  public List<DebugFileLayout> of(SymbolSource source) {
    return byType.getOrDefault(source.type(), List.of());
  }

  /** The layouts of a kind of source ({@code s3}, {@code dir}, {@code http}). */
  public List<DebugFileLayout> of(String type) {
    return byType.getOrDefault(type, List.of());
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    byType.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              if (b.length() > 0) {
                b.append(';');
              }
              b.append(e.getKey()).append(':');
              b.append(
                  String.join(
                      ",",
                      e.getValue().stream().map(l -> l.name().toLowerCase(Locale.ROOT)).toList()));
            });
    return b.toString();
  }
}

package io.symbolicate.symbols.id;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a native module's debug files (ELF, Mach-O) live in a source, in the layouts of
 * Symbolicator's sources (docs/operations.md, "Debug-file layouts"). A module is found by its
 * debug file name and debug id (Breakpad's identity, the {@code .sym}'s directory) and, for the
 * build-id layouts, by its code id: an ELF build id cannot be recovered from the debug id, which
 * keeps only its first 16 bytes.
 */
public enum DebugFileLayout {
  /** Breakpad's tree: the debug file beside its {@code .sym}, and the executable by code id. */
  NATIVE,
  /** Symbolicator's unified layout: {@code <id[0:2]>/<id[2:]>/debuginfo|executable|breakpad}. */
  UNIFIED,
  /** Microsoft's symbol-store query protocol (SSQP) for ELF: {@code elf-buildid-[sym-]<id>}. */
  SYMSTORE,
  /** debuginfod's HTTP paths: {@code buildid/<id>/debuginfo|executable}. */
  DEBUGINFOD;

  /** Which file of a module a key names. */
  public enum Kind {
    /** The file with debug info: a split-off {@code .debug}, a dSYM's DWARF file. */
    DEBUG_INFO,
    /** The executable or library as shipped (symbol table and unwind info). */
    EXECUTABLE,
    /** A Breakpad {@code .sym}. */
    BREAKPAD
  }

  /**
   * A module's identity as the layouts need it: the debug file's name (last path segment), the
   * Breakpad debug id, and, when known, the code file's name and code id (ELF build id, Mach-O
   * UUID) in lower-case hex.
   */
  public record Query(String debugFile, String debugId, String codeFile, String codeId) {
    public Query {
      debugFile = debugFile == null ? null : DebugIdentifiers.requireFileName(baseName(debugFile));
      debugId = debugId == null ? null : DebugIdentifiers.normalizeDebugId(debugId);
      codeFile = codeFile == null ? null : DebugIdentifiers.requireFileName(baseName(codeFile));
      codeId = codeId == null || codeId.isEmpty() ? null : normalizeCodeId(codeId);
    }
  }

  public static DebugFileLayout parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown debug-file layout '" + name + "' (native, unified, symstore, debuginfod)");
    }
  }

  /** Candidate keys of one kind of file, in the order to try; empty when the query lacks an id. */
  public List<String> keys(Query q, Kind kind) {
    List<String> keys = new ArrayList<>(2);
    switch (this) {
      case NATIVE -> {
        if (kind == Kind.BREAKPAD && q.debugFile() != null && q.debugId() != null) {
          keys.addAll(
              SymbolLayout.breakpad(new DebugIdentifiers.Native(q.debugFile(), q.debugId())));
        } else if (kind == Kind.DEBUG_INFO && q.debugFile() != null && q.debugId() != null) {
          keys.add(q.debugFile() + "/" + q.debugId() + "/" + q.debugFile());
        } else if (kind == Kind.EXECUTABLE && q.codeFile() != null && q.codeId() != null) {
          keys.add(q.codeFile() + "/" + q.codeId().toUpperCase(Locale.ROOT) + "/" + q.codeFile());
        }
      }
      case UNIFIED -> {
        String id = q.codeId() != null ? q.codeId() : lowerDebugId(q);
        if (id != null && id.length() > 2) {
          String leaf =
              switch (kind) {
                case DEBUG_INFO -> "debuginfo";
                case EXECUTABLE -> "executable";
                case BREAKPAD -> "breakpad";
              };
          keys.add(id.substring(0, 2) + "/" + id.substring(2) + "/" + leaf);
        }
      }
      case SYMSTORE -> {
        if (q.codeId() != null) {
          switch (kind) {
            case DEBUG_INFO -> keys.add("_.debug/elf-buildid-sym-" + q.codeId() + "/_.debug");
            case EXECUTABLE -> {
              String name = q.codeFile() != null ? q.codeFile() : "_";
              keys.add(name + "/elf-buildid-" + q.codeId() + "/" + name);
              if (!name.equals("_")) {
                keys.add("_/elf-buildid-" + q.codeId() + "/_");
              }
            }
            case BREAKPAD -> {}
          }
        }
      }
      case DEBUGINFOD -> {
        if (q.codeId() != null) {
          switch (kind) {
            case DEBUG_INFO -> keys.add("buildid/" + q.codeId() + "/debuginfo");
            case EXECUTABLE -> keys.add("buildid/" + q.codeId() + "/executable");
            case BREAKPAD -> {}
          }
        }
      }
    }
    return keys;
  }

  private static String lowerDebugId(Query q) {
    return q.debugId() == null ? null : q.debugId().toLowerCase(Locale.ROOT);
  }

  /** Lower-case hex without dashes (Mach-O UUIDs are often written with them). */
  static String normalizeCodeId(String id) {
    String hex = id.indexOf('-') < 0 ? id : id.replace("-", "");
    if (!DebugIdentifiers.isHex(hex)) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          "code id must be hexadecimal: " + DebugIdentifiers.printable(id));
    }
    return hex.toLowerCase(Locale.ROOT);
  }

  /** Crash reports give full paths ({@code /usr/lib/libc.so.6}, {@code C:\x\a.pdb}). */
  static String baseName(String path) {
    int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return cut >= 0 && cut < path.length() - 1 ? path.substring(cut + 1) : path;
  }
}

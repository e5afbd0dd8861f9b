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
  /**
   * Microsoft's symbol store as {@code symstore.exe} writes it: a PDB under {@code
   * <name.pdb>/<GUID><age>/<name.pdb>} (GUID upper case, age lower-case hex), an executable under
   * {@code <name.exe>/<TIMESTAMP><size>/<name.exe>}, each also CAB-compressed ({@code name.pd_})
   * or as a {@code file.ptr} redirect; ELF files by SSQP's {@code elf-buildid-[sym-]<id>} keys.
   */
  SYMSTORE,
  /** {@link #SYMSTORE} with the first two characters of the file name as a folder above. */
  SYMSTORE_INDEX2,
  /** The symbol-store query protocol: {@link #SYMSTORE}'s keys all in lower case, no redirects. */
  SSQP,
  /** debuginfod's HTTP paths: {@code buildid/<id>/debuginfo|executable}. */
  DEBUGINFOD;

  /** Which file of a module a key names. */
  public enum Kind {
    /** The file with debug info: a split-off {@code .debug}, a dSYM's DWARF file. */
    DEBUG_INFO,
    /** The executable or library as shipped (symbol table and unwind info). */
    EXECUTABLE,
    /** A Breakpad {@code .sym}. */
    BREAKPAD,
    /**
     * A source bundle: {@code sourcebundle} in the unified layout, else beside the debug file
     * with its extension replaced by {@code .src.zip} (as symsorter and Symbolicator name it).
     */
    SOURCE_BUNDLE
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
          "unknown debug-file layout '"
              + name
              + "' (native, unified, symstore, symstore_index2, ssqp, debuginfod)");
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
        } else if (kind == Kind.SOURCE_BUNDLE && q.debugFile() != null && q.debugId() != null) {
          String dir = q.debugFile() + "/" + q.debugId() + "/";
          keys.add(dir + sourceBundleName(q.debugFile()));
          if (!sourceBundleName(q.debugFile()).equals(q.debugFile() + ".src.zip")) {
            keys.add(dir + q.debugFile() + ".src.zip");
          }
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
                case SOURCE_BUNDLE -> "sourcebundle";
              };
          keys.add(id.substring(0, 2) + "/" + id.substring(2) + "/" + leaf);
        }
      }
      case SYMSTORE -> keys.addAll(symstore(q, kind, true));
      case SYMSTORE_INDEX2 -> {
        for (String k : symstore(q, kind, true)) {
          keys.add(k.substring(0, Math.min(2, k.indexOf('/'))) + "/" + k);
        }
      }
      case SSQP -> {
        for (String k : symstore(q, kind, false)) {
          keys.add(k.toLowerCase(Locale.ROOT));
        }
      }
      case DEBUGINFOD -> {
        if (q.codeId() != null) {
          switch (kind) {
            case DEBUG_INFO -> keys.add("buildid/" + q.codeId() + "/debuginfo");
            case EXECUTABLE -> keys.add("buildid/" + q.codeId() + "/executable");
            case BREAKPAD, SOURCE_BUNDLE -> {}
          }
        }
      }
    }
    return keys;
  }

  /** The name of a redirect in a symbol store's folder ({@code PATH:<where the file is>}). */
  public static final String FILE_PTR = "file.ptr";

  /**
   * Microsoft's keys for a PDB or a PE file, the plain file first, then its CAB-compressed form
   * (last character {@code _}) and, when {@code redirects}, its {@link #FILE_PTR}; SSQP's ELF
   * keys otherwise.
   */
  private static List<String> symstore(Query q, Kind kind, boolean redirects) {
    List<String> keys = new ArrayList<>(3);
    if (kind == Kind.SOURCE_BUNDLE) {
      if (isPdb(q.debugFile()) && q.debugId() != null) {
        String id = q.debugId();
        String sig =
            id.length() > 32 ? id.substring(0, 32) + id.substring(32).toLowerCase(Locale.ROOT) : id;
        keys.add(q.debugFile() + "/" + sig + "/" + sourceBundleName(q.debugFile()));
      }
      return keys;
    }
    if (kind == Kind.DEBUG_INFO && isPdb(q.debugFile()) && q.debugId() != null) {
      String id = q.debugId();
      String sig =
          id.length() > 32
              ? id.substring(0, 32) + id.substring(32).toLowerCase(Locale.ROOT)
              : id; // GUID as symstore writes it, the age in lower-case hex
      addWindows(keys, q.debugFile(), sig, redirects);
      return keys;
    }
    if (kind == Kind.EXECUTABLE && isPeCodeId(q)) {
      String id = q.codeId();
      String sig = id.substring(0, 8).toUpperCase(Locale.ROOT) + id.substring(8);
      addWindows(keys, q.codeFile(), sig, redirects);
      return keys;
    }
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
        case BREAKPAD, SOURCE_BUNDLE -> {}
      }
    }
    return keys;
  }

  /** A debug file's source bundle name: its extension replaced ({@code a.pdb} → {@code a.src.zip}). */
  public static String sourceBundleName(String debugFile) {
    int dot = debugFile.lastIndexOf('.');
    return (dot > 0 ? debugFile.substring(0, dot) : debugFile) + ".src.zip";
  }

  private static void addWindows(List<String> keys, String name, String sig, boolean redirects) {
    String dir = name + "/" + sig + "/";
    keys.add(dir + name);
    keys.add(dir + compressedName(name));
    if (redirects) {
      keys.add(dir + FILE_PTR);
    }
  }

  /** The name of a file's CAB-compressed form in a symbol store: {@code a.pdb} → {@code a.pd_}. */
  public static String compressedName(String name) {
    return name.substring(0, name.length() - 1) + "_";
  }

  /** Whether a debug file is named as a PDB (the Windows keys apply). */
  public static boolean isPdb(String debugFile) {
    return debugFile != null && debugFile.toLowerCase(Locale.ROOT).endsWith(".pdb");
  }

  /**
   * Whether the query names a PE image: a code id of {@code TimeDateStamp} (8 hex digits) and
   * {@code SizeOfImage} (1 to 8), where an ELF build id has 16 hex digits or more (at 16 digits
   * the module's debug file, a PDB, decides).
   */
  static boolean isPeCodeId(Query q) {
    if (q.codeFile() == null || q.codeId() == null) {
      return false;
    }
    int n = q.codeId().length();
    return n > 8 && (n < 16 || n == 16 && isPdb(q.debugFile()));
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

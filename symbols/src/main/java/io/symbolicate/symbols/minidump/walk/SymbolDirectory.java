package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.dumpsyms.DebugFileTables;
import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.StackWinRecord;
import io.symbolicate.symbols.pdb.MsfFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Breakpad symbol directory ({@code DIR/<debug file>/<debug id>/<debug file>.sym}, ".pdb"
 * replaced by ".sym"), as {@code minidump_stackwalk DUMP DIR} reads it, which may also hold the
 * debug files themselves (ELF, Mach-O) in any layout of {@link DebugFileLayout}: a module without
 * a {@code .sym} is converted from its debug file and executable. Each file is converted once to
 * the native table, which holds its unwind records beside its symbols; a file that is missing or
 * does not parse leaves the module without symbols.
 */
public final class SymbolDirectory implements SymbolSupplier {
  private final Path root;
  // concurrent: a batch walks dumps on several threads with one directory, each file read once
  private final Map<String, Optional<ModuleSymbols>> cache = new ConcurrentHashMap<>();

  public SymbolDirectory(Path root) {
    this.root = root;
  }

  /** The path Breakpad's SimpleSymbolSupplier reads for a module, or null without ids. */
  public Path pathFor(CodeModule m) {
    String debugFile = CodeModule.basename(m.debugFile());
    if (debugFile.isEmpty() || m.debugId().isEmpty()) {
      return null;
    }
    String stem =
        debugFile.length() > 4
                && debugFile
                    .substring(debugFile.length() - 4)
                    .toLowerCase(Locale.ROOT)
                    .equals(".pdb")
            ? debugFile.substring(0, debugFile.length() - 4)
            : debugFile;
    try {
      return root.resolve(debugFile).resolve(m.debugId()).resolve(stem + ".sym");
    } catch (RuntimeException e) {
      return null; // a name that is not a valid path here
    }
  }

  @Override
  public ModuleSymbols find(CodeModule module) {
    Path p = pathFor(module);
    if (p != null && Files.isRegularFile(p)) {
      return cache.computeIfAbsent(p.toString(), k -> Optional.ofNullable(load(p))).orElse(null);
    }
    DebugFileLayout.Query q = query(module);
    if (q == null) {
      return null;
    }
    return cache
        .computeIfAbsent("debug-files:" + q, k -> Optional.ofNullable(loadDebugFiles(q)))
        .orElse(null);
  }

  private static DebugFileLayout.Query query(CodeModule m) {
    String debugFile = CodeModule.basename(m.debugFile());
    String codeFile = CodeModule.basename(m.codeFile());
    try {
      return new DebugFileLayout.Query(
          debugFile.isEmpty() ? null : debugFile,
          m.debugId().isEmpty() ? null : m.debugId(),
          codeFile.isEmpty() ? null : codeFile,
          m.codeId().isEmpty() ? null : m.codeId());
    } catch (IllegalArgumentException e) {
      return null; // ids that must not become paths
    }
  }

  /** The module's debug file and executable, in the first layout that has either. */
  private ModuleSymbols loadDebugFiles(DebugFileLayout.Query q) {
    Path debug = first(q, DebugFileLayout.Kind.DEBUG_INFO);
    Path executable = first(q, DebugFileLayout.Kind.EXECUTABLE);
    Path primary = executable != null ? executable : debug;
    if (primary == null) {
      return null;
    }
    Path companion = executable != null && debug != null ? debug : null;
    if (debug != null && isPdb(debug)) {
      // a PDB is dumped with its image beside it (dump-syms FILE.pdb FILE.exe)
      primary = debug;
      companion = executable;
    }
    try {
      NativeTable table =
          DebugFileTables.convert(
                  primary,
                  // Breakpad's records: the walk then equals minidump_stackwalk's with its .sym
                  new DumpSyms.Options(true, null, companion)
                      .withDialect(DumpSyms.Dialect.BREAKPAD),
                  NativeSymbols.Options.defaults())
              .table();
      return of(NativeSymbolizer.inMemory(table));
    } catch (IOException | DumpSymsException | RuntimeException e) {
      return null; // a malformed debug file leaves the module without symbols, like a bad .sym
    }
  }

  private static boolean isPdb(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return MsfFile.isMsf(in.readNBytes(32));
    } catch (IOException e) {
      return false;
    }
  }

  private Path first(DebugFileLayout.Query q, DebugFileLayout.Kind kind) {
    for (DebugFileLayout layout : DebugFileLayout.values()) {
      for (String key : layout.keys(q, kind)) {
        Path p = root.resolve(key);
        if (Files.isRegularFile(p) || (Files.isDirectory(p) && key.endsWith(".dSYM"))) {
          return p;
        }
      }
    }
    return null;
  }

  private static ModuleSymbols load(Path p) {
    if (!Files.isRegularFile(p)) {
      return null;
    }
    try {
      NativeTable table = NativeSymbols.convert(p);
      return of(NativeSymbolizer.inMemory(table));
    } catch (IOException e) {
      return null;
    }
  }

  /** Parsed CFI rule sets kept per module (a walk meets the same few functions again). */
  static final int MAX_PARSED_RULES = 4096;

  private static final CfiRules NO_RULES = new CfiRules();

  private static CfiRules parse(List<String> sets) {
    CfiRules rules = new CfiRules();
    if (!rules.apply(sets.get(0))) {
      return NO_RULES; // a bad INIT record: Breakpad uses no CFI there
    }
    for (int i = 1; i < sets.size(); i++) {
      rules.apply(sets.get(i));
    }
    return rules;
  }

  /**
   * A module's symbols from its native table: lookups, CFI and STACK WIN records read from the
   * page of the address only.
   */
  public static ModuleSymbols of(NativeSymbolizer symbolizer) {
    boolean corrupt = symbolizer.header().corrupt();
    // parsed rules by the rule sets that made them (the page hands out the same strings)
    Map<List<String>, CfiRules> parsed = new ConcurrentHashMap<>();
    return new ModuleSymbols() {
      @Override
      public NativeFrame lookup(long rel) {
        return symbolizer.lookup(rel);
      }

      @Override
      public CfiRules cfiRules(long rel) {
        List<String> sets = symbolizer.cfiRuleSets(rel);
        if (sets.isEmpty()) {
          return null;
        }
        CfiRules rules = parsed.get(sets);
        if (rules == null) {
          rules = parse(sets);
          if (parsed.size() >= MAX_PARSED_RULES) {
            parsed.clear();
          }
          parsed.put(sets, rules);
        }
        return rules == NO_RULES ? null : rules;
      }

      @Override
      public WinFrameInfo windowsFrameInfo(long rel) {
        StackWinRecord w = symbolizer.stackWin(rel);
        if (w != null) {
          return WinFrameInfo.parse(w);
        }
        NativeFrame f = symbolizer.lookup(rel);
        if (f == null || f.fromPublic()) {
          return null;
        }
        return WinFrameInfo.parameterSizeOnly(
            symbolizer.parameterSize(f.functionBase()) & 0xFFFFFFFFL);
      }

      @Override
      public boolean corrupt() {
        return corrupt;
      }
    };
  }
}

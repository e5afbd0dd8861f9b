package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.dumpsyms.DebugFileTables;
import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.CorruptTableException;
import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableFile;
import io.symbolicate.symbols.symbfile.SymbfileConverter;
import io.symbolicate.symbols.symbfile.SymbfileException;
import io.symbolicate.symbols.symbfile.SymbfileReader;
import io.symbolicate.symbols.table.TablePage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator native}: Breakpad .sym (or Elastic symbfile) conversion and address lookup. */
@Command(
    name = "native",
    mixinStandardHelpOptions = true,
    description =
        "Native symbols: convert Breakpad .sym to the compact table, look up addresses,"
            + " identify ELF and Mach-O files, write a .sym from them.",
    subcommands = {
      NativeCommand.Lookup.class,
      NativeCommand.Convert.class,
      NativeIdCommand.class,
      DumpSymsCommand.class
    })
final class NativeCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  @Command(
      name = "lookup",
      mixinStandardHelpOptions = true,
      description = {
        "Looks up module-relative addresses (hex) with Breakpad's semantics and prints one JSON"
            + " object per address. Addresses come from the arguments, else from stdin (one per"
            + " line).",
        "FILE may be a Breakpad .sym (plain or gzip), an Elastic ranges symbfile (plain or gzip,"
            + " told by its magic), an ELF or Mach-O debug file or dSYM, a PDB 7.0 (or its"
            + " CAB-compressed .pd_; told by their magic) or a table written by 'native convert'."
      })
  static final class Lookup implements Runnable {
    @Spec CommandSpec spec;

    @Option(
        names = "--sym",
        required = true,
        paramLabel = "FILE",
        description =
            "Breakpad .sym (plain or gzip), symbfile, ELF/Mach-O/dSYM, PDB (or .pd_) or"
                + " converted table.")
    Path sym;

    @Option(
        names = "--returnpads",
        paramLabel = "FILE",
        description =
            "A returnpads symbfile read with a symbfile --sym: with --arch, a return"
                + " address answers from its pad where there is one.")
    Path returnPads;

    @Option(
        names = "--arch",
        paramLabel = "ARCH",
        defaultValue = "none",
        description =
            "Treat addresses as return addresses and adjust like Breakpad does for"
                + " caller frames: x86/amd64 -1, arm -2, arm64 -4; none (default) looks up as given.")
    String arch;

    @Option(
        names = "--max-input-bytes",
        paramLabel = "N",
        description = "Cap on decompressed .sym bytes (default ${DEFAULT-VALUE}).")
    long maxInputBytes = DebugFileInput.DEFAULT_MAX_BYTES;

    @Parameters(
        paramLabel = "ADDRESS",
        arity = "0..*",
        description = "Module-relative hex addresses (0x optional).")
    List<String> addresses = new ArrayList<>();

    @Override
    public void run() {
      CallerAdjust adjust;
      try {
        adjust = CallerAdjust.forArch(arch);
      } catch (IllegalArgumentException e) {
        throw new UserException(e.getMessage());
      }
      NativeSymbols.Options options =
          NativeSymbols.Options.defaults().withMaxInputBytes(maxInputBytes);
      NativeTable table;
      if (returnPads != null) {
        checkReadable(returnPads);
        if (!isSymbfile(sym, maxInputBytes) || !isSymbfile(returnPads, maxInputBytes)) {
          throw new UserException("--returnpads needs a symbfile for --sym and for --returnpads");
        }
        table = loadSymbfile(options, sym, returnPads);
      } else {
        table = load(sym, options);
      }
      NativeSymbolizer symbolizer;
      try {
        symbolizer = NativeSymbolizer.inMemory(table);
      } catch (CorruptTableException e) {
        throw new UserException(sym + ": corrupt table: " + e.getMessage());
      }
      PrintWriter out = spec.commandLine().getOut();
      if (!addresses.isEmpty()) {
        for (String a : addresses) {
          out.println(lookupJson(symbolizer, a, adjust));
        }
      } else {
        try (BufferedReader r =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            if (!line.isBlank()) {
              out.println(lookupJson(symbolizer, line.trim(), adjust));
            }
          }
        } catch (IOException e) {
          throw new UserException("reading addresses from stdin: " + e.getMessage());
        }
      }
      out.flush();
    }
  }

  @Command(
      name = "convert",
      mixinStandardHelpOptions = true,
      description =
          "Converts a Breakpad .sym (plain or gzip) into the compact paged table and"
              + " prints its stats as JSON.")
  static final class Convert implements Runnable {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.sym", description = "Breakpad symbol file.")
    Path sym;

    @Parameters(index = "1", paramLabel = "OUT", description = "Table file to write.")
    Path out;

    @Option(
        names = "--max-input-bytes",
        paramLabel = "N",
        description =
            "Cap on decompressed input bytes, against gzip bombs (default ${DEFAULT-VALUE}).")
    long maxInputBytes = DebugFileInput.DEFAULT_MAX_BYTES;

    @Option(
        names = "--page-bytes",
        paramLabel = "N",
        description = "Target uncompressed page size (default ${DEFAULT-VALUE}).")
    int pageBytes = NativeSymbols.Options.defaults().pageTargetBytes();

    @Override
    public void run() {
      checkReadable(sym);
      Path parent = out.toAbsolutePath().getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        throw new UserException(out + ": directory " + parent + " does not exist");
      }
      if (Files.isDirectory(out)) {
        throw new UserException(out + ": is a directory");
      }
      long t0 = System.nanoTime();
      NativeTableFile.Written w;
      try {
        w =
            NativeTableFile.convert(
                sym,
                out,
                NativeSymbols.Options.defaults()
                    .withMaxInputBytes(maxInputBytes)
                    .withPageTargetBytes(pageBytes));
      } catch (FileSystemException e) {
        deleteQuietly(out);
        String why = e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
        throw new UserException(e.getFile() + ": " + why, e);
      } catch (IOException e) {
        deleteQuietly(out);
        throw new UserException(sym + ": " + e.getMessage(), e);
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      NativeHeader h = w.header();
      Map<String, Object> stats = new LinkedHashMap<>();
      stats.put("output", out.toString());
      stats.put("module", h.moduleName());
      stats.put("os", h.os());
      stats.put("arch", h.arch());
      stats.put("debug_id", h.debugId());
      stats.put("code_id", h.codeId());
      stats.put("code_file", h.codeFile());
      stats.put("format_version", h.formatVersion());
      stats.put("sym_bytes", h.sourceBytes());
      stats.put("table_bytes", w.tableBytes());
      stats.put(
          "table_ratio",
          h.sourceBytes() == 0
              ? 0
              : Math.round(10000.0 * w.tableBytes() / h.sourceBytes()) / 10000.0);
      stats.put("pages", h.pageCount());
      stats.put("functions", h.functionCount());
      stats.put("publics", h.publicCount());
      stats.put("lines", h.lineCount());
      stats.put("inline_ranges", h.inlineRangeCount());
      stats.put("files", h.fileCount());
      stats.put("inline_origins", h.inlineOriginCount());
      stats.put("dropped_functions", h.droppedFunctionCount());
      stats.put("corrupt", h.corrupt());
      stats.put("bad_lines", h.badLineCount());
      stats.put("bad_line_samples", h.badLineSamples());
      stats.put("seconds", Math.round(secs * 1000) / 1000.0);
      stats.put("mb_per_second", Math.round(h.sourceBytes() / 1e6 / secs * 10) / 10.0);
      PrintWriter pw = spec.commandLine().getOut();
      pw.println(toJson(stats));
      pw.flush();
    }
  }

  static NativeTable load(Path given, NativeSymbols.Options options) {
    Path file = CabFiles.expandIfCab(given);
    if (DebugFileTables.isDebugFile(file)) {
      try {
        return DebugFileTables.convert(file, new DumpSyms.Options(true, null, null), options)
            .table();
      } catch (DumpSymsException e) {
        throw new UserException(e.getMessage(), e);
      } catch (IOException e) {
        throw new UserException(file + ": " + e.getMessage(), e);
      }
    }
    checkReadable(file);
    try {
      if (NativeTableFile.isTableFile(file)) {
        return NativeTableFile.read(file);
      }
      if (isSymbfile(file, options.maxInputBytes())) {
        return loadSymbfile(options, file);
      }
      return NativeSymbols.convert(file, options);
    } catch (IOException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }

  /** True when the file (after gunzip) starts with the symbfile magic. */
  static boolean isSymbfile(Path file, long maxInputBytes) {
    checkReadable(file);
    try (InputStream in = DebugFileInput.open(file, maxInputBytes)) {
      return Arrays.equals(in.readNBytes(SymbfileReader.MAGIC.length), SymbfileReader.MAGIC);
    } catch (IOException e) {
      return false; // not gzip after all, or unreadable: the .sym path reports it
    }
  }

  /** Ranges and return-pad symbfiles of one executable, converted into one table. */
  private static NativeTable loadSymbfile(NativeSymbols.Options options, Path... files) {
    String name =
        files[0].getFileName().toString().replaceFirst("(\\.ranges)?\\.symbfile(\\.gz)?$", "");
    Path current = files[0];
    try (SymbfileConverter c =
        new SymbfileConverter(new SymbfileConverter.Module(name, "", null), options)) {
      for (Path f : files) {
        current = f;
        try (InputStream in = Files.newInputStream(f)) {
          c.add(in);
        }
      }
      List<TablePage> pages = new ArrayList<>();
      NativeHeader h = c.finish(pages::add);
      return new NativeTable(h, pages);
    } catch (SymbfileException e) {
      throw new UserException(current + ": not a valid symbfile: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UserException(current + ": " + e.getMessage(), e);
    }
  }

  private static void checkReadable(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new UserException(file + ": no such file");
    }
    if (!Files.isReadable(file)) {
      throw new UserException(file + ": not readable");
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException | SecurityException e) {
      // best effort: the error that made us delete is the one to report
    }
  }

  static String lookupJson(NativeSymbolizer s, String text, CallerAdjust adjust) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("address", text);
    long address;
    try {
      address = parseAddress(text);
    } catch (NumberFormatException e) {
      m.put("error", "not a hex address");
      return toJson(m);
    }
    long at = adjust.apply(address);
    // a caller frame answers from its return pad (symbfile tables) where there is one
    NativeFrame f = adjust == CallerAdjust.NONE ? null : s.returnPad(address);
    if (f != null) {
      at = address - 1;
    }
    if (adjust != CallerAdjust.NONE) {
      m.put("lookup_address", hex(at));
      m.put("return_pad", f != null);
    }
    if (f == null) {
      f = s.lookup(at);
    }
    m.put("found", f != null);
    if (f != null) {
      m.put("function", f.function());
      m.put("function_base", hex(f.functionBase()));
      m.put("function_offset", hex(f.functionOffset()));
      m.put("file", f.file());
      m.put("line", f.line());
      m.put("line_base", f.lineBase() == null ? null : hex(f.lineBase()));
      m.put("is_multiple", f.multiple());
      m.put("is_public", f.fromPublic());
      List<Map<String, Object>> inl = new ArrayList<>();
      for (InlineFrame i : f.inlines()) {
        Map<String, Object> im = new LinkedHashMap<>();
        im.put("function", i.function());
        im.put("function_base", hex(i.functionBase()));
        im.put("file", i.file());
        im.put("line", i.line());
        im.put("line_base", i.lineBase() == null ? null : hex(i.lineBase()));
        inl.add(im);
      }
      m.put("inlines", inl);
    }
    return toJson(m);
  }

  static long parseAddress(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    if (t.startsWith("0x")) {
      t = t.substring(2);
    }
    if (t.isEmpty() || t.length() > 16) {
      throw new NumberFormatException(text);
    }
    return Long.parseUnsignedLong(t, 16);
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  private static String toJson(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}

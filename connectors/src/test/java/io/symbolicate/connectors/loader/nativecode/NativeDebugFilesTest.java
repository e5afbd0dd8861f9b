package io.symbolicate.connectors.loader.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.symbolicate.connectors.loader.CpuBudget;
import io.symbolicate.connectors.loader.LoaderSettings;
import io.symbolicate.connectors.loader.ModuleFetcher;
import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.loader.TableSink;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.HttpSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The loader's native path with debug files instead of a {@code .sym}: real ELF and Mach-O files
 * of the peers (Mozilla dump_syms' basic, symbolic's crash) placed in a directory source in each
 * layout, loaded through the fetcher's caching rules, and compared with the table of the peers'
 * own {@code .sym} of the same file.
 */
class NativeDebugFilesTest {
  private static final Path MOZILLA =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");
  private static final Path SYMBOLIC =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils");
  private static final String DEBUG_ID = "20AD60B0B4C68177552708AA192E77390";
  private static final String CODE_ID = "b060ad20c6b47781552708aa192e7739fac7c84a";
  private static final String CRASH_CODE_ID = "f1c3bcc0279865fe3058404b2831d9e64135386c";
  private static final String CRASH_DEBUG_ID = "C0BCC3F19827FE653058404B2831D9E60";

  @TempDir Path dir;
  private final Map<ModuleRef, CompactTable> tables = new HashMap<>();
  private final List<ModuleState> states = new ArrayList<>();
  private final AtomicInteger fetches = new AtomicInteger();

  private final TableSink sink =
      new TableSink() {
        @Override
        public ModuleState publishFound(
            ModuleRef ref, CompactTable table, String source, long now) {
          tables.put(ref, table);
          return record(ref, TableStatus.found, source);
        }

        @Override
        public ModuleState publishNegative(
            ModuleRef ref,
            TableStatus status,
            int formatVersion,
            String message,
            String source,
            long now,
            long retryAfter) {
          return record(ref, status, message);
        }

        @Override
        public void deletePages(ModuleRef ref, long generation, List<Long> pageKeys) {}
      };

  @BeforeEach
  void clear() {
    tables.clear();
    states.clear();
  }

  private ModuleState record(ModuleRef ref, TableStatus status, String message) {
    ModuleState s =
        ModuleState.newBuilder()
            .setModule(ref.toString())
            .setStatus(status)
            .setFormatVersion(0)
            .setGeneration(0)
            .setHeader(null)
            .setPageCount(0)
            .setPageKeys(List.of())
            .setTableBytes(0)
            .setSource("test")
            .setMessage(message)
            .setUpdatedAt(Instant.EPOCH)
            .setLastUsed(null)
            .setRetryAfter(null)
            .build();
    states.add(s);
    return s;
  }

  private ModuleState load(ModuleRef ref, DebugFileLayouts layouts) throws Exception {
    SymbolSource counted =
        new SymbolSource() {
          final FileSystemSource inner = new FileSystemSource(dir);

          @Override
          public String type() {
            return "dir";
          }

          @Override
          public String name() {
            return inner.name();
          }

          @Override
          public FetchResult fetch(String key) {
            fetches.incrementAndGet();
            return inner.fetch(key);
          }

          @Override
          public String keyOfPointer(String path) {
            return inner.keyOfPointer(path);
          }
        };
    return load(ref, layouts, counted);
  }

  private ModuleState load(ModuleRef ref, DebugFileLayouts layouts, SymbolSource counted)
      throws Exception {
    LoaderSettings d = LoaderSettings.defaults();
    LoaderSettings settings =
        new LoaderSettings(
            1,
            3,
            Duration.ofMillis(1),
            d.missingRetry(),
            d.malformedRetry(),
            d.failedRetry(),
            d.unusedTtl(),
            d.maxInputBytes(),
            d.coalesceWindow(),
            new CpuBudget(1, 1), // unpaced: the test measures nothing
            false);
    Map<TableKind, TableConverter> converters =
        Map.of(TableKind.NATIVE, new NativeTableConverter());
    Map<TableKind, ModuleLocator> locators =
        Map.of(TableKind.NATIVE, new NativeModuleLocator(layouts, d.maxInputBytes()));
    return new ModuleFetcher(
            new SourceChain(List.of(counted)),
            converters,
            locators,
            settings,
            new SymbolLoader.Stats())
        .load(ref, sink, null)
        .state();
  }

  private static ModuleRef ref(String key) {
    return new ModuleRef("global", TableKind.NATIVE, key);
  }

  private void place(String key, Path fixture) throws IOException {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.copy(fixture, p);
  }

  private static NativeSymbolizer fromSym(Path sym) throws IOException {
    return NativeSymbolizer.inMemory(NativeSymbols.convert(sym));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // the module as an event names it (debug_file/debug_id, or by build id), the files' keys
    "native debug file (the upload's key), basic/"
        + DEBUG_ID
        + ", basic/"
        + DEBUG_ID
        + "/basic, basic.full, '', ''",
    "native debug file + the executable by the build id it names, basic/"
        + DEBUG_ID
        + ", basic/"
        + DEBUG_ID
        + "/basic, basic.dbg, basic/B060AD20C6B47781552708AA192E7739FAC7C84A/basic,"
        + " basic.stripped",
    "unified by debug id, basic/"
        + DEBUG_ID
        + ", 20/ad60b0b4c68177552708aa192e77390/debuginfo,"
        + " basic.full, '', ''",
    "native executable + debug file by build id, buildid/"
        + CODE_ID
        + "/basic, basic/"
        + DEBUG_ID
        + "/basic, basic.dbg, basic/B060AD20C6B47781552708AA192E7739FAC7C84A/basic,"
        + " basic.stripped",
    "unified by build id, buildid/"
        + CODE_ID
        + "/basic, b0/60ad20c6b47781552708aa192e7739fac7c84a"
        + "/debuginfo, basic.dbg, b0/60ad20c6b47781552708aa192e7739fac7c84a/executable,"
        + " basic.stripped",
    "symstore without a name, buildid/"
        + CODE_ID
        + ", _.debug/elf-buildid-sym-"
        + CODE_ID
        + "/_.debug, basic.full, '', ''",
    "debuginfod, buildid/"
        + CODE_ID
        + ", buildid/"
        + CODE_ID
        + "/debuginfo, basic.dbg, buildid/"
        + CODE_ID
        + "/executable, basic.stripped",
  })
  void loadsTheDebugFilesOfEachLayoutAsTheSymOfTheSameFile(
      String layout, String key, String debugKey, String debug, String exeKey, String exe)
      throws Exception {
    place(debugKey, MOZILLA.resolve(debug));
    if (!exeKey.isEmpty()) {
      place(exeKey, MOZILLA.resolve(exe));
    }
    ModuleState s = load(ref(key), DebugFileLayouts.defaults());
    assertThat(s.getStatus()).as(layout + ": " + s.getMessage()).isEqualTo(TableStatus.found);
    NativeSymbolizer table = NativeSymbolizer.inMemory((NativeTable) tables.get(ref(key)));
    NativeSymbolizer peer = fromSym(MOZILLA.resolve("basic.full.inlines.sym"));
    for (long rel : new long[] {0x1125, 0x1166, 0x11f4, 0x12c0, 0x1040}) {
      NativeFrame ours = table.lookup(rel);
      assertThat(String.valueOf(ours))
          .as("%s: lookup %x", layout, rel)
          .isEqualTo(String.valueOf(peer.lookup(rel)));
      assertThat(table.cfiRuleSets(rel))
          .as("%s: CFI at %x", layout, rel)
          .isEqualTo(peer.cfiRuleSets(rel));
    }
    assertThat(table.lookup(0x1125).function()).isNotBlank();
    assertThat(table.header().debugId()).isEqualTo(DEBUG_ID);
  }

  /**
   * symbolic's crash: DWARF only in crash.debug (its .eh_frame there has no bytes), unwind info
   * only in the executable, as with Debian's ceph-osd; debug info comes from the one and CFI
   * from the other, the CFI equal to Breakpad's .sym of the executable.
   */
  @Test
  void debugInfoFromTheDebugFileAndUnwindInfoFromTheExecutable() throws Exception {
    place("buildid/" + CRASH_CODE_ID + "/debuginfo", SYMBOLIC.resolve("linux/crash.debug"));
    place("buildid/" + CRASH_CODE_ID + "/executable", SYMBOLIC.resolve("linux/crash"));
    ModuleRef ref = ref("buildid/" + CRASH_CODE_ID + "/crash");
    assertThat(load(ref, DebugFileLayouts.defaults()).getStatus()).isEqualTo(TableStatus.found);
    NativeSymbolizer table = NativeSymbolizer.inMemory((NativeTable) tables.get(ref));
    NativeSymbolizer peer = fromSym(SYMBOLIC.resolve("linux/crash.sym"));

    NativeFrame main = table.lookup(0x1c70);
    assertThat(main.function()).isEqualTo("main");
    assertThat(main.fromPublic()).as("from DWARF, not the symbol table").isFalse();
    assertThat(main.file()).endsWith(".cpp");
    assertThat(main.line()).isPositive();
    List<Long> cfiStarts = cfiStarts(SYMBOLIC.resolve("linux/crash.sym"));
    assertThat(cfiStarts).hasSizeGreaterThan(100);
    List<Long> differ = new ArrayList<>();
    for (long at : cfiStarts) {
      if (!table.cfiRuleSets(at).equals(peer.cfiRuleSets(at))) {
        differ.add(at);
      }
    }
    // the one documented difference (docs/native.md, "Unwind info"): _start's return address is
    // undefined, which Mozilla's dump_syms leaves out and Breakpad's writes as .cfa -8
    assertThat(differ).containsExactly(0x1dc0L);
    assertThat(table.lookup(0x1dc0).function()).isEqualTo("_start");
    assertThat(table.cfiRuleSets(0x1dc0)).containsExactly(".cfa: $rsp 8 +");

    // the debug file alone has the functions but no unwind info
    Files.delete(dir.resolve("buildid/" + CRASH_CODE_ID + "/executable"));
    tables.clear();
    assertThat(load(ref, DebugFileLayouts.defaults()).getStatus()).isEqualTo(TableStatus.found);
    NativeSymbolizer alone = NativeSymbolizer.inMemory((NativeTable) tables.get(ref));
    assertThat(alone.lookup(0x1c70).line()).isEqualTo(main.line());
    assertThat(alone.cfiRuleSets(0x1c70)).isEmpty();
    assertThat(table.cfiRuleSets(0x1c70)).isNotEmpty();
  }

  private static List<Long> cfiStarts(Path sym) throws IOException {
    try (Stream<String> lines = Files.lines(sym)) {
      return lines
          .filter(l -> l.startsWith("STACK CFI INIT "))
          .map(l -> Long.parseUnsignedLong(l.split(" ")[3], 16))
          .toList();
    }
  }

  private static final Path WINDOWS = SYMBOLIC.resolve("windows");
  private static final Path MOZILLA_WINDOWS =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/windows");
  private static final String CRASH_PDB_ID = "3249D99D0C4049318610F4E4FB0B69361";
  private static final String BASIC32_PDB_ID = "34060D222DBB44E5AA72243CE8326C2F2";

  /**
   * A Windows module (debug file crash.pdb) found in a directory holding a symbol store in each
   * layout and casing, converted from the PDB straight into the table: every function of the
   * {@code .sym} Breakpad's dump_syms.exe wrote from the same PDB (symbolic's crash.sym) is found
   * at its address, with its first line.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "native (the upload's key), dir:native, crash.pdb/" + CRASH_PDB_ID + "/crash.pdb",
    "symstore, dir:symstore, crash.pdb/" + CRASH_PDB_ID + "/crash.pdb",
    "symstore in another case, dir:symstore, Crash.PDB/3249d99d0c4049318610f4e4fb0b69361/CRASH.pdb",
    "symstore_index2, dir:symstore_index2, cr/crash.pdb/" + CRASH_PDB_ID + "/crash.pdb",
    "ssqp, dir:ssqp, crash.pdb/3249d99d0c4049318610f4e4fb0b69361/crash.pdb",
  })
  void aPdbInEachSymbolStoreLayoutLoadsAsBreakpadsSym(String what, String layouts, String key)
      throws Exception {
    place(key, WINDOWS.resolve("crash.pdb"));
    ModuleRef ref = ref("crash.pdb/" + CRASH_PDB_ID);
    ModuleState s = load(ref, DebugFileLayouts.parse(layouts));
    assertThat(s.getStatus()).as(what + ": " + s.getMessage()).isEqualTo(TableStatus.found);
    assertSameFunctionsAndLines(
        NativeSymbolizer.inMemory((NativeTable) tables.get(ref)), WINDOWS.resolve("crash.sym"));
  }

  /**
   * Functions at the golden's FUNC addresses, each with the golden's base and first line; folded
   * functions ({@code FUNC m}) are left out, as PdbDumpTest leaves them (which of the folded
   * names and lines answers is the dumper's choice).
   */
  private static void assertSameFunctionsAndLines(NativeSymbolizer table, Path golden)
      throws IOException {
    NativeSymbolizer peer = fromSym(golden);
    List<Long> starts;
    try (Stream<String> lines = Files.lines(golden)) {
      starts =
          lines
              .filter(l -> l.startsWith("FUNC ") && !l.startsWith("FUNC m "))
              .map(
                  l ->
                      Long.parseUnsignedLong(
                          l.split(" ")[1].equals("m") ? l.split(" ")[2] : l.split(" ")[1], 16))
              .toList();
    }
    assertThat(starts).hasSizeGreaterThan(20);
    for (long at : starts) {
      NativeFrame ours = table.lookup(at);
      NativeFrame theirs = peer.lookup(at);
      assertThat(ours).as("FUNC %x", at).isNotNull();
      assertThat(ours.functionBase()).as("FUNC %x", at).isEqualTo(theirs.functionBase());
      // an inline site at the function's start whose call line the PDB does not give leaves
      // the outer frame at line 0 and file "" (unknown), where Breakpad's .sym, without inlines,
      // has none
      Integer line =
          ours.line() != null && ours.line() == 0 && !ours.inlines().isEmpty() ? null : ours.line();
      assertThat(line).as("FUNC %x line", at).isEqualTo(theirs.line());
      String file =
          "".equals(ours.file()) && !ours.inlines().isEmpty() ? null : ours.file(); // likewise
      assertThat(file).as("FUNC %x file", at).isEqualToIgnoringCase(theirs.file());
    }
  }

  /** Mozilla's basic32.pd_ (makecab, MSZIP) in the symstore layout: expanded, then converted. */
  @Test
  void aCabCompressedPdbIsExpandedAndConverted() throws Exception {
    place("basic32.pdb/" + BASIC32_PDB_ID + "/basic32.pd_", MOZILLA_WINDOWS.resolve("basic32.pd_"));
    ModuleRef ref = ref("basic32.pdb/" + BASIC32_PDB_ID);
    ModuleState s = load(ref, DebugFileLayouts.parse("dir:symstore"));
    assertThat(s.getStatus()).as(s.getMessage()).isEqualTo(TableStatus.found);
    assertSameFunctionsAndLines(
        NativeSymbolizer.inMemory((NativeTable) tables.get(ref)),
        MOZILLA_WINDOWS.resolve("basic32.sym"));
  }

  @Test
  void aFilePtrIsFollowedWithinTheSourceOnly() throws Exception {
    String folder = "crash.pdb/" + CRASH_PDB_ID + "/";
    place("share/crash.pdb", WINDOWS.resolve("crash.pdb"));
    Files.createDirectories(dir.resolve(folder));
    ModuleRef ref = ref("crash.pdb/" + CRASH_PDB_ID);
    // a path relative to the store, with Windows separators
    Files.writeString(dir.resolve(folder + "file.ptr"), "PATH:share\\crash.pdb\r\n");
    ModuleState relative = load(ref, DebugFileLayouts.parse("dir:symstore"));
    assertThat(relative.getStatus()).as(relative.getMessage()).isEqualTo(TableStatus.found);
    // an absolute path inside the directory
    Files.writeString(
        dir.resolve(folder + "file.ptr"),
        "PATH:" + dir.resolve("share/crash.pdb").toAbsolutePath());
    tables.clear();
    assertThat(load(ref, DebugFileLayouts.parse("dir:symstore")).getStatus())
        .isEqualTo(TableStatus.found);
    // out of the source: not followed, the module is missing, the keys tried say why
    FileSystemSource source = new FileSystemSource(dir);
    for (String out :
        List.of(
            "PATH:../crash.pdb",
            "PATH:\\\\server\\syms\\crash.pdb",
            "PATH:/etc/passwd",
            "PATH:" + folder + "file.ptr")) {
      Files.writeString(dir.resolve(folder + "file.ptr"), out);
      assertThat(load(ref, DebugFileLayouts.parse("dir:symstore")).getStatus())
          .as(out)
          .isEqualTo(TableStatus.missing);
      FetchResult r =
          NativeModuleLocator.followPointer(
              source, folder + "file.ptr", (FetchResult.Found) source.fetch(folder + "file.ptr"));
      assertThat(((FetchResult.NotFound) r).tried()).as(out).contains("not followed");
    }
    Files.writeString(dir.resolve(folder + "file.ptr"), "MSG: withdrawn by the vendor");
    assertThat(load(ref, DebugFileLayouts.parse("dir:symstore")).getStatus())
        .isEqualTo(TableStatus.missing);
    FetchResult msg =
        NativeModuleLocator.followPointer(
            source, folder + "file.ptr", (FetchResult.Found) source.fetch(folder + "file.ptr"));
    assertThat(((FetchResult.NotFound) msg).tried()).contains("withdrawn by the vendor");
  }

  /**
   * An HTTP symbol server that ignores case, as Microsoft's does: the loader asks for the keys as
   * symstore.exe writes them; the CAB-compressed PDB is found, and a file.ptr naming a URL under
   * the server's base is followed there.
   */
  @Test
  void anHttpSymbolStoreServesACompressedPdbAndAPointer() throws Exception {
    Map<String, byte[]> files = new HashMap<>();
    files.put(
        "/symbols/basic32.pdb/" + BASIC32_PDB_ID.toLowerCase() + "/basic32.pd_",
        Files.readAllBytes(MOZILLA_WINDOWS.resolve("basic32.pd_")));
    files.put("/symbols/share/crash.pdb", Files.readAllBytes(WINDOWS.resolve("crash.pdb")));
    List<String> asked = new ArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/symbols";
    files.put(
        "/symbols/crash.pdb/" + CRASH_PDB_ID.toLowerCase() + "/file.ptr",
        ("PATH:" + base + "/share/crash.pdb").getBytes(StandardCharsets.UTF_8));
    server.createContext(
        "/",
        ex -> {
          String path = ex.getRequestURI().getPath();
          asked.add(path);
          byte[] body = files.get(path.toLowerCase());
          ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
          try (OutputStream os = ex.getResponseBody()) {
            if (body != null) {
              os.write(body);
            }
          }
        });
    server.start();
    try {
      SymbolSource http = new HttpSource(URI.create(base), Duration.ofSeconds(5));
      ModuleRef basic = ref("basic32.pdb/" + BASIC32_PDB_ID);
      ModuleState s = load(basic, DebugFileLayouts.parse("http:symstore"), http);
      assertThat(s.getStatus()).as(s.getMessage()).isEqualTo(TableStatus.found);
      assertThat(asked)
          .contains("/symbols/basic32.pdb/" + BASIC32_PDB_ID + "/basic32.pd_")
          .noneMatch(
              a -> a.endsWith("basic32.pdb/" + BASIC32_PDB_ID.toLowerCase() + "/basic32.pd_"));
      ModuleRef crash = ref("crash.pdb/" + CRASH_PDB_ID);
      ModuleState c = load(crash, DebugFileLayouts.parse("http:symstore"), http);
      assertThat(c.getStatus()).as(c.getMessage()).isEqualTo(TableStatus.found);
      assertThat(asked).contains("/symbols/share/crash.pdb");
      assertSameFunctionsAndLines(
          NativeSymbolizer.inMemory((NativeTable) tables.get(crash)), WINDOWS.resolve("crash.sym"));
    } finally {
      server.stop(0);
    }
  }

  /**
   * Breakpad's export-only {@code pe_only_symbol_test.dll}, uploaded without its PDB (stored
   * under its own name and the debug id of its CodeView record): a module named by its PDB finds
   * the image and converts it alone, its unwind info in the table at each function of Breakpad's
   * {@code .sym} of the DLL.
   */
  @Test
  void aPeImageIsTheTableWhenItsPdbIsNowhere() throws Exception {
    Path testdata =
        SharedFixtures.fixtures("difs")
            .resolve("google-breakpad/src/tools/windows/dump_syms/testdata");
    String id = "2A5EAB481FAB4A17A9761CDC14FE531A1";
    place(
        "pe_only_symbol_test.dll/" + id + "/pe_only_symbol_test.dll",
        testdata.resolve("pe_only_symbol_test.dll"));
    ModuleRef ref = ref("pe_only_symbol_test.pdb/" + id);
    ModuleState s = load(ref, DebugFileLayouts.parse("dir:native"));
    assertThat(s.getStatus()).as(s.getMessage()).isEqualTo(TableStatus.found);
    NativeSymbolizer table = NativeSymbolizer.inMemory((NativeTable) tables.get(ref));
    List<String> inits =
        Files.readAllLines(testdata.resolve("pe_only_symbol_test.sym")).stream()
            .filter(l -> l.startsWith("STACK CFI INIT "))
            .map(l -> l.split(" ")[3])
            .toList();
    assertThat(inits).hasSizeGreaterThan(100);
    for (String a : inits) {
      assertThat(table.cfiRuleSets(Long.parseLong(a, 16))).as(a).isNotEmpty();
    }
  }

  /** A PDB under another module's id is not that module's: malformed, with both ids. */
  @Test
  void aPdbOfAnotherModuleIsMalformedNamingBothIds() throws Exception {
    String other = "0123456789ABCDEF0123456789ABCDEF1";
    place("crash.pdb/" + other + "/crash.pdb", WINDOWS.resolve("crash.pdb"));
    ModuleState s = load(ref("crash.pdb/" + other), DebugFileLayouts.parse("dir:native"));
    assertThat(s.getStatus()).isEqualTo(TableStatus.malformed);
    assertThat(s.getMessage()).contains(CRASH_PDB_ID).contains(other);
  }

  @Test
  void theSymComesFirst() throws Exception {
    place("basic/" + DEBUG_ID + "/basic.sym", MOZILLA.resolve("basic.full.sym"));
    Path junk = dir.resolve("basic/" + DEBUG_ID + "/basic");
    Files.writeString(junk, "\u007fELF but nothing after");
    assertThat(load(ref("basic/" + DEBUG_ID), DebugFileLayouts.defaults()).getStatus())
        .isEqualTo(TableStatus.found);
    // the .sym, then its source bundle's keys (native: basic.src.zip; unified: sourcebundle)
    assertThat(fetches.get()).as("one fetch: the .sym").isEqualTo(1 + 2);
  }

  @Test
  void aDsymZipIsRead() throws Exception {
    Path dsym = SYMBOLIC.resolve("macos/crash.dSYM");
    Path zip = dir.resolve("upload.zip");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
      out.putNextEntry(new ZipEntry("crash.dSYM/Contents/Info.plist"));
      Files.copy(dsym.resolve("Contents/Info.plist"), out);
      out.putNextEntry(new ZipEntry("crash.dSYM/Contents/Resources/DWARF/crash"));
      Files.copy(dsym.resolve("Contents/Resources/DWARF/crash"), out);
    }
    String id = "67E9247C814E392BA027DBDE6748FCBF0";
    place("crash/" + id + "/crash", zip);
    ModuleRef ref = ref("crash/" + id);
    ModuleState s = load(ref, DebugFileLayouts.defaults());
    assertThat(s.getStatus()).as(s.getMessage()).isEqualTo(TableStatus.found);
    NativeSymbolizer table = NativeSymbolizer.inMemory((NativeTable) tables.get(ref));
    List<String> funcs;
    try (Stream<String> lines = Files.lines(SYMBOLIC.resolve("macos/crash.sym"))) {
      funcs = lines.filter(l -> l.startsWith("FUNC ")).limit(40).toList();
    }
    int named = 0;
    for (String f : funcs) {
      String[] parts = f.split(" ", 5);
      NativeFrame ours = table.lookup(Long.parseLong(parts[1], 16));
      assertThat(ours).as(f).isNotNull();
      assertThat(ours.functionBase()).as(f).isEqualTo(Long.parseLong(parts[1], 16));
      named += parts[4].equals(ours.function()) ? 1 : 0;
    }
    assertThat(named).as("function names as Breakpad's .sym").isGreaterThan(30);
  }

  @Test
  void missingEverywhereIsMissingWithTheKeysTried() throws Exception {
    ModuleState s = load(ref("buildid/" + CODE_ID + "/basic"), DebugFileLayouts.defaults());
    assertThat(s.getStatus()).isEqualTo(TableStatus.missing);
    // .sym: native and unified; debug info: one key a layout; executable: one a layout, and
    // symstore's by name and by '_'
    assertThat(fetches.get()).isEqualTo(2 + 4 + 5);
  }

  @Test
  void onlyTheConfiguredLayoutsAreSearched() throws Exception {
    place("buildid/" + CODE_ID + "/debuginfo", MOZILLA.resolve("basic.full"));
    ModuleRef ref = ref("buildid/" + CODE_ID + "/basic");
    assertThat(load(ref, DebugFileLayouts.parse("dir:native,unified")).getStatus())
        .isEqualTo(TableStatus.missing);
    assertThat(load(ref, DebugFileLayouts.parse("dir:debuginfod")).getStatus())
        .isEqualTo(TableStatus.found);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "truncated ELF, '\u007fELF\u0002\u0001\u0001', ''",
    "a file of another module, '', basic.full",
    "a zip without an object file, 'PK', ''",
  })
  void aBadDebugFileIsMalformedWithAReasonAndFetchedOnce(String what, String text, String fixture)
      throws Exception {
    String key = "other/" + "0123456789ABCDEF0123456789ABCDEF0";
    Path p = dir.resolve(key + "/other");
    Files.createDirectories(p.getParent());
    if (!fixture.isEmpty()) {
      Files.copy(MOZILLA.resolve(fixture), p);
    } else if (text.equals("PK")) {
      try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(p))) {
        out.putNextEntry(new ZipEntry("readme.txt"));
        out.write("no debug file here".getBytes(StandardCharsets.UTF_8));
      }
    } else {
      try (OutputStream out = Files.newOutputStream(p)) {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.write(new byte[40]);
      }
    }
    ModuleState s = load(ref(key), DebugFileLayouts.defaults());
    assertThat(s.getStatus()).as(what).isEqualTo(TableStatus.malformed);
    assertThat(s.getMessage()).as(what).isNotBlank();
    if (!fixture.isEmpty()) {
      assertThat(s.getMessage()).contains(DEBUG_ID).contains("0123456789ABCDEF0123456789ABCDEF0");
    }
    // one search, nothing retried: two .sym keys (native, unified), the debug file found at its
    // first key, the executable's one key (unified by debug id); and when the file names a build
    // id, the executable's keys by it (native, unified, symstore twice, debuginfod); then the
    // source bundle's two keys (native, unified), looked for before the file converts
    assertThat(fetches.get()).as(what).isEqualTo((fixture.isEmpty() ? 4 : 4 + 5) + 2);
  }
}

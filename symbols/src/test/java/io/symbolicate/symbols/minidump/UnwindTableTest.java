package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ModuleSymbols;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.StackWinRecord;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The unwind records in the native table: the same answers however the table is paged, the
 * rules of every STACK CFI INIT record found at its address, and a walk that decodes only the
 * pages of the addresses it visits.
 */
class UnwindTableTest {
  static final Path SYMBOLS = MinidumpReaderTest.testdata().resolve("symbols");

  static NativeTable convert(Path sym, int pageTarget) throws Exception {
    return NativeSymbols.convert(
        sym, NativeSymbols.Options.defaults().withPageTargetBytes(pageTarget));
  }

  @Test
  void answersDoNotDependOnPaging() throws Exception {
    for (Path sym :
        List.of(
            SYMBOLS.resolve("test_app.pdb/5A9832E5287241C1838ED98914E9B7FF1/test_app.sym"),
            SYMBOLS.resolve("kernel32.pdb/BCE8785C57B44245A669896B6A19B9542/kernel32.sym"))) {
      NativeTable one = convert(sym, Integer.MAX_VALUE / 4);
      NativeTable many = convert(sym, 2048);
      assertThat(one.pages()).hasSize(1);
      assertThat(many.pages().size()).as(sym.toString()).isGreaterThan(10);
      NativeSymbolizer a = NativeSymbolizer.inMemory(one);
      NativeSymbolizer b = NativeSymbolizer.inMemory(many);
      List<Long> probes = new ArrayList<>();
      for (String line : Files.readAllLines(sym)) {
        String[] t = line.split(" ");
        if (line.startsWith("STACK CFI INIT ")) {
          long addr = Long.parseUnsignedLong(t[3], 16);
          long size = Long.parseUnsignedLong(t[4], 16);
          probes.add(addr);
          probes.add(addr + size - 1);
          probes.add(addr + size);
        } else if (line.startsWith("STACK WIN ")) {
          long addr = Long.parseUnsignedLong(t[3], 16);
          probes.add(addr);
          probes.add(addr + Long.parseUnsignedLong(t[4], 16) / 2);
        } else if (line.startsWith("FUNC ")) {
          probes.add(Long.parseUnsignedLong(t[1], 16));
        }
      }
      Random r = new Random(7);
      for (int i = 0; i < 2000; i++) {
        probes.add((long) r.nextInt(0x100000));
      }
      int withCfi = 0;
      int withWin = 0;
      for (long x : probes) {
        List<String> ca = a.cfiRuleSets(x);
        assertThat(b.cfiRuleSets(x)).as(sym + " cfi @" + Long.toHexString(x)).isEqualTo(ca);
        StackWinRecord wa = a.stackWin(x);
        assertThat(b.stackWin(x)).as(sym + " win @" + Long.toHexString(x)).isEqualTo(wa);
        assertThat(b.parameterSize(x)).isEqualTo(a.parameterSize(x));
        withCfi += ca.isEmpty() ? 0 : 1;
        withWin += wa == null ? 0 : 1;
      }
      assertThat(withCfi + withWin).as(sym + ": records found").isGreaterThan(0);
    }
  }

  @Test
  void everyCfiInitRecordIsFoundAtItsAddress() throws Exception {
    Path dir = GeneratedCorpus.minidump().resolve("symbols");
    Path sym = dir.resolve("libc.so.6");
    // system library symbols with STACK CFI
    GeneratedCorpus.need(Files.isDirectory(sym), "the generated corpus' libc symbols " + sym);
    try (var files = Files.walk(sym)) {
      sym = files.filter(p -> p.toString().endsWith(".sym")).findFirst().orElseThrow();
    }
    NativeSymbolizer s = NativeSymbolizer.inMemory(convert(sym, 16 << 10));
    int checked = 0;
    TreeMap<Long, Long> accepted = new TreeMap<>(); // high -> start
    for (String line : Files.readAllLines(sym)) {
      if (!line.startsWith("STACK CFI INIT ")) {
        continue;
      }
      String[] t = line.split(" ", 6);
      long addr = Long.parseUnsignedLong(t[3], 16);
      long size = Long.parseUnsignedLong(t[4], 16);
      var next = accepted.ceilingEntry(addr);
      if (size == 0 || (next != null && next.getValue() <= addr + size - 1)) {
        continue; // overlaps an earlier record: Breakpad drops it
      }
      accepted.put(addr + size - 1, addr);
      List<String> sets = s.cfiRuleSets(addr);
      assertThat(sets).as(line).isNotEmpty();
      assertThat(sets.get(0)).as(line).isEqualTo(t[5]);
      checked++;
    }
    assertThat(checked).isGreaterThan(1000);
  }

  /** A page source that decodes on demand and counts the pages it decoded. */
  static final class CountingPages implements PageSource<NativePage> {
    final InMemoryPageSource<NativePage> inner;
    final Set<Long> touched = new HashSet<>();

    CountingPages(NativeTable t) {
      inner = new InMemoryPageSource<>(t.pages(), NativePage::decode);
    }

    @Override
    public NativePage floor(long key) {
      NativePage p = inner.floor(key);
      if (p != null) {
        touched.add(p.firstKey());
      }
      return p;
    }
  }

  @Test
  void aWalkReadsOnlyThePagesItNeeds() throws Exception {
    NativeTable app =
        convert(
            SYMBOLS.resolve("test_app.pdb/5A9832E5287241C1838ED98914E9B7FF1/test_app.sym"), 4096);
    NativeTable k32 =
        convert(
            SYMBOLS.resolve("kernel32.pdb/BCE8785C57B44245A669896B6A19B9542/kernel32.sym"), 4096);
    CountingPages appPages = new CountingPages(app);
    CountingPages k32Pages = new CountingPages(k32);
    SymbolSupplier supplier =
        (CodeModule m) -> {
          if (m.debugFile().endsWith("test_app.pdb")) {
            return SymbolDirectory.of(new NativeSymbolizer(app.nativeHeader(), appPages));
          }
          if (m.debugFile().endsWith("kernel32.pdb")) {
            return SymbolDirectory.of(new NativeSymbolizer(k32.nativeHeader(), k32Pages));
          }
          return (ModuleSymbols) null;
        };
    String out;
    try (Minidump dump = Minidump.open(MinidumpReaderTest.testdata().resolve("minidump2.dmp"))) {
      out = MachineReadableWriter.write(new MinidumpProcessor(supplier).process(dump));
    }
    assertThat(out)
        .isEqualTo(StackwalkGoldenTest.golden("minidump2.stackwalk.machine_readable.out"));
    assertThat(app.pages().size()).isGreaterThan(50);
    assertThat(appPages.touched).isNotEmpty().hasSizeLessThan(app.pages().size() / 5);
    assertThat(k32Pages.touched).isNotEmpty().hasSizeLessThan(k32.pages().size() / 5);
  }
}

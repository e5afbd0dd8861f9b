package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.StackWinRecord;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A PDB converted straight into the native table (the loader's and the walker's path) answers
 * the stack walker's {@code STACK WIN} lookups as the table of Breakpad's golden {@code .sym}
 * does, at every golden record's first, middle and last byte: the record order and the FPO
 * records the older DIA keeps where frame data starts (docs/native.md) change no walk.
 */
class PdbTableTest {
  static final String BP = "google-breakpad/src/tools/windows/dump_syms/testdata/";

  @ParameterizedTest
  @CsvSource({
    "getsentry-symbolic/testutils/windows/crash.pdb, getsentry-symbolic/testutils/windows/crash.sym",
    BP + "dump_syms_regtest.pdb, " + BP + "dump_syms_regtest.sym",
    BP + "omap_reorder_bbs.pdb, " + BP + "omap_reorder_bbs.sym",
    BP + "omap_stretched.pdb, " + BP + "omap_stretched.sym"
  })
  void stackWinLookupsEqualTheGoldensTable(String pdb, String sym) throws Exception {
    Path difs = SharedFixtures.fixtures("difs");
    Path golden = difs.resolve(sym);
    List<String> lines = Files.readAllLines(golden);
    NativeSymbolizer expected = NativeSymbolizer.inMemory(NativeSymbols.convert(golden));
    NativeSymbolizer ours =
        NativeSymbolizer.inMemory(
            DebugFileTables.convert(
                    difs.resolve(pdb),
                    DumpSyms.Options.defaults(),
                    NativeSymbols.Options.defaults())
                .table());
    int found = 0;
    for (String l : lines) {
      if (!l.startsWith("STACK WIN ")) {
        continue;
      }
      String[] t = l.split(" ");
      long rva = Long.parseLong(t[3], 16);
      long size = Long.parseLong(t[4], 16);
      for (long x : new long[] {rva, rva + size / 2, rva + size - 1}) {
        StackWinRecord e = trimmed(expected.stackWin(x));
        assertThat(trimmed(ours.stackWin(x))).as(sym + " @" + Long.toHexString(x)).isEqualTo(e);
        found += e == null ? 0 : 1;
      }
    }
    assertThat(found).isGreaterThan(100);
  }

  /**
   * The record with its program string's trailing spaces cut: symbolic's crash.sym has them cut
   * (docs/native.md), and the walker's postfix evaluator splits on spaces.
   */
  static StackWinRecord trimmed(StackWinRecord r) {
    return r == null
        ? null
        : new StackWinRecord(r.type(), r.rva(), r.size(), r.fields().stripTrailing());
  }
}

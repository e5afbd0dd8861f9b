package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A table converted straight from a debug file answers every lookup as the table of the peer's
 * {@code .sym} for the same file does: each address that starts a FUNC, PUBLIC or line record of
 * the golden, and the byte before and after it.
 */
class DebugFileTablesTest {
  private static final Path DIFS = SharedFixtures.fixtures("difs");

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "mozilla-dump_syms/linux/basic.full, mozilla-dump_syms/linux/basic.full.inlines.sym, true",
    "mozilla-dump_syms/linux/basic.full, mozilla-dump_syms/linux/basic.full.sym, false",
    "mozilla-dump_syms/linux/basic.minidebuginfo, mozilla-dump_syms/linux/basic.minidebuginfo.sym,"
        + " false",
  })
  void answersAsThePeersSym(String file, String sym, boolean inlines) throws Exception {
    NativeTable ours =
        DebugFileTables.convert(
                DIFS.resolve(file),
                new DumpSyms.Options(inlines, null, null),
                NativeSymbols.Options.defaults())
            .table();
    NativeTable theirs = NativeSymbols.convert(DIFS.resolve(sym));
    NativeSymbolizer a = NativeSymbolizer.inMemory(ours);
    NativeSymbolizer b = NativeSymbolizer.inMemory(theirs);
    List<Long> addresses = addresses(DIFS.resolve(sym));
    assertThat(addresses).hasSizeGreaterThan(10);
    List<String> differences = new ArrayList<>();
    int found = 0;
    for (long address : addresses) {
      NativeFrame x = a.lookup(address);
      NativeFrame y = b.lookup(address);
      if (y != null) {
        found++;
      }
      if (!String.valueOf(x).equals(String.valueOf(y))) {
        differences.add(Long.toHexString(address) + ": ours " + x + ", theirs " + y);
      }
    }
    assertThat(found).isGreaterThan(addresses.size() / 2);
    assertThat(differences).isEmpty();
  }

  private static List<Long> addresses(Path sym) throws Exception {
    TreeSet<Long> out = new TreeSet<>();
    for (String line : Files.readAllLines(sym)) {
      String[] f = line.split(" ");
      String hex = null;
      if (line.startsWith("FUNC ") || line.startsWith("PUBLIC ")) {
        hex = f[1].equals("m") ? f[2] : f[1];
      } else if (f[0].matches("[0-9a-f]+")) {
        hex = f[0];
      }
      if (hex != null) {
        long at = Long.parseUnsignedLong(hex, 16);
        out.add(at);
        out.add(at + 1);
        if (at > 0) {
          out.add(at - 1);
        }
      }
    }
    return new ArrayList<>(out);
  }
}

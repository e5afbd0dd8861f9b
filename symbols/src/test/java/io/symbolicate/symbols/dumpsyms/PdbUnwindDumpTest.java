package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dump-syms} of a PDB whose image lies beside it writes the image's x64 unwind info as
 * Mozilla's dump_syms does (after the PUBLIC records): Mozilla's own golden for
 * dump_syms_regtest64 (up to the save-offset clamp of the symbolic it was written with, see
 * docs/native.md) and symbolic's snapshot of CrashWithException.exe.
 */
class PdbUnwindDumpTest {
  private static Path difs(String rel) {
    return SharedFixtures.fixtures("difs").resolve(rel);
  }

  private static List<String> stack(List<String> lines) {
    return lines.stream().filter(l -> l.startsWith("STACK ")).toList();
  }

  @ParameterizedTest
  @CsvSource({
    "mozilla-dump_syms/windows/dump_syms_regtest64.pdb,"
        + " mozilla-dump_syms/windows/dump_syms_regtest64.sym",
    "getsentry-symbolic/testutils/windows/CrashWithException.pdb,"
        + " getsentry-symbolic/snapshots/symbolic-cfi/tests/snapshots/test_cfi__cfi_pe_windows.snap"
  })
  void pdbWithItsImageGetsStackCfi(String pdb, String golden) throws Exception {
    SymWriter w = new SymWriter();
    DumpSyms.Report report = DumpSyms.dump(difs(pdb), DumpSyms.Options.defaults(), w);
    StringWriter s = new StringWriter();
    w.writeTo(s);
    List<String> ours = s.toString().lines().toList();
    List<String> clamped =
        stack(ours).stream().map(l -> l.replaceAll("\\.cfa -\\d+ - \\^", ".cfa 0 - ^")).toList();
    List<String> expected = stack(Files.readAllLines(difs(golden)));
    if (golden.endsWith(".sym")) {
      assertThat(clamped).containsExactlyElementsOf(expected);
    } else {
      assertThat(stack(ours)).containsExactlyElementsOf(expected);
    }
    assertThat(report.unwind().records()).isEqualTo(expected.size());
    assertThat(ours.subList(ours.size() - expected.size(), ours.size())).isEqualTo(stack(ours));
  }
}

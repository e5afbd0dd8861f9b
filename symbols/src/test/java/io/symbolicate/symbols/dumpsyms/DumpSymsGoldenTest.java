package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole {@code .sym} files of Mozilla's dump_syms, written by ours from the same ELF files. */
class DumpSymsGoldenTest {
  private static final Path MOZILLA =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");

  static String dump(Path file, DumpSyms.Options options) throws Exception {
    SymWriter writer = new SymWriter();
    DumpSyms.dump(file, options, writer);
    StringWriter out = new StringWriter();
    writer.writeTo(out);
    return out.toString();
  }

  private static List<String> golden(String name) throws IOException {
    return Files.readAllLines(MOZILLA.resolve(name));
  }

  @Test
  void fullElf() throws Exception {
    assertThat(dump(MOZILLA.resolve("basic.full"), DumpSyms.Options.defaults()).lines())
        .containsExactlyElementsOf(golden("basic.full.sym"));
  }

  @Test
  void fullElfWithInlines() throws Exception {
    assertThat(dump(MOZILLA.resolve("basic.full"), new DumpSyms.Options(true, null, null)).lines())
        .containsExactlyElementsOf(golden("basic.full.inlines.sym"));
  }

  @Test
  void miniDebugInfoGivesPublicsAndUnwind() throws Exception {
    assertThat(dump(MOZILLA.resolve("basic.minidebuginfo"), DumpSyms.Options.defaults()).lines())
        .containsExactlyElementsOf(golden("basic.minidebuginfo.sym"));
  }

  @Test
  void dwzFileWithoutItsSupplementaryFile() throws Exception {
    assertThat(dump(MOZILLA.resolve("basic.dwz"), new DumpSyms.Options(true, null, null)).lines())
        .containsExactlyElementsOf(golden("basic.dwz.inlines.sym"));
  }

  /**
   * A stripped executable with its split-off debug file: DWARF from the debug file, unwind info
   * from the executable. Mozilla's own test normalises the module's and the stub sections' file
   * names (the golden names the file the debug info was split from, and the stub sections after
   * the debug file), and so does this one.
   */
  @Test
  void strippedExecutableWithItsDebugFile() throws Exception {
    String ours =
        dump(
            MOZILLA.resolve("basic.stripped"),
            new DumpSyms.Options(false, null, MOZILLA.resolve("basic.dbg")));
    assertThat(normalise(ours.lines().toList()))
        .containsExactlyElementsOf(normalise(golden("basic.dbg.sym")));
  }

  /**
   * Breakpad's dialect on the same file differs only where docs/native.md says (the generated
   * minidump corpus checks its walks against Breakpad's): no stub-section publics, a CIE's return
   * address rule kept through {@code DW_CFA_undefined} ({@code _start}), and every line address
   * of Mozilla's records still a line record (Breakpad merges none).
   */
  @Test
  void breakpadDialectDiffersOnlyWhereDocumented() throws Exception {
    Path full = MOZILLA.resolve("basic.full");
    List<String> mozilla = dump(full, DumpSyms.Options.defaults()).lines().toList();
    List<String> breakpad =
        dump(full, DumpSyms.Options.defaults().withDialect(DumpSyms.Dialect.BREAKPAD))
            .lines()
            .toList();
    assertThat(mozilla).anyMatch(l -> l.contains(" ELF section in "));
    assertThat(breakpad).noneMatch(l -> l.contains(" ELF section in "));
    String startInit = "STACK CFI INIT 1040 2b .cfa: $rsp 8 +";
    assertThat(mozilla).contains(startInit);
    assertThat(breakpad).contains(startInit + " .ra: .cfa -8 + ^");
    List<String> lineAddresses = lineAddresses(mozilla);
    assertThat(lineAddresses(breakpad)).containsAll(lineAddresses).hasSizeGreaterThan(0);
    assertThat(breakpad.stream().filter(l -> l.startsWith("FUNC ")).count())
        .isEqualTo(mozilla.stream().filter(l -> l.startsWith("FUNC ")).count());
  }

  private static List<String> lineAddresses(List<String> sym) {
    return sym.stream()
        .filter(l -> !l.isEmpty() && Character.digit(l.charAt(0), 16) >= 0)
        .map(l -> l.substring(0, l.indexOf(' ')))
        .toList();
  }

  private static List<String> normalise(List<String> lines) {
    return lines.stream()
        .map(l -> l.replaceAll(" ELF section in [^>]*>$", " ELF section in X>"))
        .map(l -> l.startsWith("MODULE ") ? l.substring(0, l.lastIndexOf(' ')) + " X" : l)
        .toList();
  }

  @Test
  void filesItCannotReadGetAReason(@TempDir Path dir) throws Exception {
    Path sym = Files.writeString(dir.resolve("a.sym"), "MODULE Linux x86_64 00 a\n");
    assertThatThrownBy(() -> dump(sym, DumpSyms.Options.defaults()))
        .isInstanceOf(DumpSymsException.class)
        .hasMessageContaining("already a Breakpad .sym file");
    Path truncated = dir.resolve("cut");
    Files.write(
        truncated, java.util.Arrays.copyOf(Files.readAllBytes(MOZILLA.resolve("basic.full")), 200));
    assertThatThrownBy(() -> dump(truncated, DumpSyms.Options.defaults()))
        .isInstanceOf(DumpSymsException.class)
        .hasMessageContaining("cut");
    assertThatThrownBy(() -> dump(dir.resolve("missing"), DumpSyms.Options.defaults()))
        .isInstanceOf(DumpSymsException.class)
        .hasMessageContaining("no such file");
  }
}

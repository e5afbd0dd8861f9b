package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.testing.DifsCorpus;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A PE image dumped without its PDB: exports as PUBLIC, {@code .pdata} as STACK CFI. */
class PeDumperTest {
  private static final Path BREAKPAD =
      SharedFixtures.fixtures("difs")
          .resolve("google-breakpad/src/tools/windows/dump_syms/testdata");

  /** The functions {@code scripts/difs-win-corpus.sh} links into mathlib.dll with /export. */
  private static final Set<String> MATHLIB_EXPORTS =
      Set.of("ml_gcd", "ml_checksum", "ml_collatz_steps", "ml_tree_sum");

  /**
   * Breakpad's {@code pe_only_symbol_test.sym} (its {@code dump_syms.exe} on the DLL with no PDB):
   * the same MODULE and INFO lines, no PUBLIC (the DLL exports nothing), and a STACK CFI INIT for
   * each function Breakpad's has, at the same address and size (the rules' forms differ as
   * docs/native.md says; PeUnwindGoldenTest compares the CFA).
   */
  @Test
  void peOnlyDllGivesBreakpadsModuleInfoAndFunctions() throws Exception {
    List<String> golden = Files.readAllLines(BREAKPAD.resolve("pe_only_symbol_test.sym"));
    List<String> ours = dump(BREAKPAD.resolve("pe_only_symbol_test.dll")).lines().toList();
    assertThat(ours.subList(0, 2)).isEqualTo(golden.subList(0, 2));
    assertThat(ours).noneMatch(l -> l.startsWith("PUBLIC ") || l.startsWith("FUNC "));
    assertThat(inits(ours)).hasSizeGreaterThan(100).isEqualTo(inits(golden));
  }

  /**
   * mathlib.dll of the generated Windows corpus without its PDB: MODULE and INFO with the ids
   * llvm-readobj read, its four /export functions as PUBLIC, STACK CFI; and every corpus address
   * whose outer function (llvm-symbolizer's, from the PDB) is an export answers that function.
   */
  @Test
  void corpusDllWithoutItsPdbAnswersItsExports() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadWindowsOrSkip();
    DifsCorpus.Case c =
        corpus.cases().stream()
            .filter(k -> k.binary().endsWith("mathlib.dll"))
            .findFirst()
            .orElseThrow();
    String sym = dump(corpus.resolve(c.binary()));
    List<String> lines = sym.lines().toList();
    assertThat(lines.get(0))
        .isEqualTo("MODULE windows x86_64 " + c.identity().get("debug_id") + " mathlib.pdb");
    assertThat(lines.get(1))
        .isEqualTo("INFO CODE_ID " + c.identity().get("code_id") + " mathlib.dll");
    assertThat(
            lines.stream()
                .filter(l -> l.startsWith("PUBLIC "))
                .map(l -> l.split(" ", 4)[3])
                .collect(Collectors.toSet()))
        .isEqualTo(MATHLIB_EXPORTS);
    assertThat(lines).anyMatch(l -> l.startsWith("STACK CFI INIT "));
    NativeSymbolizer s =
        NativeSymbolizer.inMemory(
            NativeSymbols.convert(
                new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
                NativeSymbols.Options.defaults()));
    int checked = 0;
    for (DifsCorpus.Lookup l : c.addresses()) {
      String outer = l.frames().get(l.frames().size() - 1).function();
      if (MATHLIB_EXPORTS.contains(outer)) {
        NativeFrame f = s.lookup(l.addressValue());
        assertThat(f).as(l.address()).isNotNull();
        assertThat(f.function()).as(l.address()).isEqualTo(outer);
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(20);
  }

  private static List<String> inits(List<String> sym) {
    return sym.stream()
        .filter(l -> l.startsWith("STACK CFI INIT "))
        .map(l -> String.join(" ", List.of(l.split(" ")).subList(3, 5)))
        .toList();
  }

  private static String dump(Path file) throws Exception {
    SymWriter w = new SymWriter();
    DumpSyms.dump(file, DumpSyms.Options.defaults(), w);
    StringWriter s = new StringWriter();
    w.writeTo(s);
    return s.toString();
  }
}

package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.testing.DifsCorpus;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every address of the generated Windows corpus (scripts/difs-win-corpus.sh: clang-cl and
 * lld-link PE + PDB pairs, x86_64 /Od to /O2 with inlining, a DLL, x86, arm64) looked up in the
 * table converted from the PDB with its image beside it, as {@code native lookup --sym FILE.pdb}
 * converts it: function, file, line and inline chain against llvm-symbolizer 19's answer where
 * llvm-pdbutil 19's line dump agrees. The documented disagreements (two C13 rows at one offset:
 * llvm-symbolizer answers the first, Breakpad and we the later one, docs/native.md) must give
 * llvm-symbolizer's frames with llvm-pdbutil's line. The {@code .sym} {@code native dump-syms}
 * writes of each PDB (with and without {@code --inlines}) must load in our {@code .sym} parser
 * and answer the same.
 */
class GeneratedWindowsLookupTest {
  private static final String SHADOWED = "two rows at one offset";

  @Test
  void lookupsAgreeWithLlvmSymbolizerAndTheDumpedSymAnswersTheSame() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadWindowsOrSkip();
    Map<String, int[]> byCase = new TreeMap<>();
    List<String> differ = new ArrayList<>();
    int total = 0;
    int agreed = 0;
    int inlined = 0;
    int documented = 0;
    for (DifsCorpus.Case c : corpus.cases()) {
      Path pdb = corpus.resolve(c.debugFile());
      int[] counts = byCase.computeIfAbsent(c.binary(), k -> new int[2]);
      // as NativeCommand.load converts a debug file given to --sym
      DebugFileTables.Converted converted =
          DebugFileTables.convert(
              pdb, new DumpSyms.Options(true, null, null), NativeSymbols.Options.defaults());
      assertThat(converted.report().identity().debugId())
          .as(c.name() + " debug id (llvm-readobj's)")
          .isEqualTo(c.identity().get("debug_id"));
      NativeSymbolizer direct = NativeSymbolizer.inMemory(converted.table());
      String sym = dumpSyms(pdb, true);
      assertThat(sym.lines().findFirst().orElseThrow())
          .isEqualTo(
              "MODULE windows "
                  + c.arch()
                  + " "
                  + c.identity().get("debug_id")
                  + " "
                  + pdb.getFileName());
      assertThat(sym)
          .as(c.name() + " code id (llvm-readobj's)")
          .contains(
              "\nINFO CODE_ID "
                  + c.identity().get("code_id")
                  + " "
                  + Path.of(c.binary()).getFileName()
                  + "\n");
      if (!"x86".equals(c.arch())) {
        assertThat(sym).as(c.name() + " STACK CFI from .pdata").contains("\nSTACK CFI INIT ");
      }
      NativeSymbolizer fromSym = symbolizer(sym);
      NativeSymbolizer fromPlainSym = symbolizer(dumpSyms(pdb, false));
      List<Expected> all = new ArrayList<>();
      for (DifsCorpus.Lookup l : c.addresses()) {
        all.add(new Expected(l.addressValue(), GeneratedDifsLookupTest.expected(l.frames()), null));
      }
      for (DifsCorpus.Disagreement d : c.disagreements()) {
        assertThat(d.kind())
            .as(c.name() + " " + d.address() + " " + d.answers())
            .isEqualTo(SHADOWED);
        List<DifsCorpus.Frame> llvm = new ArrayList<>(d.answers().get("llvm-symbolizer"));
        DifsCorpus.Frame row = d.answers().get("llvm-pdbutil").get(0);
        DifsCorpus.Frame outer = llvm.remove(llvm.size() - 1);
        llvm.add(new DifsCorpus.Frame(outer.function(), null, outer.file(), row.line()));
        all.add(new Expected(d.addressValue(), GeneratedDifsLookupTest.expected(llvm), d.kind()));
      }
      for (Expected e : all) {
        total++;
        counts[1]++;
        List<String> ours = GeneratedDifsLookupTest.frames(direct.lookup(e.address()));
        if (ours.equals(e.frames())) {
          agreed++;
          counts[0]++;
          inlined += e.frames().size() > 1 ? 1 : 0;
          documented += e.kind() != null ? 1 : 0;
        } else if (differ.size() < 30) {
          differ.add(
              c.binary()
                  + String.format(" 0x%x", e.address())
                  + ": ours "
                  + ours
                  + " expected "
                  + e.frames());
        }
        // the .sym dump-syms writes answers as the table converted straight from the PDB
        assertThat(GeneratedDifsLookupTest.frames(fromSym.lookup(e.address())))
            .as(c.name() + String.format(" 0x%x through dump-syms --inlines", e.address()))
            .isEqualTo(ours);
        List<String> outerOnly = ours.isEmpty() ? ours : ours.subList(ours.size() - 1, ours.size());
        assertThat(GeneratedDifsLookupTest.frames(fromPlainSym.lookup(e.address())))
            .as(c.name() + String.format(" 0x%x through dump-syms", e.address()))
            .isEqualTo(outerOnly);
      }
    }
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            "Windows corpus: agreed %d of %d (%.2f%%), %d with inline frames, %d documented"
                + " (%s)%n",
            agreed, total, 100.0 * agreed / total, inlined, documented, SHADOWED));
    byCase.forEach((k, v) -> report.append(String.format("  %-32s %4d / %4d%n", k, v[0], v[1])));
    differ.forEach(s -> report.append("  e.g. ").append(s).append('\n'));
    System.out.println(report);
    assertThat(corpus.cases()).extracting(DifsCorpus.Case::arch).contains("x86_64", "x86", "arm64");
    assertThat(inlined).as("answers with inline frames").isGreaterThan(200);
    assertThat(agreed).as(report.toString()).isEqualTo(total);
  }

  private record Expected(long address, List<String> frames, String kind) {}

  private static String dumpSyms(Path pdb, boolean inlines) throws Exception {
    SymWriter w = new SymWriter();
    DumpSyms.dump(pdb, new DumpSyms.Options(inlines, null, null), w);
    StringWriter s = new StringWriter();
    w.writeTo(s);
    return s.toString();
  }

  private static NativeSymbolizer symbolizer(String sym) throws Exception {
    return NativeSymbolizer.inMemory(
        NativeSymbols.convert(
            new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
            NativeSymbols.Options.defaults()));
  }
}

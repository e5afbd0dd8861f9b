package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.objects.ObjectFeature;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.ObjectKind;
import io.symbolicate.symbols.testing.DifsCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@link DumpSyms} finds split DWARF, on the generated corpus (scripts/difs-corpus.sh): the
 * {@code .dwo} files beside the executable (their skeletons' compile directory is {@code .}) and
 * the package {@code app.dwp}; and what a dump keeps when a {@code .dwo} is missing or is another
 * unit's.
 */
class SplitDwarfFilesTest {
  @TempDir Path tmp;

  private static Report dump(Path binary) throws Exception {
    DebugFileTables.Converted c =
        DebugFileTables.convert(
            binary, new DumpSyms.Options(true, null, null), NativeSymbols.Options.defaults());
    return new Report(NativeSymbolizer.inMemory(c.table()), c.report());
  }

  private record Report(NativeSymbolizer symbolizer, DumpSyms.Report report) {}

  @Test
  void everySplitCaseFindsItsDwarfWithoutANote() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    int cases = 0;
    int inlinedTotal = 0;
    for (DifsCorpus.Case c : corpus.cases()) {
      if (!c.packaging().startsWith("split")) {
        continue;
      }
      cases++;
      Report r = dump(corpus.resolve(c.binary()));
      assertThat(r.report().notes()).as(c.name()).isEmpty();
      int inlined = 0;
      int expectedInlined = 0;
      for (DifsCorpus.Lookup l : c.addresses()) {
        NativeFrame f = r.symbolizer().lookup(l.addressValue());
        inlined += f != null && !f.inlines().isEmpty() ? 1 : 0;
        expectedInlined += l.frames().size() > 1 ? 1 : 0;
      }
      // inlines are only in the split units: finding them proves they were read
      assertThat(inlined)
          .as(c.name() + " lookups with inlines")
          .isGreaterThanOrEqualTo(expectedInlined);
      inlinedTotal += inlined;
    }
    assertThat(cases).isGreaterThanOrEqualTo(4);
    assertThat(inlinedTotal).isPositive();
  }

  /**
   * gcc's DWARF 4 {@code .dwp} is where the corpus's tools split 2-2 (docs/native.md): binutils
   * and elfutils see only the skeleton, the LLVM pair reads the package. We read the package too,
   * so on those documented disagreements we give llvm-symbolizer's frames, inlines included.
   */
  @Test
  void gccDwarf4PackageDisagreementsGetLlvmSymbolizersAnswer() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    DifsCorpus.Case c = splitCase(corpus, "gcc-O2-dwarf4-split-dwp");
    assertThat(c.disagreements()).hasSizeGreaterThan(100);
    Report r = dump(corpus.resolve(c.binary()));
    int same = 0;
    int withInlines = 0;
    List<String> differ = new ArrayList<>();
    for (DifsCorpus.Disagreement d : c.disagreements()) {
      List<DifsCorpus.Frame> llvm = d.answers().get("llvm-symbolizer");
      if (llvm == null) {
        continue;
      }
      List<String> ours =
          GeneratedDifsLookupTest.frames(
              r.symbolizer().lookup(Long.parseUnsignedLong(d.address().substring(2), 16)));
      if (ours.equals(GeneratedDifsLookupTest.expected(llvm))) {
        same++;
        withInlines += llvm.size() > 1 ? 1 : 0;
      } else if (differ.size() < 10) {
        differ.add(d.address() + ": ours " + ours + " llvm " + llvm);
      }
    }
    System.out.printf(
        "gcc DWARF 4 .dwp: %d of %d disagreements as llvm-symbolizer, %d with inlines%n",
        same, c.disagreements().size(), withInlines);
    assertThat(same)
        .as(String.join("\n", differ))
        .isGreaterThan(c.disagreements().size() * 95 / 100);
    assertThat(withInlines).isPositive();
  }

  @Test
  void dwoCandidatesFollowCompDirThenTheExecutablesFolder() {
    Path app = tmp.resolve("bin/app");
    Path debug = tmp.resolve("dbg/app.debug");
    List<String> notes = new ArrayList<>();
    SplitDwarfFiles files = new SplitDwarfFiles(Arrays.asList(app, debug), notes);
    assertThat(files.candidates("obj/x.dwo", "/build"))
        .startsWith(Path.of("/build/obj/x.dwo"))
        .contains(tmp.resolve("bin/obj/x.dwo"), tmp.resolve("bin/x.dwo"), tmp.resolve("dbg/x.dwo"));
    assertThat(files.candidates("x.dwo", "."))
        .containsExactly(tmp.resolve("bin/x.dwo"), tmp.resolve("dbg/x.dwo"));
    assertThat(files.candidates("/abs/x.dwo", "/build"))
        .startsWith(Path.of("/abs/x.dwo"))
        .contains(tmp.resolve("bin/x.dwo"));
    assertThat(files.find("missing.dwo", ".")).isNull();
    assertThat(notes).isEmpty();
  }

  @Test
  void packageIsFoundBesideTheExecutable() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    Path app = corpus.resolve("gcc-O2-dwarf4-split-dwp/app");
    assertThat(SplitDwarfFiles.packageOf(app, null)).isEqualTo(app.resolveSibling("app.dwp"));
    assertThat(SplitDwarfFiles.packageOf(corpus.resolve("gcc-O2-dwarf5-split-dwo/app"), null))
        .isNull();
  }

  @Test
  void missingDwoKeepsTheSkeletonLinesAndTheSymbols() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    DifsCorpus.Case c = splitCase(corpus, "gcc-O2-dwarf5-split-dwo");
    Path app = Files.copy(corpus.resolve(c.binary()), tmp.resolve("app"));
    Report r = dump(app);
    assertThat(r.report().notes())
        .anyMatch(n -> n.contains("app.dwo") && n.contains("not found"))
        .anyMatch(n -> n.contains("shapes.dwo") && n.contains("not found"));
    int sameLeafLine = 0;
    int named = 0;
    for (DifsCorpus.Lookup l : c.addresses()) {
      NativeFrame f = r.symbolizer().lookup(l.addressValue());
      DifsCorpus.Frame leaf = l.frames().get(0);
      if (f != null && f.line() != null && f.line() == leaf.line()) {
        sameLeafLine++;
      }
      if (f != null && !f.fromPublic() && f.function() != null && !f.function().isEmpty()) {
        named++;
      }
    }
    // no inlines without the .dwo, but every address keeps its line and a FUNC from the symbols
    assertThat(sameLeafLine).isGreaterThan(c.addresses().size() * 9 / 10);
    assertThat(named).isGreaterThan(c.addresses().size() * 9 / 10);
  }

  @Test
  void anotherUnitsDwoIsRefused() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    Path dir = corpus.resolve("clang-O2-dwarf5-split-dwo");
    Files.copy(dir.resolve("app"), tmp.resolve("app"));
    Files.copy(dir.resolve("shapes.dwo"), tmp.resolve("app.dwo"));
    Files.copy(dir.resolve("shapes.dwo"), tmp.resolve("shapes.dwo"));
    Files.copy(dir.resolve("mathlib.dwo"), tmp.resolve("mathlib.dwo"));
    Report r = dump(tmp.resolve("app"));
    assertThat(r.report().notes())
        .singleElement()
        .asString()
        .contains("app.dwo has DWO id")
        .contains("the skeleton wants");
  }

  @Test
  void dwoAndDwpAreDebugFiles() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    for (String f :
        List.of("gcc-O2-dwarf5-split-dwo/app.dwo", "clang-O2-dwarf5-split-dwp/app.dwp")) {
      ObjectIdentity id = ObjectFiles.open(corpus.resolve(f), null).identity();
      assertThat(id.kind()).as(f).isEqualTo(ObjectKind.DEBUG);
      assertThat(id.features())
          .as(f)
          .contains(ObjectFeature.DEBUG)
          .doesNotContain(ObjectFeature.UNWIND);
    }
  }

  private static DifsCorpus.Case splitCase(DifsCorpus corpus, String name) {
    return corpus.cases().stream()
        .filter(c -> c.binary().startsWith(name + "/"))
        .findFirst()
        .orElseThrow();
  }
}

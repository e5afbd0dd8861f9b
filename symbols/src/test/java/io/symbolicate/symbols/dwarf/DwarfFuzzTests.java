package io.symbolicate.symbols.dwarf;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.objects.ObjectSymbol;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the DWARF reader (docs/fuzzing.md). In every build each replays its corpus under
 * {@code src/test/resources/.../DwarfFuzzTestsInputs/<method>/}; {@code scripts/fuzz.sh dwarf} and
 * {@code scripts/fuzz.sh dwarf-dwp} run them coverage-guided.
 */
class DwarfFuzzTests {
  /**
   * Bytes cut into DWARF sections ({@link FuzzSections}), read into a {@link SymWriter}: records
   * or {@link DwarfException}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void debugInfo(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          FuzzSections sections = new FuzzSections(data);
          SymWriter writer = new SymWriter();
          new DwarfReader(sections, DwarfOptions.defaults().withInlines(sections.inlines))
              .read(writer);
          StringWriter out = new StringWriter();
          writer.writeTo(out);
          check(out.toString() != null, "no output");
        },
        DwarfException.class);
  }

  /**
   * Bytes cut into an executable's skeleton sections and a {@code .dwp} package's ({@link
   * FuzzSections#SPLIT_NAMES}: the {@code .debug_cu_index} and the {@code .dwo} sections), read
   * through the package index, the same sections also served as every skeleton's {@code .dwo}:
   * records (split units, or the symbol's FUNC with the skeleton's lines) or {@link
   * DwarfException}. Seeds: {@link SplitDwarfFuzzSeeds}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void dwp(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          FuzzSections sections = new FuzzSections(data, FuzzSections.SPLIT_NAMES);
          SymWriter writer = new SymWriter();
          new DwarfReader(sections, DwarfOptions.defaults().withInlines(sections.inlines))
              .withPackage(sections, "fuzz.dwp")
              .withDwoLocator((name, dir) -> new DwoLocator.Dwo("fuzz.dwo", sections))
              .withSymbols(List.of(new ObjectSymbol("f", 0x1000, 0x100)))
              .read(writer);
          StringWriter out = new StringWriter();
          writer.writeTo(out);
          check(out.toString() != null, "no output");
        },
        DwarfException.class);
  }
}

package io.symbolicate.symbols.dwarf;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.StringWriter;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the DWARF reader (docs/fuzzing.md). In every build it replays its corpus under
 * {@code src/test/resources/.../DwarfFuzzTestsInputs/debugInfo/}; {@code scripts/fuzz.sh dwarf}
 * runs it coverage-guided.
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
}

package io.symbolicate.symbols.minidump;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.minidump.walk.HumanReadableWriter;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.testing.Fuzzing;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the minidump reader and stack walker (docs/fuzzing.md). In every build it
 * replays its corpus under {@code src/test/resources/.../MinidumpFuzzTestsInputs/dump/};
 * {@code scripts/fuzz.sh minidump} runs it coverage-guided.
 */
class MinidumpFuzzTests {
  /**
   * Bytes as a minidump, read in memory, walked without symbols (frame pointers and stack
   * scanning) and written in both output formats: a report or {@link MinidumpException}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void dump(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          try (Minidump dump = Minidump.read(data)) {
            ProcessState state = new MinidumpProcessor(SymbolSupplier.NONE).process(dump);
            check(MachineReadableWriter.write(state) != null, "no machine-readable output");
            HumanReadableWriter.write(state);
            HumanReadableWriter.write(state, HumanReadableWriter.Dialect.NPM_0_26, true);
          }
        },
        MinidumpException.class);
  }
}

package io.symbolicate.bench.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.StopReason;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.Trust;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmarks' generated dump is what they claim: 30 CFI frames over 12 modules, symbolicated. */
class SyntheticDumpTest {
  @Test
  void walksThirtyFramesOverTwelveModulesByCfi() throws Exception {
    ProcessState s =
        new MinidumpProcessor(SyntheticDump.symbols()).process(Minidump.read(SyntheticDump.dump()));
    assertThat(s.threads()).hasSize(1);
    CallStack t = s.threads().get(0);
    assertThat(t.frames()).hasSize(SyntheticDump.FRAMES);
    assertThat(t.stopReason()).isEqualTo(StopReason.END_OF_STACK);
    Set<String> modules = new HashSet<>();
    for (int k = 0; k < t.frames().size(); k++) {
      Frame f = t.frames().get(k);
      assertThat(f.trust()).isEqualTo(k == 0 ? Trust.CONTEXT : Trust.CFI);
      int m = k % SyntheticDump.MODULES;
      assertThat(f.function())
          .isEqualTo("bench" + m + "_function_" + (k * 97L) % SyntheticDump.FUNCTIONS);
      assertThat(f.sourceFile()).isEqualTo("/src/bench" + m + ".c");
      modules.add(f.module().codeFile());
    }
    assertThat(modules).hasSize(SyntheticDump.MODULES);
    assertThat(s.modulesWithoutSymbols()).isEmpty();
  }

  @Test
  void itsSymbolDirectoryGivesTheSameWalk(@TempDir Path dir) throws Exception {
    Path dmp = SyntheticDump.writeTo(dir);
    String fromDirectory =
        MachineReadableWriter.write(
            new MinidumpProcessor(new SymbolDirectory(dir.resolve("symbols")))
                .process(Minidump.read(Files.readAllBytes(dmp))));
    String inMemory =
        MachineReadableWriter.write(
            new MinidumpProcessor(SyntheticDump.symbols())
                .process(Minidump.read(SyntheticDump.dump())));
    assertThat(fromDirectory).isEqualTo(inMemory).contains("|bench11_function_");
  }

  @Test
  void aDumpWithABigStackIsAboutAHundredKilobytesAndWalksTheSame() throws Exception {
    byte[] big = SyntheticDump.dump(96 * 1024, 7);
    assertThat(big.length).isBetween(98 * 1024, 110 * 1024);
    assertThat(big).as("the seed changes the bytes").isNotEqualTo(SyntheticDump.dump(96 * 1024, 8));
    assertThat(SyntheticDump.dump(SyntheticDump.STACK_SIZE))
        .as("dump() is unchanged")
        .isEqualTo(SyntheticDump.dump());
    String walk =
        MachineReadableWriter.write(
            new MinidumpProcessor(SyntheticDump.symbols()).process(Minidump.read(big)));
    String small =
        MachineReadableWriter.write(
            new MinidumpProcessor(SyntheticDump.symbols())
                .process(Minidump.read(SyntheticDump.dump())));
    // the thread list names the stack's size; the frames are the same
    assertThat(frames(walk)).isEqualTo(frames(small)).hasSize(SyntheticDump.FRAMES);
  }

  @Test
  void stackSizesOutOfBoundsAreRefused() {
    Assertions.assertThatThrownBy(() -> SyntheticDump.dump(SyntheticDump.STACK_SIZE - 16))
        .isInstanceOf(IllegalArgumentException.class);
    Assertions.assertThatThrownBy(() -> SyntheticDump.dump(SyntheticDump.MAX_STACK_SIZE + 16))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static List<String> frames(String machineReadable) {
    return machineReadable.lines().filter(l -> l.matches("\\d+\\|\\d+\\|.*")).toList();
  }
}

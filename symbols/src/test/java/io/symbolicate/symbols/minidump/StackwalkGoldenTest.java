package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.HumanReadableWriter;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Breakpad's own goldens for minidump2.dmp (Windows XP x86, STACK WIN), byte for byte. */
class StackwalkGoldenTest {
  static final Path TESTDATA = MinidumpReaderTest.testdata();

  static ProcessState process(Path dmp, Path symbols) throws Exception {
    try (Minidump dump = Minidump.open(dmp)) {
      return new MinidumpProcessor(new SymbolDirectory(symbols)).process(dump);
    }
  }

  static String golden(String name) throws Exception {
    return Files.readString(TESTDATA.resolve(name), StandardCharsets.UTF_8).replace("\r", "");
  }

  @Test
  void minidump2MachineReadable() throws Exception {
    ProcessState s = process(TESTDATA.resolve("minidump2.dmp"), TESTDATA.resolve("symbols"));
    assertThat(MachineReadableWriter.write(s))
        .isEqualTo(golden("minidump2.stackwalk.machine_readable.out"));
  }

  @Test
  void minidump2HumanReadable() throws Exception {
    ProcessState s = process(TESTDATA.resolve("minidump2.dmp"), TESTDATA.resolve("symbols"));
    assertThat(HumanReadableWriter.write(s)).isEqualTo(golden("minidump2.stackwalk.out"));
  }
}

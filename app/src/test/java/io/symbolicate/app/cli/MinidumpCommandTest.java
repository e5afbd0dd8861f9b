package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code minidump walk} prints Breakpad's own minidump_stackwalk outputs for its test dump. */
class MinidumpCommandTest {
  private static final Path TESTDATA = SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");

  private static String golden(String name) throws Exception {
    return Files.readString(TESTDATA.resolve(name)).replace("\r", "");
  }

  @Test
  void machineReadableOutputIsBreakpadsByteForByte() throws Exception {
    JsCommandTest.Run r = JsCommandTest.run("minidump", "walk", TESTDATA.resolve("minidump2.dmp").toString(),
        "--symbols", TESTDATA.resolve("symbols").toString(), "-m");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(golden("minidump2.stackwalk.machine_readable.out"));
  }

  @Test
  void humanReadableReportIsBreakpads() throws Exception {
    JsCommandTest.Run r = JsCommandTest.run("minidump", "walk", TESTDATA.resolve("minidump2.dmp").toString(),
        "--symbols", TESTDATA.resolve("symbols").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(golden("minidump2.stackwalk.out"));
  }

  @Test
  void aFileThatIsNoMinidumpIsExitOneWithAReason(@TempDir Path dir) throws Exception {
    Path junk = Files.write(dir.resolve("junk.dmp"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    JsCommandTest.Run r = JsCommandTest.run("minidump", "walk", junk.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("not a readable minidump");
  }
}

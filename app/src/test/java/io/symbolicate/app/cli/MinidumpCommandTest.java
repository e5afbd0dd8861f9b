package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code minidump walk} prints Breakpad's own minidump_stackwalk outputs for its test dump. */
class MinidumpCommandTest {
  private static final Path TESTDATA =
      SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");

  private static String golden(String name) throws Exception {
    return Files.readString(TESTDATA.resolve(name)).replace("\r", "");
  }

  @Test
  void machineReadableOutputIsBreakpadsByteForByte() throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run(
            "minidump",
            "walk",
            TESTDATA.resolve("minidump2.dmp").toString(),
            "--symbols",
            TESTDATA.resolve("symbols").toString(),
            "-m");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(golden("minidump2.stackwalk.machine_readable.out"));
  }

  @Test
  void humanReadableReportIsBreakpads() throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run(
            "minidump",
            "walk",
            TESTDATA.resolve("minidump2.dmp").toString(),
            "--symbols",
            TESTDATA.resolve("symbols").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(golden("minidump2.stackwalk.out"));
  }

  /** --json: the signed event, its frames those of -m (WalkedDumpEventTest compares every field). */
  @Test
  void jsonIsTheSignedEventOfTheWalk() throws Exception {
    Path dmp = TESTDATA.resolve("minidump2.dmp");
    JsCommandTest.Run r =
        JsCommandTest.run(
            "minidump",
            "walk",
            dmp.toString(),
            "--symbols",
            TESTDATA.resolve("symbols").toString(),
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode e = new ObjectMapper().readTree(r.out());
    assertThat(e.get("event").get("event_id").asText())
        .isEqualTo(
            HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dmp))));
    assertThat(e.get("event").get("platform").asText()).isEqualTo("native");
    assertThat(e.get("minidump").get("crash_reason").asText())
        .isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE");
    JsonNode frames = e.get("stacks").get(0).get("frames");
    assertThat(frames.size()).isEqualTo(4);
    assertThat(frames.get(1).get("function").asText()).isEqualTo("main");
    assertThat(e.get("minidump").get("threads").get(0).get("frames").get(1).get("trust").asText())
        .isEqualTo("cfi");
    // signed as the stream signs
    assertThat(e.get("signature").asText()).contains("CrashFunction");
    JsCommandTest.Run both = JsCommandTest.run("minidump", "walk", dmp.toString(), "-m", "--json");
    assertThat(both.code()).isNotZero();
    assertThat(both.err()).contains("exclusive");
  }

  @Test
  void aFileThatIsNoMinidumpIsExitOneWithAReason(@TempDir Path dir) throws Exception {
    Path junk = Files.write(dir.resolve("junk.dmp"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    JsCommandTest.Run r = JsCommandTest.run("minidump", "walk", junk.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("not a readable minidump");
  }
}

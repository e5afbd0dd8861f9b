package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.signatures.CrashDataJson;
import io.symbolicate.signatures.SignatureGenerator;
import io.symbolicate.symbols.apple.AppleCrashReportParser;
import io.symbolicate.symbols.apple.AppleReportJson;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code signature} and {@code apple parse} commands run their engines and print their JSON. */
class AnalysisCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void signaturePrintsTheGeneratorsResultForAFile(@TempDir Path dir) throws Exception {
    String crash =
        """
        {"os": "Linux", "crashing_thread": 0, "threads": [{"frames": [
          {"function": "abort", "module": "libc.so.6"},
          {"function": "mozilla::Crash(int const*)", "module": "libxul.so", "file": "crash.cpp", "line": 12},
          {"function": "main", "module": "app"}]}]}
        """;
    Path file = Files.writeString(dir.resolve("crash.json"), crash);
    JsCommandTest.Run r = JsCommandTest.run("signature", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    var out = JSON.readTree(r.out());
    var expected = SignatureGenerator.withDefaultLists().generate(CrashDataJson.parse(crash));
    assertThat(out.get("signature").asText()).isEqualTo(expected.signature()).isNotBlank();
    assertThat(out.get("proto_signature").asText()).isEqualTo(expected.protoSignature());
    assertThat(out.get("notes")).hasSize(expected.notes().size());
  }

  @Test
  void signatureRefusesBadInputWithAReason(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("bad.json"), "[7]");
    JsCommandTest.Run r = JsCommandTest.run("signature", file.toString());
    assertThat(r.code()).isEqualTo(1);
  }

  @Test
  void signatureReadsStdinAndWithVerbosePrintsTheDebugLogFirst() throws Exception {
    String crash =
        """
        {"os": "Linux", "crashing_thread": 0, "threads": [{"frames": [
          {"function": "SomeFunc", "module": "foo.so", "file": "somefile.cpp", "line": 20},
          {"function": "SomeOtherFunc", "module": "bar.so"}]}]}
        """;
    var expected = SignatureGenerator.withDefaultLists().generate(CrashDataJson.parse(crash));
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream(crash.getBytes(StandardCharsets.UTF_8)));
      JsCommandTest.Run plain = JsCommandTest.run("signature");
      assertThat(plain.code()).as(plain.err()).isZero();
      assertThat(plain.out()).isEqualTo(expected.toJson() + "\n");
      System.setIn(new ByteArrayInputStream(crash.getBytes(StandardCharsets.UTF_8)));
      JsCommandTest.Run verbose = JsCommandTest.run("signature", "--verbose", "-");
      assertThat(verbose.code()).as(verbose.err()).isZero();
      assertThat(verbose.out())
          .isEqualTo(String.join("\n", expected.debugLog()) + "\n" + expected.toJson() + "\n");
      assertThat(expected.debugLog()).isNotEmpty();
    } finally {
      System.setIn(stdin);
    }
  }

  @Test
  void signatureFailuresSayWhyWithTheirExitStatus(@TempDir Path dir) throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "[7]");
    JsCommandTest.Run badData = JsCommandTest.run("signature", bad.toString());
    assertThat(badData.code()).isEqualTo(1);
    assertThat(badData.err()).contains("bad crash data: crash data must be a JSON object");
    assertThat(badData.out()).isEmpty();
    Path none = dir.resolve("missing.json");
    JsCommandTest.Run missing = JsCommandTest.run("signature", none.toString());
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).contains("no such file: " + none);
    JsCommandTest.Run lists =
        JsCommandTest.run("signature", "--lists", dir.resolve("none").toString(), bad.toString());
    assertThat(lists.code()).isEqualTo(2);
    assertThat(lists.err()).contains("signature lists: ").contains("signature list directory");
    // two files are a batch (BatchCommandsTest): an error line each, a failure when asked
    JsCommandTest.Run two = JsCommandTest.run("signature", "a", "b", "--fail-on-error");
    assertThat(two.code()).isEqualTo(1);
    assertThat(two.out().lines()).hasSize(2).allMatch(l -> l.contains("\"error\""));
    assertThat(JsCommandTest.run("signature", "--frobnicate").code()).isEqualTo(2);
    assertThat(JsCommandTest.run("signature", "--help").out()).contains("--lists=DIR");
  }

  @Test
  void appleParsePrintsTheParsersJson() throws Exception {
    // the parse itself is checked against the peer's snapshots in symbols (AppleSnapshotsTest)
    Path report =
        SharedFixtures.fixtures("apple-crash")
            .resolve("apple-crash-report-parser/tests/fixtures/handcrafted.txt");
    JsCommandTest.Run r = JsCommandTest.run("apple", "parse", report.toString());
    assertThat(r.code()).as(r.err()).isZero();
    var out = JSON.readTree(r.out());
    assertThat(out)
        .isEqualTo(JSON.readTree(AppleReportJson.toJson(AppleCrashReportParser.parse(report))));
    assertThat(out.get("threads").size()).isPositive();
  }

  @Test
  void appleParseOfGarbageIsExitOneWithAReason(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("x.crash"), "not a crash report\n");
    JsCommandTest.Run r = JsCommandTest.run("apple", "parse", file.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith(file + ": ").doesNotContain("cannot read");
    assertThat(r.out()).isEmpty();
    Path none = dir.resolve("none.crash");
    JsCommandTest.Run missing = JsCommandTest.run("apple", "parse", none.toString());
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).startsWith(none + ": cannot read: ");
  }
}

package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signify entry point the CLI's {@code signature} command calls. */
class CrashDataSignerTest {
  /** siggen's README example crash data. */
  private static final String README_EXAMPLE =
      """
      {"os": "Linux", "crashing_thread": 0, "threads": [{"frames": [
        {"frame": 0, "function": "SomeFunc", "line": 20, "file": "somefile.cpp", "module": "foo.so.5.15.0",
         "module_offset": "0x37a92", "offset": "0x7fc641052a92"},
        {"frame": 1, "function": "SomeOtherFunc", "line": 444, "file": "someotherfile.cpp", "module": "bar.so",
         "module_offset": "0x39a55", "offset": "0x7fc641044a55"}]}]}
      """;

  @TempDir Path dir;

  @Test
  void printsWhatSignifyPrintsForTheReadmeExample() throws Exception {
    Run r = run(README_EXAMPLE, "--lists", SiggenFixtures.socorroLists().toString());
    assertThat(r.code).isZero();
    assertThat(r.out)
        .isEqualTo(
            """
        {
          "signature": "SomeFunc",
          "proto_signature": "SomeFunc | SomeOtherFunc",
          "notes": []
        }
        """);
  }

  @Test
  void readsAFileAndEscapesAsPythonsJsonDoes() throws Exception {
    Path file = dir.resolve("crash.json");
    Files.writeString(file, "{\"abort_message\": \"\u00e9t\u00e9 \\\"quoted\\\"\"}");
    Run r = run("", file.toString());
    assertThat(r.code).isZero();
    assertThat(r.out)
        .isEqualTo(
            """
        {
          "signature": "Abort | t \\"quoted\\" | EMPTY: no frame data available",
          "proto_signature": "",
          "notes": [
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)"
          ]
        }
        """);
    assertThat(
            json(
                new SignatureResult(
                    "\u00e9\u0001\t\ud83d\ude00", "", java.util.List.of(), java.util.List.of())))
        .contains("\"signature\": \"\\u00e9\\u0001\\t\\ud83d\\ude00\"");
  }

  @Test
  void verbosePrintsTheDebugLogFirst() throws Exception {
    Run r = run(README_EXAMPLE, "-v");
    assertThat(r.out)
        .startsWith(
            "SignatureGenerationRule: using CSignatureTool\n"
                + "SignatureGenerationRule: using included signature lists\n");
  }

  @Test
  void badInputAndUsageGiveAReasonAndAnExitCode() throws Exception {
    Run bad = run("{\"threads\": 3}");
    assertThat(bad.code).isEqualTo(CrashDataSigner.BAD_INPUT);
    assertThat(bad.err).contains("bad crash data: threads: expected an array or null");
    assertThat(bad.out).isEmpty();
    assertThat(run("", dir.resolve("missing.json").toString()).code)
        .isEqualTo(CrashDataSigner.BAD_INPUT);
    Run lists = run("{}", "--lists", dir.resolve("none").toString());
    assertThat(lists.code).isEqualTo(CrashDataSigner.BAD_USAGE);
    assertThat(lists.err).contains("signature list directory not found");
    assertThat(run("{}", "--frobnicate").code).isEqualTo(CrashDataSigner.BAD_USAGE);
    assertThat(run("{}", "a", "b").code).isEqualTo(CrashDataSigner.BAD_USAGE);
    assertThat(run("{}", "--lists").code).isEqualTo(CrashDataSigner.BAD_USAGE);
    assertThat(run("{}", "-h").out).contains("usage: signature");
  }

  private static String json(SignatureResult r) {
    return r.toJson();
  }

  private record Run(int code, String out, String err) {}

  private static Run run(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        CrashDataSigner.run(
            args,
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}

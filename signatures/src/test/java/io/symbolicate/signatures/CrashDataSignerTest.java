package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The signify library calls the CLI's {@code signature} command makes. */
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

  @Test
  void printsWhatSignifyPrintsForTheReadmeExample() throws Exception {
    SignatureGenerator generator =
        new SignatureGenerator(SignatureLists.load(SiggenFixtures.socorroLists()));
    assertThat(print(sign(generator, README_EXAMPLE), false))
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
  void escapesAsPythonsJsonDoes() throws Exception {
    SignatureResult r =
        sign(
            SignatureGenerator.withDefaultLists(),
            "{\"abort_message\": \"\u00e9t\u00e9 \\\"quoted\\\"\"}");
    assertThat(print(r, false))
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
    assertThat(new SignatureResult("\u00e9\u0001\t\ud83d\ude00", "", List.of(), List.of()).toJson())
        .contains("\"signature\": \"\\u00e9\\u0001\\t\\ud83d\\ude00\"");
  }

  @Test
  void verbosePrintsTheDebugLogFirst() throws Exception {
    SignatureResult r = sign(SignatureGenerator.withDefaultLists(), README_EXAMPLE);
    assertThat(print(r, true))
        .startsWith(
            "SignatureGenerationRule: using CSignatureTool\n"
                + "SignatureGenerationRule: using included signature lists\n")
        .endsWith(r.toJson() + "\n");
    assertThat(print(r, false)).isEqualTo(r.toJson() + "\n");
  }

  @Test
  void badInputGivesAReason() {
    assertThatThrownBy(() -> sign(SignatureGenerator.withDefaultLists(), "[3]"))
        .isInstanceOf(SignatureInputException.class)
        .hasMessageContaining("crash data must be a JSON object");
  }

  private static SignatureResult sign(SignatureGenerator generator, String crashData)
      throws Exception {
    return CrashDataSigner.sign(
        generator, new ByteArrayInputStream(crashData.getBytes(StandardCharsets.UTF_8)));
  }

  private static String print(SignatureResult r, boolean verbose) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CrashDataSigner.print(r, verbose, new PrintStream(out, true, StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}

package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many inputs in one process ({@code minidump walk}, {@code apple parse}, {@code signature}): one
 * report per good input, equal to Breakpad's or the peers' output, and an error line for a bad
 * one without stopping the others.
 */
class BatchCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path TESTDATA =
      SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");
  private static final Path APPLE =
      SharedFixtures.fixtures("apple-crash").resolve("apple-crash-report-parser/tests/fixtures");

  @TempDir static Path dumps;

  private static String golden;

  /** Two copies of Breakpad's test dump and, between them, the same dump cut short. */
  @BeforeAll
  static void dumps() throws Exception {
    byte[] dump = Files.readAllBytes(TESTDATA.resolve("minidump2.dmp"));
    Files.write(dumps.resolve("a.dmp"), dump);
    Files.write(dumps.resolve("b_cut.dmp"), Arrays.copyOf(dump, 512));
    Files.write(dumps.resolve("c.dmp"), dump);
    Files.writeString(dumps.resolve("notes.txt"), "not a dump, and not named *.dmp");
    golden =
        Files.readString(TESTDATA.resolve("minidump2.stackwalk.machine_readable.out"))
            .replace("\r", "");
  }

  private static String symbols() {
    return TESTDATA.resolve("symbols").toString();
  }

  @Test
  void walkWritesBreakpadsReportPerDumpAndAnErrorLineForTheBadOne(@TempDir Path out)
      throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run(
            "minidump",
            "walk",
            dumps.toString(),
            "--symbols",
            symbols(),
            "-m",
            "--threads",
            "2",
            "--output-dir",
            out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    try (var files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("a.stackwalk.machine_readable.out", "c.stackwalk.machine_readable.out");
    }
    assertThat(Files.readString(out.resolve("a.stackwalk.machine_readable.out"))).isEqualTo(golden);
    assertThat(Files.readString(out.resolve("c.stackwalk.machine_readable.out"))).isEqualTo(golden);
    assertThat(r.err())
        .contains("error: " + dumps.resolve("b_cut.dmp") + ": not a readable minidump")
        .contains("1 of 3 inputs failed");
  }

  @Test
  void walkFailsOnlyWhenAsked(@TempDir Path out) {
    List<String> args =
        List.of(
            "minidump",
            "walk",
            dumps.resolve("a.dmp").toString(),
            dumps.resolve("b_cut.dmp").toString(),
            "--symbols",
            symbols(),
            "-m",
            "--output-dir",
            out.toString());
    assertThat(JsCommandTest.run(args.toArray(String[]::new)).code()).isZero();
    List<String> failing = new ArrayList<>(args);
    failing.add("--fail-on-error");
    assertThat(JsCommandTest.run(failing.toArray(String[]::new)).code()).isEqualTo(1);
  }

  @Test
  void walkWritesJsonLinesInTheOrderOfAListOnStdin() throws Exception {
    String list =
        String.join(
            "\n",
            dumps.resolve("c.dmp").toString(),
            dumps.resolve("b_cut.dmp").toString(),
            "",
            dumps.resolve("a.dmp").toString());
    JsCommandTest.Run r = withStdin(list, "minidump", "walk", "-", "--symbols", symbols(), "-m");
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> lines = r.out().lines().map(BatchCommandsTest::tree).toList();
    assertThat(lines).as(r.out()).hasSize(3);
    assertThat(lines.get(0).has("error")).as(r.out()).isFalse();
    assertThat(lines.get(0).get("input").asText()).isEqualTo(dumps.resolve("c.dmp").toString());
    assertThat(lines.get(0).get("report").asText()).isEqualTo(golden);
    assertThat(lines.get(1).get("input").asText()).isEqualTo(dumps.resolve("b_cut.dmp").toString());
    assertThat(lines.get(1).has("report")).isFalse();
    assertThat(lines.get(1).get("error").asText()).startsWith("not a readable minidump");
    assertThat(lines.get(2).get("report").asText()).isEqualTo(golden);
  }

  @Test
  void walkJsonLinesCarryEachDumpsEventOnOneLine() {
    JsCommandTest.Run r =
        JsCommandTest.run("minidump", "walk", dumps.toString(), "--symbols", symbols(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> lines = r.out().lines().map(BatchCommandsTest::tree).toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0).get("report").get("minidump").get("crash_reason").asText())
        .isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE");
    assertThat(lines.get(1).has("error")).isTrue();
    assertThat(lines.get(2).get("report").get("signature").asText()).contains("CrashFunction");
  }

  @Test
  void appleParseOfManyReportsIsTheParsersJsonPerReport(@TempDir Path dir) throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.crash"), "not a crash report\n");
    Path missing = dir.resolve("missing.crash");
    List<Path> good = List.of(APPLE.resolve("handcrafted.txt"), APPLE.resolve("spaces.txt"));
    JsCommandTest.Run r =
        JsCommandTest.run(
            "apple",
            "parse",
            good.get(0).toString(),
            bad.toString(),
            missing.toString(),
            good.get(1).toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> lines = r.out().lines().map(BatchCommandsTest::tree).toList();
    assertThat(lines).hasSize(4);
    for (int i : new int[] {0, 3}) {
      Path report = good.get(i == 0 ? 0 : 1);
      assertThat(lines.get(i).get("report"))
          .isEqualTo(tree(AppleReportJson.toJson(AppleCrashReportParser.parse(report))));
    }
    assertThat(lines.get(1).get("error").asText()).isNotBlank();
    assertThat(lines.get(2).get("error").asText()).isNotBlank();
    assertThat(r.err()).contains("2 of 4 inputs failed");
  }

  @Test
  void signatureOfManyFilesIntoADirectory(@TempDir Path dir) throws Exception {
    String crash =
        """
        {"os": "Linux", "crashing_thread": 0, "threads": [{"frames": [
          {"function": "abort", "module": "libc.so.6"},
          {"function": "mozilla::Crash(int const*)", "module": "libxul.so"},
          {"function": "main", "module": "app"}]}]}
        """;
    Path in = Files.createDirectories(dir.resolve("in"));
    Files.writeString(in.resolve("one.json"), crash);
    Files.writeString(in.resolve("two.json"), "this is not JSON");
    Path out = dir.resolve("out");
    JsCommandTest.Run r =
        JsCommandTest.run(
            "signature", in.toString(), "--output-dir", out.toString(), "--fail-on-error");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("two.json").contains("bad crash data");
    JsonNode one = tree(Files.readString(out.resolve("one.signature.json")));
    var expected = SignatureGenerator.withDefaultLists().generate(CrashDataJson.parse(crash));
    assertThat(one.get("signature").asText()).isEqualTo(expected.signature()).isNotBlank();
    assertThat(Files.exists(out.resolve("two.signature.json"))).isFalse();
    // the list on stdin; '-' alone stays crash data on stdin
    JsCommandTest.Run listed =
        withStdin(in.resolve("one.json").toString(), "signature", "--files-from", "-");
    assertThat(tree(listed.out().strip()).get("report").get("signature").asText())
        .isEqualTo(expected.signature());
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + json, e);
    }
  }

  private static JsCommandTest.Run withStdin(String stdin, String... args) {
    InputStream old = System.in;
    try {
      System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
      return JsCommandTest.run(args);
    } finally {
      System.setIn(old);
    }
  }
}

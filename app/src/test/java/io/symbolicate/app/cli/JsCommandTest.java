package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class JsCommandTest {
  static final Path JS = SharedFixtures.fixtures("js");

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    try {
      System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
      CommandLine cl = SymbolicatorCli.newCommandLine();
      cl.setErr(new PrintWriter(err, true));
      int code = cl.execute(args);
      System.out.flush();
      return new Run(code, buf.toString(StandardCharsets.UTF_8), err.toString());
    } finally {
      System.setOut(old);
    }
  }

  @Test
  void lookupPrintsOneJsonObjectPerPositionWithFunctionAndContext() throws Exception {
    String dir = JS.resolve("getsentry-symbolicator/01_sourcemap_expansion").toString();
    Run r =
        run(
            "js",
            "lookup",
            "--map",
            dir + "/test.min.js.map",
            "--minified",
            dir + "/test.min.js",
            "--map-url",
            "http://example.com/test.min.js.map",
            "--one-based",
            "--context",
            "1:183",
            "1:64");
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(2);
    JsonNode first = new ObjectMapper().readTree(lines.get(0));
    // values from symbolicator's snapshot for this frame
    assertThat(first.get("source").asText()).isEqualTo("http://example.com/test.js");
    assertThat(first.get("original_line").asInt()).isEqualTo(20);
    assertThat(first.get("original_column").asInt()).isEqualTo(5);
    assertThat(first.get("function").asText()).isEqualTo("test");
    assertThat(first.get("name_source").asText()).isEqualTo("scope");
    assertThat(first.at("/context/context_line").asText()).isEqualTo("    invoke(data);");
    JsonNode second = new ObjectMapper().readTree(lines.get(1));
    assertThat(second.get("function").asText()).isEqualTo("onFailure");
  }

  @Test
  void convertThenLookupFromTheTableGivesTheSameAnswer(@TempDir Path tmp) throws Exception {
    String map = JS.resolve("tc39-source-map-tests/resources/basic-mapping.js.map").toString();
    Path table = tmp.resolve("t.jstable");
    Run c = run("js", "convert", map, table.toString());
    assertThat(c.code()).as(c.err()).isZero();
    assertThat(c.out()).contains("segments:        12");
    Run fromMap = run("js", "lookup", "--map", map, "0:34", "3:0");
    Run fromTable = run("js", "lookup", "--map", table.toString(), "0:34", "3:0");
    assertThat(fromTable.out()).isEqualTo(fromMap.out());
    JsonNode hit = new ObjectMapper().readTree(fromMap.out().lines().findFirst().orElseThrow());
    // tc39 basicMapping: 0:34 -> basic-mapping-original.js 3:9 "bar"
    assertThat(hit.get("original_line").asInt()).isEqualTo(3);
    assertThat(hit.get("original_column").asInt()).isEqualTo(9);
    assertThat(hit.get("name").asText()).isEqualTo("bar");
    assertThat(fromMap.out().lines().skip(1).findFirst().orElseThrow()).contains("\"source\":null");
  }

  @Test
  void batchWritesMozillaStyleTsv(@TempDir Path tmp) throws Exception {
    String map = JS.resolve("mozilla-source-map/testMap.js.map").toString();
    Path tsv = tmp.resolve("l.tsv");
    Files.writeString(tsv, "1\t18\n2\t0\n");
    Path out = tmp.resolve("o.tsv");
    Run r = run("js", "batch", "--map", map, "--lookups", tsv.toString(), "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    // mozilla testMap: (1,18) -> /the/root/one.js 1:21 "bar"; column 0 of line 2 precedes its first
    // segment
    assertThat(Files.readAllLines(out))
        .containsExactly("/the/root/one.js\t1\t21\tbar", "null\tnull\tnull\tnull");
  }

  @Test
  void errorsAreOneLineWithExitCode2() {
    String bad =
        JS.resolve("tc39-source-map-tests/resources/invalid-mapping-segment-with-two-fields.js.map")
            .toString();
    Run r = run("js", "lookup", "--map", bad, "0:0");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip())
        .contains("segment with 2 fields")
        .doesNotContain("\n")
        .doesNotContain("Exception");
    assertThat(run("js", "lookup", "--map", bad, "zero").err()).contains("bad position 'zero'");
    assertThat(run("js", "lookup", "--map", "/no/such.map", "0:0").err())
        .contains("no such file: /no/such.map");
    assertThat(run("js", "lookup", "--one-based", "--map", bad, "0:1").err())
        .contains("out of range (1-based)");
  }
}

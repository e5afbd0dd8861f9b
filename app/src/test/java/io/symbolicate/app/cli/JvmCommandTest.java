package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code symbolicator jvm ...} end to end, on peer fixtures from ../shared/fixtures/jvm. */
class JvmCommandTest {
  private static final Path FIX = SharedFixtures.fixtures("jvm");
  private static final Path REWRITE =
      FIX.resolve("getsentry-rust-proguard/mapping-rewrite-complex.txt");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      var cl = SymbolicatorCli.newCommandLine();
      cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
      int code = cl.execute(args);
      return new Run(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  /**
   * The case "rust-proguard-rewrite-frame-complex-stacktrace" (compare=exact) through the CLI, in
   * the Sentry layout: its map has no version header, so R8 (and our default R8 layout) would not
   * apply its rewriteFrame rules, while rust-proguard does.
   */
  private static JsonNode rewriteCase() throws IOException {
    for (JsonNode c : JSON.readTree(FIX.resolve("cases.json").toFile()).get("cases")) {
      if (c.get("id").asText().equals("rust-proguard-rewrite-frame-complex-stacktrace")) {
        return c;
      }
    }
    throw new AssertionError("fixture case missing");
  }

  @Test
  void retracesATraceFileExactlyAsThePeerExpects() throws IOException {
    JsonNode c = rewriteCase();
    Path trace = tmp.resolve("trace.txt");
    Files.writeString(trace, c.get("input").asText());
    Run r =
        run(
            "jvm",
            "retrace",
            "--style",
            "sentry",
            "--mapping",
            REWRITE.toString(),
            trace.toString());
    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(c.get("expected").asText());
    // R8 layout: no rules without a map version, so the inlined frames stay
    Run r8 = run("jvm", "retrace", "--mapping", REWRITE.toString(), trace.toString());
    assertThat(r8.out())
        .contains("    at com.example.flow.Inliner.firstStep(Inliner.java:60)\n")
        .contains(
            "    at com.example.flow.StreamRouter$Inline.internalDispatch(StreamRouter.java:30)\n");
  }

  @Test
  void convertThenRetraceFromTheTableGivesTheSameOutput() throws IOException {
    JsonNode c = rewriteCase();
    Path trace = tmp.resolve("trace.txt");
    Files.writeString(trace, c.get("input").asText());
    Path table = tmp.resolve("map.jvmt");
    Run conv = run("jvm", "convert", REWRITE.toString(), table.toString());
    assertThat(conv.code()).isZero();
    assertThat(conv.out()).contains("classes      3 ").contains("methods      7 lines");
    assertThat(Files.size(table)).isPositive();
    Run r =
        run("jvm", "retrace", "--style", "sentry", "--mapping", table.toString(), trace.toString());
    assertThat(r.out()).isEqualTo(c.get("expected").asText());
  }

  @Test
  void jsonListsFramesPerInputFrame() throws IOException {
    Path trace = tmp.resolve("trace.txt");
    Files.writeString(
        trace,
        "java.lang.IllegalStateException: x\n    at b.dispatch(SourceFile:5)\n    at zz.top(Z.java:1)\n");
    Run r =
        run(
            "jvm",
            "retrace",
            "--json",
            "--style",
            "sentry",
            "--mapping",
            REWRITE.toString(),
            trace.toString());
    assertThat(r.code()).isZero();
    List<JsonNode> lines = new ArrayList<>();
    for (String l : r.out().split("\n")) {
      lines.add(JSON.readTree(l));
    }
    assertThat(lines).hasSize(2);
    JsonNode first = lines.get(0);
    assertThat(first.get("status").asText()).isEqualTo("mapped");
    // IllegalStateException matches the rule on b.dispatch: the inlined frame is removed
    assertThat(first.get("frames")).hasSize(1);
    JsonNode f = first.get("frames").get(0);
    assertThat(f.get("class").asText()).isEqualTo("com.example.flow.StreamRouter");
    assertThat(f.get("method").asText()).isEqualTo("dispatch");
    assertThat(f.get("file").asText()).isEqualTo("StreamRouter.java");
    assertThat(f.get("line").asInt()).isEqualTo(12);
    assertThat(f.get("ambiguous").asBoolean()).isFalse();
    assertThat(lines.get(1).get("status").asText()).isEqualTo("unknown_class");
  }

  /**
   * {@code --sources}: a JVM source bundle as sentry-cli writes it, holding our own {@code
   * ~/io/example/Checkout.jvm}; the retraced frame gets the file's lines around its line.
   */
  @Test
  void jsonFramesGetContextFromASourceBundle() throws IOException {
    Path mapping = tmp.resolve("mapping.txt");
    Files.writeString(
        mapping,
        "io.example.Checkout -> a.a:\n"
            + "# {\"id\":\"sourceFile\",\"fileName\":\"Checkout.kt\"}\n"
            + "    1:1:void pay():4:4 -> a\n");
    String[] source = {
      "package io.example", "", "class Checkout {", "  fun pay() = error(\"x\")", "}"
    };
    Path bundle = tmp.resolve("bundle.zip");
    ByteArrayOutputStream zipBytes = new ByteArrayOutputStream();
    zipBytes.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(zipBytes)) {
      zip.putNextEntry(new ZipEntry("files/_/_/io/example/Checkout.jvm"));
      zip.write(String.join("\n", source).getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(
          ("{\"debug_id\":\"d832c2fb-c545-425b-b673-613a133586be\",\"files\":{"
                  + "\"files/_/_/io/example/Checkout.jvm\":{\"url\":\"~/io/example/Checkout.jvm\"}}}")
              .getBytes(StandardCharsets.UTF_8));
    }
    Files.write(bundle, zipBytes.toByteArray());
    Path trace = tmp.resolve("trace.txt");
    Files.writeString(trace, "java.lang.IllegalStateException: x\n    at a.a.a(SourceFile:1)\n");
    Run r =
        run(
            "jvm",
            "retrace",
            "--json",
            "--context-lines",
            "2",
            "--sources",
            bundle.toString(),
            "--mapping",
            mapping.toString(),
            trace.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode f = JSON.readTree(r.out().trim()).get("frames").get(0);
    assertThat(f.get("class").asText()).isEqualTo("io.example.Checkout");
    assertThat(f.get("line").asInt()).isEqualTo(4);
    assertThat(f.get("context_line").asText()).isEqualTo(source[3]);
    assertThat(JSON.convertValue(f.get("pre_context"), List.class))
        .containsExactly(source[1], source[2]);
    assertThat(JSON.convertValue(f.get("post_context"), List.class)).containsExactly(source[4]);

    Run text =
        run(
            "jvm",
            "retrace",
            "--sources",
            bundle.toString(),
            "--mapping",
            mapping.toString(),
            trace.toString());
    assertThat(text.code()).isEqualTo(2);
    assertThat(text.err()).contains("--sources needs --json");
  }

  @Test
  void sentryStyleReindentsFrames() throws IOException {
    Path trace = tmp.resolve("trace.txt");
    Files.writeString(trace, "\tat c.draw(SourceFile:20)\n");
    Run r =
        run(
            "jvm",
            "retrace",
            "--style",
            "sentry",
            "--mapping",
            REWRITE.toString(),
            trace.toString());
    assertThat(r.out()).isEqualTo("    at com.example.flow.UiBridge.render(UiBridge.java:200)\n");
  }

  @Test
  void badInputsGiveOneLineErrors() throws IOException {
    Run missing = run("jvm", "retrace", "--mapping", tmp.resolve("nope.txt").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("mapping file not found");

    Path junk = tmp.resolve("junk.txt");
    Files.write(junk, new byte[] {1, 2, 3, (byte) 0xff});
    Run bad = run("jvm", "convert", junk.toString(), tmp.resolve("out").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("not a usable ProGuard/R8 mapping").doesNotContain("Exception");

    Path table = tmp.resolve("t.jvmt");
    run("jvm", "convert", REWRITE.toString(), table.toString());
    byte[] bytes = Files.readAllBytes(table);
    Files.write(table, Arrays.copyOf(bytes, bytes.length - 3));
    Run truncated = run("jvm", "retrace", "--mapping", table.toString(), junk.toString());
    assertThat(truncated.code()).isEqualTo(2);
    assertThat(truncated.err()).contains("corrupt table");

    // a gzipped mapping cut short: the file is named, usage/input exit code
    Path gz = tmp.resolve("mapping.txt.gz");
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(zipped)) {
      z.write(Files.readAllBytes(REWRITE));
    }
    byte[] whole = zipped.toByteArray();
    Files.write(gz, Arrays.copyOf(whole, whole.length / 2));
    Run cut = run("jvm", "retrace", "--mapping", gz.toString(), junk.toString());
    assertThat(cut.code()).isEqualTo(2);
    assertThat(cut.err())
        .contains(gz.toString())
        .contains("cannot read the mapping")
        .doesNotContain("Exception");

    Run threads =
        run("jvm", "retrace", "--threads", "0", "--mapping", REWRITE.toString(), junk.toString());
    assertThat(threads.code()).isEqualTo(2);
    assertThat(threads.err()).contains("--threads must be at least 1");

    Run style =
        run("jvm", "retrace", "--style", "fancy", "--mapping", REWRITE.toString(), junk.toString());
    assertThat(style.code()).isEqualTo(2);
    assertThat(style.err()).contains("--style must be r8 or sentry");
  }
}

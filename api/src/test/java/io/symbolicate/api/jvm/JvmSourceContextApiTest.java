package io.symbolicate.api.jvm;

import static io.symbolicate.api.jvm.JvmCases.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.RequestStats;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.symbolication.jvm.JvmSymbolicator;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@code /symbolicate-jvm} with a {@code source} module: the request of Symbolicator's {@code
 * basic_source_lookup} test (its frames and module, no mapping) over a bundle built here that
 * holds our own {@code ~/io/sentry/samples/MainActivity.jvm} ({@code line N} on line N). The
 * frames Symbolicator's snapshot gives context (indexes 2 to 6: MainActivity and its inner
 * classes, with or without a file name) get the file's lines; the other two none; none at all
 * with {@code apply_source_context: false}.
 */
class JvmSourceContextApiTest {
  static final String BUNDLE_ID = "246fb328-fc4e-406a-87ff-fc35f6149d8f";

  static final String FRAMES =
      """
      [{"function": "otherMethod", "abs_path": "OtherActivity.java", "module": "OtherActivity",
        "filename": "OtherActivity.java", "lineno": 100, "index": 0},
       {"function": "differentMethod", "abs_path": "DifferentActivity",
        "module": "DifferentActivity", "filename": "DifferentActivity", "lineno": 200, "index": 1},
       {"function": "onCreate", "module": "io.sentry.samples.MainActivity", "lineno": 11,
        "index": 2},
       {"function": "whoops", "abs_path": "MainActivity.kt",
        "module": "io.sentry.samples.MainActivity$InnerClass", "filename": "MainActivity.kt",
        "lineno": 20, "index": 3},
       {"function": "whoops2", "module": "io.sentry.samples.MainActivity$AnotherInnerClass",
        "lineno": 26, "index": 4},
       {"function": "whoops3", "abs_path": "MainActivity.kt",
        "module": "io.sentry.samples.MainActivity$AdditionalInnerClass",
        "filename": "MainActivity.kt", "lineno": 32, "index": 5},
       {"function": "whoops4", "abs_path": "SourceFile",
        "module": "io.sentry.samples.MainActivity$OneMoreInnerClass", "filename": "SourceFile",
        "lineno": 38, "index": 6}]""";

  static final int LINES = 41;

  static byte[] bundle() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= LINES; i++) {
      text.append("line ").append(i).append('\n');
    }
    String zipPath = "files/_/_/io/sentry/samples/MainActivity.jvm";
    String manifest =
        "{\"org\":\"baz\",\"project\":\"bar\",\"debug_id\":\""
            + BUNDLE_ID
            + "\",\"files\":{\""
            + zipPath
            + "\":{\"url\":\"~/io/sentry/samples/MainActivity.jvm\"}}}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(text.toString().getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return out.toByteArray();
  }

  static ObjectNode request(boolean context) throws IOException {
    ObjectNode req = JSON.createObjectNode();
    req.putArray("exceptions")
        .addObject()
        .put("type", "RuntimeException")
        .put("module", "io.sentry.samples");
    req.putArray("stacktraces").addObject().set("frames", JSON.readTree(FRAMES));
    req.putArray("modules").addObject().put("uuid", BUNDLE_ID).put("type", "source");
    req.putObject("options").put("apply_source_context", context);
    return req;
  }

  static JsonNode serve(ObjectNode body) throws Exception {
    JvmApiHandler shape = new JvmApiHandler(DetachedSymbolication.withMaxFrames(1000));
    JvmRequest req = shape.parse(JSON.readTree(JSON.writeValueAsBytes(body)));
    List<CrashEvent> events = shape.events(req, "acme");
    TablesLookup lookup =
        new TablesLookup()
            .found(
                new ModuleRef("global", TableKind.JVM, JvmSourceBundle.moduleKey(BUNDLE_ID)),
                JvmSourceBundle.table(SourceBundle.read(bundle()), 1 << 20, new ArrayList<>()));
    var result = new JvmSymbolicator().symbolicate(events.get(0), lookup, 0L);
    return JSON.readTree(
        JSON.writeValueAsBytes(shape.render(req, List.of(result), RequestStats.NONE)));
  }

  static ArrayNode lines(int from, int to) {
    ArrayNode a = JSON.createArrayNode();
    for (int i = from; i <= to; i++) {
      a.add("line " + i);
    }
    return a;
  }

  @Test
  void framesOfTheBundlesFileGetItsLines() throws Exception {
    JsonNode res = serve(request(true));
    JsonNode frames = res.get("stacktraces").get(0).get("frames");
    assertThat(frames).hasSize(7);
    for (int i = 0; i < 2; i++) {
      assertThat(frames.get(i).has("context_line")).isFalse();
      assertThat(frames.get(i).has("pre_context")).isFalse();
    }
    for (int i = 2; i < 7; i++) {
      JsonNode f = frames.get(i);
      int line = f.get("lineno").asInt();
      assertThat(f.get("context_line").asText()).isEqualTo("line " + line);
      assertThat(f.get("pre_context")).isEqualTo(lines(line - 5, line - 1));
      assertThat(f.get("post_context")).isEqualTo(lines(line + 1, Math.min(LINES, line + 5)));
      // the rest of the frame comes back as sent
      JsonNode sent = JSON.readTree(FRAMES).get(i);
      ObjectNode rest = f.deepCopy();
      rest.remove(List.of("pre_context", "context_line", "post_context", "status"));
      assertThat(rest).isEqualTo(sent);
    }
    // line 38 of 41: three lines after it
    assertThat(frames.get(6).get("post_context")).hasSize(3);
    // a source bundle is not a mapping: no error for it
    assertThat(res.get("errors")).isEmpty();
  }

  @Test
  void applySourceContextFalseLeavesThemOutAndLoadsNoBundle() throws Exception {
    JvmApiHandler shape = new JvmApiHandler(DetachedSymbolication.withMaxFrames(1000));
    JvmRequest off = shape.parse(request(false));
    assertThat(off.applySourceContext()).isFalse();
    assertThat(new JvmSymbolicator().modulesNeeded(shape.events(off, "acme").get(0))).isEmpty();
    JvmRequest on = shape.parse(request(true));
    assertThat(new JvmSymbolicator().modulesNeeded(shape.events(on, "acme").get(0)))
        .containsExactly(
            new ModuleRef("acme", TableKind.JVM, JvmSourceBundle.moduleKey(BUNDLE_ID)));

    JsonNode frames = serve(request(false)).get("stacktraces").get(0).get("frames");
    for (JsonNode f : frames) {
      assertThat(f.has("context_line")).isFalse();
      assertThat(f.has("pre_context")).isFalse();
    }
  }
}

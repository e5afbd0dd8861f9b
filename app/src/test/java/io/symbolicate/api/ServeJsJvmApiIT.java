package io.symbolicate.api;

import static io.symbolicate.api.ApiClient.assertError;
import static io.symbolicate.symbols.testing.JsSnapshotCases.comparable;
import static io.symbolicate.symbols.testing.JsSnapshotCases.expectedFromMapAlone;
import static io.symbolicate.symbols.testing.JsSnapshotCases.expectedWithMinified;
import static io.symbolicate.symbols.testing.JsSnapshotCases.frames;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.jvm.JvmCases;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.testing.JsSnapshotCases;
import io.symbolicate.symbols.testing.JsSnapshotCases.Case;
import io.symbolicate.symbols.testing.Snapshots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /symbolicate-js} and {@code /symbolicate-jvm} in {@code serve} mode through a real HTTP
 * client, over a symbols directory in the bucket layout (docs/js.md, docs/jvm.md) filled from
 * {@code ../shared/fixtures}: the requests and expected frames of the shape tests, now loaded,
 * converted and cached by the server itself.
 */
class ServeJsJvmApiIT {
  static final String RELEASE = "web@1.0";
  static final int MAX_FRAMES = 1000;

  /** The one case whose minified files are not stored by debug id: the map-alone path. */
  static final String MAP_ALONE = "symbolicator-source-expansion";

  @TempDir static Path symbols;
  @TempDir static Path cache;
  private static ApiRuntime.Running api;
  private static ApiClient client;

  @BeforeAll
  static void start() throws IOException {
    for (Case c : JsSnapshotCases.symbolicatorCases().toList()) {
      for (int i = 0; i < c.maps().size(); i++) {
        put(JsSymbolKeys.sourcemapByDebugId(c.debugId(i)), c.maps().get(i));
        if (!c.id().equals(MAP_ALONE)) {
          put(JsSymbolKeys.minifiedByDebugId(c.debugId(i)), c.minified().get(i));
        }
      }
    }
    // one case also under its release, by URL: the minified file names its map (sourceMappingURL)
    Case c = JsSnapshotCases.caseById("symbolicator-sourcemap-expansion");
    put(JsSymbolKeys.releaseFile(RELEASE, null, c.urls().get(0)), c.minified().get(0));
    put(JsSymbolKeys.releaseFile(RELEASE, null, c.urls().get(0) + ".map"), c.maps().get(0));
    JsonNode inline = JvmCases.caseById("symbolicator-proguard-resolving-inline");
    put(
        "jvm/proguard/" + JvmCases.UUID_A + "/mapping.txt",
        JvmCases.JVM.resolve(inline.get("mapping").asText()));

    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("http.max.frames", String.valueOf(MAX_FRAMES))
            .set("http.request.timeout.ms", "10000");
    api = ApiRuntime.serve(cfg);
    client = new ApiClient(api.server().uri());
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  static void put(String key, Path from) throws IOException {
    Path to = symbols.resolve(key);
    Files.createDirectories(to.getParent());
    Files.copy(from, to);
  }

  /**
   * Our frames equal the expected ones (as {@code comparable}), at least one is symbolicated, and
   * each symbolicated one was resolved {@code resolvedWith} and passes {@code more}.
   */
  static void assertFrames(
      List<JsonNode> ours,
      List<ObjectNode> expected,
      String resolvedWith,
      Consumer<JsonNode> more) {
    assertThat(ours).hasSameSizeAs(expected);
    int symbolicated = 0;
    for (int i = 0; i < ours.size(); i++) {
      assertThat(comparable(ours.get(i))).as("frame %d", i).isEqualTo(expected.get(i));
      if (expected.get(i).get("data").get("symbolicated").asBoolean()) {
        symbolicated++;
        assertThat(ours.get(i).get("data").get("resolved_with").asText()).isEqualTo(resolvedWith);
        more.accept(ours.get(i));
      }
    }
    assertThat(symbolicated).isPositive();
  }

  ApiClient.Response post(String path, JsonNode body) throws Exception {
    return client.post(path, body.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.symbolicate.symbols.testing.JsSnapshotCases#symbolicatorCases")
  void jsFramesComeBackAsInSymbolicatorSnapshot(Case c) throws Exception {
    var r = post("/symbolicate-js", JsSnapshotCases.request(c));
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    assertThat(r.json().get("status").asText()).isEqualTo("completed");
    List<JsonNode> ours = frames(r.json(), "stacktraces");
    // with the minified file stored beside the map, the loader's table has its function scopes and
    // the frames are Symbolicator's; with the map alone, the minified names sent come back
    List<ObjectNode> expected =
        c.id().equals(MAP_ALONE) ? expectedFromMapAlone(c) : expectedWithMinified(c);
    assertFrames(
        ours,
        expected,
        "debug-id",
        frame -> {
          assertThat(frame.get("status").asText()).isEqualTo("symbolicated");
          assertThat(frame.get("data").get("sourcemap").asText()).startsWith("debug-id://");
        });
    // every module of the request was found: no missing_sourcemap for any of them
    for (JsonNode e : r.json().path("errors")) {
      if (e.get("type").asText().equals("missing_sourcemap")) {
        assertThat(c.urls()).doesNotContain(e.get("abs_path").asText());
      }
    }
  }

  @Test
  void jsModuleWithoutMapGivesMissingSourcemapAndRawFrames() throws Exception {
    Case c = JsSnapshotCases.caseById("symbolicator-webpack-sources");
    ObjectNode req = JsSnapshotCases.request(c);
    req.remove("release");
    for (JsonNode m : req.get("modules")) {
      ((ObjectNode) m).put("debug_id", UUID.randomUUID().toString()); // nothing stored under these
    }
    var r = post("/symbolicate-js", req);
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    List<JsonNode> sent = frames(req, "stacktraces");
    List<JsonNode> out = frames(r.json(), "stacktraces");
    assertThat(out).hasSameSizeAs(sent);
    for (int i = 0; i < out.size(); i++) {
      assertThat(out.get(i).get("status").asText()).isEqualTo("missing_symbols");
      assertThat(comparable(out.get(i))).isEqualTo(comparable(sent.get(i)));
    }
    assertThat(r.json().get("errors"))
        .isEqualTo(
            ApiClient.json(
                """
        [{"abs_path":"http://example.com/test1.min.js","type":"missing_sourcemap"},
         {"abs_path":"http://example.com/test2.min.js","type":"missing_sourcemap"}]"""));
  }

  @Test
  void jsFramesWithoutDebugIdAreFoundByReleaseAndUrl() throws Exception {
    Case c = JsSnapshotCases.caseById("symbolicator-sourcemap-expansion");
    ObjectNode req = JsSnapshotCases.request(c);
    req.remove("modules");
    req.put("release", RELEASE);
    var r = post("/symbolicate-js", req);
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    List<JsonNode> ours = frames(r.json(), "stacktraces");
    // the loader read the release's minified file to find the map, and keeps it for the scopes
    List<ObjectNode> expected = expectedWithMinified(c);
    assertFrames(ours, expected, "release", frame -> {});

    // another release has nothing stored: unsymbolicated, and as Symbolicator says when the
    // minified file is not in the release and scraping is off
    req.put("release", "web@2.0");
    r = post("/symbolicate-js", req);
    assertThat(r.status()).isEqualTo(200);
    frames(r.json(), "stacktraces")
        .forEach(
            f -> {
              assertThat(f.get("data").get("symbolicated").asBoolean()).isFalse();
              assertThat(f.get("status").asText()).isEqualTo("missing_symbols");
            });
    assertThat(r.json().get("errors"))
        .contains(
            ApiClient.json(
                """
        {"abs_path":"%s","type":"scraping_disabled"}"""
                    .formatted(c.urls().get(0))));

    // a URL that would climb out of the release's prefix is refused, not looked up
    ((ObjectNode) frames(req, "stacktraces").get(1))
        .put("abs_path", "http://example.com/static/../../etc/passwd");
    r = post("/symbolicate-js", req);
    assertThat(r.status()).isEqualTo(200);
    assertThat(frames(r.json(), "stacktraces").get(1).get("status").asText())
        .isEqualTo("invalid_frame");
  }

  @Test
  void jvmFramesAreRemappedAsInSymbolicatorSnapshot() throws Exception {
    JsonNode c = JvmCases.caseById("symbolicator-proguard-resolving-inline");
    var r =
        post(
            "/symbolicate-jvm",
            JvmCases.request(c.get("input").get("exception"), c.get("input").get("frames")));
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    assertThat(JvmCases.withoutStatus(r.json()))
        .isEqualTo(Snapshots.read(JvmCases.JVM.resolve(c.get("expected_output").asText())));
    r.json()
        .get("stacktraces")
        .get(0)
        .get("frames")
        .forEach(f -> assertThat(f.get("status").asText()).isEqualTo("symbolicated"));
  }

  @Test
  void jvmMappingNotStoredGivesMissingErrorAndFramesAsSent() throws Exception {
    JsonNode c = JvmCases.caseById("symbolicator-proguard-resolving-inline");
    ObjectNode req =
        JvmCases.request(c.get("input").get("exception"), c.get("input").get("frames"));
    String absent = UUID.randomUUID().toString();
    ((ObjectNode) req.get("modules").get(0)).put("uuid", absent);
    var r = post("/symbolicate-jvm", req);
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    assertThat(r.json().get("errors"))
        .isEqualTo(
            ApiClient.json(
                """
        [{"uuid":"%s","type":"missing"}]"""
                    .formatted(absent)));
    JsonNode frames = r.json().get("stacktraces").get(0).get("frames");
    assertThat(frames).hasSameSizeAs(c.get("input").get("frames"));
    for (int i = 0; i < frames.size(); i++) {
      ObjectNode f = frames.get(i).deepCopy();
      assertThat(f.remove("status").asText()).isEqualTo("missing_symbols");
      assertThat(f).isEqualTo(c.get("input").get("frames").get(i));
    }
    assertThat(r.json().get("exceptions").get(0)).isEqualTo(c.get("input").get("exception"));
  }

  @Test
  void badRequestsGetTheirReasonAndTheServerStaysUp() throws Exception {
    String js =
        JsSnapshotCases.request(JsSnapshotCases.caseById("symbolicator-webpack-sources"))
            .toString();
    JsonNode jvmCase = JvmCases.caseById("symbolicator-proguard-resolving-inline");
    String jvm =
        JvmCases.request(jvmCase.get("input").get("exception"), jvmCase.get("input").get("frames"))
            .toString();

    assertError(
        client.post("/symbolicate-js", js.substring(0, js.length() / 2)), 400, "not valid JSON");
    assertError(
        client.post("/symbolicate-jvm", jvm.substring(0, jvm.length() / 2)), 400, "not valid JSON");
    assertError(client.post("/symbolicate-js", "[]"), 400, "must be a JSON object");

    ObjectNode dots = (ObjectNode) ApiClient.json(js);
    ((ObjectNode) dots.get("modules").get(0)).put("debug_id", "../../etc/passwd");
    assertError(
        post("/symbolicate-js", dots),
        400,
        "modules[0].debug_id: not a debug id (a UUID): \"../../etc/passwd\"");
    ObjectNode jvmDots = (ObjectNode) ApiClient.json(jvm);
    ((ObjectNode) jvmDots.get("modules").get(0)).put("uuid", "../" + JvmCases.UUID_A);
    assertError(post("/symbolicate-jvm", jvmDots), 400, "modules[0].uuid: not a UUID");

    ObjectNode negative = (ObjectNode) ApiClient.json(js);
    ((ObjectNode) negative.get("stacktraces").get(0).get("frames").get(1)).put("lineno", -1);
    assertError(
        post("/symbolicate-js", negative),
        400,
        "stacktraces[0].frames[1].lineno: must be a non-negative integer, got -1");
    ObjectNode jvmNegative = (ObjectNode) ApiClient.json(jvm);
    ((ObjectNode) jvmNegative.get("stacktraces").get(0).get("frames").get(0)).put("lineno", -7);
    assertError(
        post("/symbolicate-jvm", jvmNegative),
        400,
        "stacktraces[0].frames[0].lineno: must be a non-negative integer, got -7");

    assertError(
        post("/symbolicate-js", manyFrames(MAX_FRAMES + 1, 1, "abs_path", "http://x/a.js")),
        413,
        "stacktraces[0].frames: has "
            + (MAX_FRAMES + 1)
            + " entries, at most "
            + MAX_FRAMES
            + " are allowed");
    assertError(
        post("/symbolicate-js", manyFrames(MAX_FRAMES / 2 + 1, 2, "abs_path", "http://x/a.js")),
        413,
        "stacktraces: more than " + MAX_FRAMES + " frames in total");
    assertError(
        post("/symbolicate-jvm", manyFrames(MAX_FRAMES / 2 + 1, 2, "module", "a.B")),
        413,
        "stacktraces: more than " + MAX_FRAMES + " frames in total");

    // still up, and the same good requests are answered
    assertThat(client.post("/symbolicate-js", js).status()).isEqualTo(200);
    assertThat(client.post("/symbolicate-jvm", jvm).status()).isEqualTo(200);
  }

  /** {@code traces} stack traces of {@code perTrace} frames, valid for both endpoints but for their count. */
  static ObjectNode manyFrames(int perTrace, int traces, String field, String value) {
    ObjectNode body = JsSnapshotCases.JSON.createObjectNode();
    ArrayNode out = body.putArray("stacktraces");
    for (int t = 0; t < traces; t++) {
      ArrayNode frames = out.addObject().putArray("frames");
      for (int i = 0; i < perTrace; i++) {
        frames.addObject().put(field, value).put("function", "f").put("lineno", 1).put("index", i);
      }
    }
    return body;
  }
}

package io.symbolicate.api.js;

import static io.symbolicate.symbols.testing.JsSnapshotCases.JSON;
import static io.symbolicate.symbols.testing.JsSnapshotCases.caseById;
import static io.symbolicate.symbols.testing.JsSnapshotCases.comparable;
import static io.symbolicate.symbols.testing.JsSnapshotCases.expectedFromMapAlone;
import static io.symbolicate.symbols.testing.JsSnapshotCases.frames;
import static io.symbolicate.symbols.testing.JsSnapshotCases.noSourcesContent;
import static io.symbolicate.symbols.testing.JsSnapshotCases.request;
import static io.symbolicate.symbols.testing.JsSnapshotCases.withoutContext;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.RequestStats;
import io.symbolicate.connectors.loader.js.JsTableConverter;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.js.JsSymbolicator;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMapParser;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.JsSnapshotCases.Case;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /symbolicate-js} end to end without a server: Symbolicator-shaped requests built from
 * the symbolicator cases of {@code ../shared/fixtures/js}, parsed by the shape, symbolicated by
 * the stream's {@link JsSymbolicator} over real converted tables, rendered, and compared with
 * Symbolicator's own response snapshots.
 */
class JsApiHandlerTest {
  static final String SCOPE = "acme";

  final JsApiHandler shape = new JsApiHandler(DetachedSymbolication.withMaxFrames(20_000));
  final JsSymbolicator step = new JsSymbolicator();

  /** Tables as built with the minified file beside the map (scopes give Sentry's function names). */
  static TablesLookup tablesWithMinified(Case c) throws Exception {
    TablesLookup lookup = new TablesLookup();
    for (int i = 0; i < c.maps().size(); i++) {
      JsTable t =
          new JsTableBuilder()
              .build(
                  new SourceMapParser().parse(Files.readAllBytes(c.maps().get(i))),
                  Files.readString(c.minified().get(i)));
      lookup.found(new ModuleRef("global", TableKind.JS, c.debugId(i)), t);
    }
    return lookup;
  }

  /** Tables as the loader converts them today: the map alone. */
  static TablesLookup tablesFromConverter(Case c) throws Exception {
    TablesLookup lookup = new TablesLookup();
    for (int i = 0; i < c.maps().size(); i++) {
      var t =
          new JsTableConverter()
              .convert(new ByteArrayInputStream(Files.readAllBytes(c.maps().get(i))), 1 << 26);
      lookup.found(new ModuleRef(SCOPE, TableKind.JS, c.debugId(i)), t);
    }
    return lookup;
  }

  JsonNode serve(JsonNode body, SymbolLookup lookup) throws Exception {
    // through bytes, as the server reads a body
    JsRequest req = shape.parse(JSON.readTree(JSON.writeValueAsBytes(body)));
    List<CrashEvent> events = shape.events(req, SCOPE);
    List<SymbolicatedEvent> results = new ArrayList<>();
    for (CrashEvent e : events) {
      assertThat(step.modulesNeeded(e)).allSatisfy(ref -> assertThat(ref.scope()).isEqualTo(SCOPE));
      results.add(step.symbolicate(e, lookup, 0L));
    }
    return JSON.readTree(JSON.writeValueAsBytes(shape.render(req, results, RequestStats.NONE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.symbolicate.symbols.testing.JsSnapshotCases#symbolicatorCases")
  void responseEqualsSymbolicatorSnapshot(Case c) throws Exception {
    JsonNode res = serve(request(c), tablesWithMinified(c));
    JsonNode snap = c.snapshot();
    assertThat(res.get("status").asText()).isEqualTo("completed");

    List<JsonNode> ours = frames(res, "stacktraces");
    List<JsonNode> theirs = frames(snap, "stacktraces");
    boolean noContent = noSourcesContent(c);
    ArrayNode expectedErrors =
        snap.has("errors") ? snap.get("errors").deepCopy() : JSON.createArrayNode();
    assertThat(ours).hasSameSizeAs(theirs);
    for (int i = 0; i < ours.size(); i++) {
      ObjectNode expected = comparable(theirs.get(i));
      boolean symbolicated = expected.get("data").get("symbolicated").asBoolean();
      if (noContent && symbolicated) {
        // we only have the map, and it has no sourcesContent: no context, and Symbolicator's
        // error for that, naming the raw frame, the source and the map
        expected = withoutContext(expected);
        expectedErrors
            .addObject()
            .put("abs_path", frames(snap, "raw_stacktraces").get(i).get("abs_path").asText())
            .put("type", "missing_source_content")
            .put("source", theirs.get(i).get("abs_path").asText())
            .put("sourcemap", ours.get(i).get("data").get("sourcemap").asText());
      }
      assertThat(comparable(ours.get(i))).as("frame %d", i).isEqualTo(expected);
      JsonNode data = ours.get(i).get("data");
      if (theirs.get(i).get("data").get("symbolicated").asBoolean()) {
        // found through the module's debug id (Symbolicator's test found it by release)
        assertThat(ours.get(i).get("status").asText()).isEqualTo("symbolicated");
        assertThat(data.get("resolved_with").asText()).isEqualTo("debug-id");
        assertThat(data.get("sourcemap").asText()).startsWith("debug-id://");
      } else {
        // no debug id: looked up by release + URL, which these tables do not hold (not loaded)
        assertThat(ours.get(i).get("status").asText()).isIn("unknown_module", "fetch_failed");
        assertThat(data.size()).isEqualTo(1);
      }
    }

    // raw frames: as sent (async prefix stripped); Symbolicator also adds the minified file's
    // context lines, which we do not have (the minified file is not stored)
    List<JsonNode> rawOurs = frames(res, "raw_stacktraces");
    List<JsonNode> rawTheirs = frames(snap, "raw_stacktraces");
    assertThat(rawOurs).hasSameSizeAs(rawTheirs);
    for (int i = 0; i < rawOurs.size(); i++) {
      ObjectNode expected = rawTheirs.get(i).deepCopy();
      expected.remove(List.of("pre_context", "context_line", "post_context"));
      assertThat(rawOurs.get(i)).as("raw frame %d", i).isEqualTo(expected);
    }

    assertThat(res.has("errors")).isEqualTo(!expectedErrors.isEmpty());
    if (!expectedErrors.isEmpty()) {
      // Symbolicator's errors are a sorted set: by abs_path first
      List<JsonNode> sorted = new ArrayList<>();
      expectedErrors.forEach(sorted::add);
      sorted.sort(Comparator.comparing((JsonNode e) -> e.get("abs_path").asText()));
      assertThat(res.get("errors")).isEqualTo(JSON.createArrayNode().addAll(sorted));
    }
    // every attempt we report is one Symbolicator reports, in its order (it also lists the
    // sourcemap URLs it found by release, which a debug-id lookup never sees)
    List<JsonNode> attempts = new ArrayList<>();
    res.get("scraping_attempts").forEach(attempts::add);
    List<JsonNode> expectedAttempts = new ArrayList<>();
    snap.get("scraping_attempts").forEach(expectedAttempts::add);
    assertThat(attempts).isNotEmpty().isSubsetOf(expectedAttempts);
    assertThat(expectedAttempts.stream().filter(attempts::contains).toList()).isEqualTo(attempts);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.symbolicate.symbols.testing.JsSnapshotCases#symbolicatorCases")
  void loaderConvertedTablesGiveSameFramesWithTheMinifiedFunctionName(Case c) throws Exception {
    JsonNode res = serve(request(c), tablesFromConverter(c));
    List<JsonNode> ours = frames(res, "stacktraces");
    List<ObjectNode> expected = expectedFromMapAlone(c);
    assertThat(ours).hasSameSizeAs(expected);
    for (int i = 0; i < ours.size(); i++) {
      assertThat(comparable(ours.get(i))).as("frame %d", i).isEqualTo(expected.get(i));
    }
  }

  @Test
  void missingMalformedAndNotLoadedModulesGiveSymbolicatorErrors() throws Exception {
    Case c = caseById("symbolicator-webpack-sources");
    ObjectNode req = request(c);
    TablesLookup lookup =
        new TablesLookup()
            .negative(
                new ModuleRef("global", TableKind.JS, c.debugId(0)),
                TableStatus.missing,
                "not in any source");
    // module 1 has no state at all: not loaded before the deadline
    JsonNode res = serve(req, lookup);
    List<JsonNode> out = frames(res, "stacktraces");
    assertThat(out.get(0).get("status").asText()).isEqualTo("missing_symbols");
    assertThat(out.get(1).get("status").asText()).isEqualTo("fetch_failed");
    for (int i = 0; i < 2; i++) {
      ObjectNode raw = frames(c.snapshot(), "raw_stacktraces").get(i).deepCopy();
      raw.remove(List.of("context_line", "post_context"));
      assertThat(comparable(out.get(i))).isEqualTo(raw);
    }
    assertThat(res.get("errors"))
        .isEqualTo(
            JSON.readTree(
                """
        [{"abs_path":"http://example.com/test1.min.js","type":"missing_sourcemap"},
         {"abs_path":"http://example.com/test2.min.js","type":"missing_sourcemap"}]"""));

    lookup =
        new TablesLookup()
            .negative(
                new ModuleRef("global", TableKind.JS, c.debugId(0)),
                TableStatus.malformed,
                "invalid sourcemap: x")
            .found(
                new ModuleRef("global", TableKind.JS, c.debugId(1)), tablesWithMinifiedTable(c, 1));
    res = serve(req, lookup);
    out = frames(res, "stacktraces");
    assertThat(out.get(0).get("status").asText()).isEqualTo("malformed_symbols");
    assertThat(out.get(1).get("status").asText()).isEqualTo("symbolicated");
    assertThat(res.get("errors"))
        .isEqualTo(
            JSON.readTree(
                """
        [{"abs_path":"http://example.com/test1.min.js","type":"malformed_sourcemap",
          "url":"debug-id://%s"}]"""
                    .formatted(c.debugId(0))));
  }

  static JsTable tablesWithMinifiedTable(Case c, int i) throws Exception {
    return new JsTableBuilder()
        .build(
            new SourceMapParser().parse(Files.readAllBytes(c.maps().get(i))),
            Files.readString(c.minified().get(i)));
  }

  @Test
  void invalidLocationsNoContextAndScrapingEnabled() throws Exception {
    Case c = caseById("symbolicator-sourcemap-expansion");
    ObjectNode req = request(c);
    ArrayNode frames = (ArrayNode) req.get("stacktraces").get(0).get("frames");
    ((ObjectNode) frames.get(1)).put("lineno", 0); // Symbolicator: invalid_location, col as sent
    ((ObjectNode) frames.get(2))
        .put("lineno", 40)
        .put("colno", 3); // past the minified file's lines
    ((ObjectNode) frames.get(3)).remove("colno"); // no column: the line's first segment
    req.remove("scraping"); // scraping on (Symbolicator's default)
    req.putObject("options").put("apply_source_context", false);
    JsonNode res = serve(req, tablesWithMinified(c));
    List<JsonNode> out = frames(res, "stacktraces");
    assertThat(out.get(1).get("status").asText()).isEqualTo("invalid_frame");
    assertThat(out.get(2).get("status").asText()).isEqualTo("no_symbol");
    assertThat(out.get(3).get("status").asText()).isEqualTo("symbolicated");
    assertThat(out.get(3).has("context_line")).isFalse();
    assertThat(out.get(3).get("lineno").asInt()).isEqualTo(1);
    assertThat(res.get("errors"))
        .isEqualTo(
            JSON.readTree(
                """
        [{"abs_path":"http://example.com/index.html","type":"missing_source"},
         {"abs_path":"http://example.com/test.min.js","type":"invalid_location","line":0,"col":183},
         {"abs_path":"http://example.com/test.min.js","type":"invalid_location","line":40,"col":3}]"""));
    assertThat(res.get("scraping_attempts").get(0).get("reason").asText()).isEqualTo("other");
  }

  /** A frame URL refused as a release key is Symbolicator's invalid_abs_path, not a location error. */
  @Test
  void aRefusedAbsPathIsAnInvalidAbsPathError() throws Exception {
    JsonNode res =
        serve(
            JSON.readTree(
                """
        {"release": "1.0", "stacktraces": [{"frames": [
          {"abs_path": "http://example.com/static/../../etc/passwd", "lineno": 1, "colno": 5},
          {"abs_path": "http://example.com/static/app.js", "lineno": 0, "colno": 5}]}]}"""),
            new TablesLookup());
    List<JsonNode> out = frames(res, "stacktraces");
    assertThat(out.get(0).get("status").asText()).isEqualTo("invalid_frame");
    assertThat(out.get(1).get("status").asText()).isEqualTo("invalid_frame");
    assertThat(res.get("errors"))
        .isEqualTo(
            JSON.readTree(
                """
        [{"abs_path":"http://example.com/static/../../etc/passwd","type":"invalid_abs_path"},
         {"abs_path":"http://example.com/static/app.js","type":"invalid_location","line":0,"col":5}]"""));
  }

  @Test
  void unicodeUrlsAndEmptyRequestsAreServed() throws Exception {
    JsonNode res =
        serve(
            JSON.readTree(
                """
        {"stacktraces":[{"frames":[{"abs_path":"https://例え.jp/ünï/app.min.js","lineno":1,"colno":2,"function":"ƒ"}]}]}"""),
            new TablesLookup());
    JsonNode f = res.get("stacktraces").get(0).get("frames").get(0);
    assertThat(f.get("abs_path").asText()).isEqualTo("https://例え.jp/ünï/app.min.js");
    assertThat(f.get("function").asText()).isEqualTo("ƒ");
    assertThat(f.get("status").asText()).isEqualTo("unknown_module");

    res = serve(JSON.readTree("{}"), new TablesLookup());
    assertThat(res.get("stacktraces")).isEmpty();
    assertThat(res.get("raw_stacktraces")).isEmpty();
    assertThat(res.has("errors")).isFalse();
  }

  @Test
  void eventCarriesModulesReleaseAndDist() {
    JsRequest req =
        shape.parse(
            JSON.createObjectNode()
                .put("release", "1.0")
                .put("dist", "7")
                .set(
                    "modules",
                    JSON.createArrayNode()
                        .add(
                            JSON.createObjectNode()
                                .put("type", "sourcemap")
                                .put("code_file", "http://x/a.js")
                                .put("debug_id", "C941D872-AF1F-4F0C-A7FF-AD3D295FE153"))));
    CrashEvent e = shape.events(req, SCOPE).get(0);
    assertThat(e.getScope()).isEqualTo(SCOPE);
    assertThat(e.getRelease()).isEqualTo("1.0");
    assertThat(e.getDist()).isEqualTo("7");
    assertThat(e.getJavascript().getModules().get(0).getDebugId())
        .isEqualTo("c941d872-af1f-4f0c-a7ff-ad3d295fe153");
  }
}

package io.symbolicate.api.jvm;

import static io.symbolicate.api.jvm.JvmCases.JSON;
import static io.symbolicate.api.jvm.JvmCases.JVM;
import static io.symbolicate.api.jvm.JvmCases.UUID_A;
import static io.symbolicate.api.jvm.JvmCases.caseById;
import static io.symbolicate.api.jvm.JvmCases.cases;
import static io.symbolicate.api.jvm.JvmCases.request;
import static io.symbolicate.api.jvm.JvmCases.withoutStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.RequestStats;
import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.jvm.JvmSymbolicator;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.Snapshots;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /symbolicate-jvm} without a server: Symbolicator-shaped requests built from
 * {@code ../shared/fixtures/jvm}, parsed, symbolicated by the stream's {@link JvmSymbolicator}
 * over tables made by the loader's {@link JvmTableConverter}, rendered, and compared with
 * Symbolicator's snapshot and the peers' expected frames.
 */
class JvmApiHandlerTest {
  static final String SCOPE = "acme";

  /** Frames per request, as the stream's {@code max.frames.per.event} default. */
  static final int MAX_FRAMES = 20_000;

  final JvmApiHandler shape = new JvmApiHandler(DetachedSymbolication.withMaxFrames(MAX_FRAMES));
  final JvmSymbolicator step = new JvmSymbolicator();

  static CompactTable table(String mapping) throws Exception {
    try (var in = Files.newInputStream(JVM.resolve(mapping))) {
      return new JvmTableConverter().convert(in, 1L << 30);
    }
  }

  static TablesLookup lookup(String mapping) throws Exception {
    return new TablesLookup().found(new ModuleRef("global", TableKind.JVM, UUID_A), table(mapping));
  }

  JsonNode serve(JsonNode body, SymbolLookup lookup) throws Exception {
    JvmRequest req = shape.parse(JSON.readTree(JSON.writeValueAsBytes(body)));
    List<CrashEvent> events = shape.events(req, SCOPE);
    assertThat(events).hasSize(1);
    var result = step.symbolicate(events.get(0), lookup, 0L);
    return JSON.readTree(
        JSON.writeValueAsBytes(shape.render(req, List.of(result), RequestStats.NONE)));
  }

  @Test
  void resolvingInlineEqualsSymbolicatorSnapshot() throws Exception {
    JsonNode c = caseById("symbolicator-proguard-resolving-inline");
    JsonNode res =
        serve(
            request(c.get("input").get("exception"), c.get("input").get("frames")),
            lookup(c.get("mapping").asText()));
    JsonNode snap = Snapshots.read(JVM.resolve(c.get("expected_output").asText()));
    assertThat(withoutStatus(res)).isEqualTo(snap);
    // the same, field by field, against the case's own expectation
    assertThat(res.get("exceptions").get(0)).isEqualTo(c.get("expected").get("exception"));
    List<JsonNode> frames = new ArrayList<>();
    res.get("stacktraces")
        .get(0)
        .get("frames")
        .forEach(f -> frames.add(((ObjectNode) f.deepCopy()).without("status")));
    assertThat(frames).containsExactlyElementsOf(c.get("expected").get("frames"));
    res.get("stacktraces")
        .get(0)
        .get("frames")
        .forEach(f -> assertThat(f.get("status").asText()).isEqualTo("symbolicated"));
  }

  static Stream<Named<JsonNode>> frameCases() throws Exception {
    List<Named<JsonNode>> out = new ArrayList<>();
    cases()
        .forEach(
            c -> {
              if (c.get("kind").asText().equals("frame")) {
                out.add(Named.of(c.get("id").asText(), c));
              }
            });
    assertThat(out).isNotEmpty();
    return out.stream();
  }

  /** Each peer frame case as a one-frame Sentry request: the expected frames, caller first. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("frameCases")
  void peerFrameCasesComeBackCallerFirstWithTheirIndex(JsonNode c) throws Exception {
    JsonNode in = c.get("input");
    ArrayNode frames = JSON.createArrayNode();
    frames
        .addObject()
        .put("function", in.get("method").asText())
        .put("module", in.get("class").asText())
        .put("lineno", in.get("line").asInt())
        .put("index", 7);
    JsonNode res = serve(request(null, frames), lookup(c.get("mapping").asText()));
    JsonNode out = res.get("stacktraces").get(0).get("frames");
    JsonNode expected = c.get("expected");
    assertThat(out.size()).isEqualTo(expected.size());
    for (int i = 0; i < out.size(); i++) {
      JsonNode e = expected.get(expected.size() - 1 - i); // peers list innermost first
      JsonNode f = out.get(i);
      assertThat(f.get("function").asText()).isEqualTo(e.get("method").asText());
      assertThat(f.get("lineno").asInt()).isEqualTo(e.get("line").asInt());
      assertThat(f.get("index").asInt()).isEqualTo(7);
      assertThat(f.get("status").asText()).isEqualTo("symbolicated");
      if (e.has("class")) {
        assertThat(f.get("module").asText()).isEqualTo(e.get("class").asText());
      }
      if (e.has("file")) {
        assertThat(f.get("filename").asText()).isEqualTo(e.get("file").asText());
      }
    }
    assertThat(res.get("errors")).isEmpty();
  }

  @Test
  void exceptionsAndClassesAreRemapped() throws Exception {
    JsonNode c = caseById("rust-proguard-basic-class");
    String obfuscated = c.get("input").asText();
    String original = c.get("expected").asText();
    int dot = obfuscated.lastIndexOf('.');
    ObjectNode req =
        request(
            JSON.createObjectNode()
                .put("type", obfuscated.substring(dot + 1))
                .put("module", obfuscated.substring(0, dot)),
            JSON.createArrayNode());
    req.putArray("classes").add(obfuscated).add("not.in.the.Mapping");
    JsonNode res = serve(req, lookup(c.get("mapping").asText()));
    int odot = original.lastIndexOf('.');
    assertThat(res.get("exceptions"))
        .isEqualTo(
            JSON.createArrayNode()
                .add(
                    JSON.createObjectNode()
                        .put("type", original.substring(odot + 1))
                        .put("module", original.substring(0, odot))));
    assertThat(res.get("classes")).isEqualTo(JSON.createObjectNode().put(obfuscated, original));
    assertThat(res.get("stacktraces").get(0).get("frames")).isEmpty();
  }

  @Test
  void releasePackageMarksRemappedFramesInApp() throws Exception {
    JsonNode c = caseById("symbolicator-proguard-resolving-inline");
    ObjectNode req = request(null, c.get("input").get("frames"));
    req.put("release_package", "io.sentry.sample.MainActivity");
    ((ObjectNode) req.get("stacktraces").get(0).get("frames").get(1)).put("in_app", false);
    JsonNode frames =
        serve(req, lookup(c.get("mapping").asText())).get("stacktraces").get(0).get("frames");
    assertThat(frames.get(0).has("in_app")).isFalse(); // the lambda class is not in the package
    for (int i = 1; i < 4; i++) {
      assertThat(frames.get(i).get("in_app").asBoolean()).isFalse(); // what the client said wins
    }
    req.put("release_package", "io.sentry");
    ((ObjectNode) req.get("stacktraces").get(0).get("frames").get(1)).remove("in_app");
    frames = serve(req, lookup(c.get("mapping").asText())).get("stacktraces").get(0).get("frames");
    frames.forEach(f -> assertThat(f.get("in_app").asBoolean()).isTrue());
  }

  @Test
  void missingAndMalformedMappingsGiveSymbolicatorErrorsAndRawFrames() throws Exception {
    JsonNode c = caseById("symbolicator-proguard-resolving-inline");
    String uuidB = "5b46fdc0-0000-4000-8000-000000000002";
    String uuidC = "5b46fdc0-0000-4000-8000-000000000003";
    ObjectNode req = request(c.get("input").get("exception"), c.get("input").get("frames"));
    ArrayNode modules = (ArrayNode) req.get("modules");
    modules.removeAll();
    modules.addObject().put("type", "proguard").put("uuid", UUID_A.toUpperCase());
    modules.addObject().put("type", "proguard").put("uuid", uuidB);
    modules
        .addObject()
        .put("type", "source")
        .put("uuid", uuidC); // a source bundle not loaded: no error (as Symbolicator)
    TablesLookup lookup =
        new TablesLookup()
            .negative(
                new ModuleRef("global", TableKind.JVM, UUID_A),
                TableStatus.missing,
                "not in any source")
            .negative(
                new ModuleRef(SCOPE, TableKind.JVM, uuidB), TableStatus.malformed, "not a mapping");
    JsonNode res = serve(req, lookup);
    assertThat(res.get("errors"))
        .isEqualTo(
            JSON.readTree(
                """
        [{"uuid":"%s","type":"missing"},{"uuid":"%s","type":"invalid"}]"""
                    .formatted(UUID_A, uuidB)));
    JsonNode frames = res.get("stacktraces").get(0).get("frames");
    assertThat(frames).hasSize(2);
    for (int i = 0; i < 2; i++) {
      ObjectNode f = frames.get(i).deepCopy();
      assertThat(f.remove("status").asText()).isEqualTo("malformed_symbols");
      assertThat(f).isEqualTo(c.get("input").get("frames").get(i));
    }
    assertThat(res.get("exceptions").get(0)).isEqualTo(c.get("input").get("exception"));

    // a mapping not loaded before the deadline: reported missing, frames fetch_failed
    modules.remove(1);
    res = serve(req, new TablesLookup());
    assertThat(res.get("errors"))
        .isEqualTo(JSON.readTree("[{\"uuid\":\"%s\",\"type\":\"missing\"}]".formatted(UUID_A)));
    assertThat(res.get("stacktraces").get(0).get("frames").get(0).get("status").asText())
        .isEqualTo("fetch_failed");
  }

  @Test
  void framesWithBlankClassComeBackAsSent() throws Exception {
    ArrayNode frames = JSON.createArrayNode();
    frames
        .addObject()
        .put("function", "a")
        .put("module", "")
        .put("lineno", 0)
        .put("index", 0)
        .put("filename", "Ünïcödé.kt")
        .put("context_line", "x")
        .put("abs_path", "Ünïcödé.kt");
    JsonNode res = serve(request(null, frames), new TablesLookup());
    ObjectNode f = res.get("stacktraces").get(0).get("frames").get(0).deepCopy();
    assertThat(f.remove("status").asText()).isEqualTo("invalid_frame");
    assertThat(f).isEqualTo(frames.get(0));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "[] | the request body must be a JSON object, got array",
        "{\"exceptions\":[{\"module\":\"a\"}]} | exceptions[0].type: is required",
        "{\"exceptions\":[{\"type\":\"A\"}]} | exceptions[0].module: is required",
        "{\"stacktraces\":[{\"frames\":[{\"module\":\"a.b\",\"lineno\":1,\"index\":0}]}]} | stacktraces[0].frames[0].function: is required",
        "{\"stacktraces\":[{\"frames\":[{\"function\":\"a\",\"lineno\":1,\"index\":0}]}]} | stacktraces[0].frames[0].module: is required",
        "{\"stacktraces\":[{\"frames\":[{\"function\":\"a\",\"module\":\"a.b\",\"index\":0}]}]} | stacktraces[0].frames[0].lineno: is required",
        "{\"stacktraces\":[{\"frames\":[{\"function\":\"a\",\"module\":\"a.b\",\"lineno\":-3,\"index\":0}]}]} | stacktraces[0].frames[0].lineno: must be a non-negative integer, got -3",
        "{\"stacktraces\":[{\"frames\":[{\"function\":\"a\",\"module\":\"a.b\",\"lineno\":1}]}]} | stacktraces[0].frames[0].index: is required",
        "{\"stacktraces\":[{\"frames\":[{\"function\":\"a\",\"module\":\"a.b\",\"lineno\":1,\"index\":-1}]}]} | stacktraces[0].frames[0].index: must be a non-negative integer, got -1",
        "{\"modules\":[{\"type\":\"proguard\"}]} | modules[0].uuid: is required",
        "{\"modules\":[{\"type\":\"proguard\",\"uuid\":\"xyz\"}]} | modules[0].uuid: not a UUID: \"xyz\"",
        "{\"modules\":[{\"type\":\"proguard\",\"uuid\":\"../5b46fdc0-0000-4000-8000-000000000001\"}]} | modules[0].uuid: not a UUID: \"../5b46fdc0-0000-4000-8000-000000000001\"",
        "{\"modules\":[{\"type\":\"dart\",\"uuid\":\"5b46fdc0-0000-4000-8000-000000000001\"}]} | modules[0].type: must be \"proguard\" or \"source\", got \"dart\"",
        "{\"classes\":[\"a\",3]} | classes[1]: must be a string, got number",
        "{\"release_package\":[]} | release_package: must be a string, got array",
      })
  void badBodiesAreRejectedWithTheirReason(String body, String reason) throws Exception {
    JsonNode node = JSON.readTree(body);
    assertThatThrownBy(() -> shape.parse(node))
        .isInstanceOf(ApiException.class)
        .hasMessage(reason)
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(400));
  }

  @Test
  void tooManyFramesAreRejected() {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode frames = body.putArray("stacktraces").addObject().putArray("frames");
    for (int i = 0; i < MAX_FRAMES + 1; i++) {
      frames.addObject().put("function", "a").put("module", "b.C").put("lineno", 1).put("index", i);
    }
    assertThatThrownBy(() -> shape.parse(body))
        .isInstanceOf(ApiException.class)
        .hasMessage("stacktraces[0].frames: has 20001 entries, at most 20000 are allowed")
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));
  }
}

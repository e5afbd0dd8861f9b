package io.symbolicate.api.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.DetachedSymbolication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad {@code /symbolicate-js} bodies: a 400 whose reason names the field and the problem. */
class JsRequestValidationTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Frames per request, as the stream's {@code max.frames.per.event} default. */
  static final int MAX_FRAMES = 20_000;

  final JsApiHandler shape = new JsApiHandler(DetachedSymbolication.withMaxFrames(MAX_FRAMES));

  static final String FRAME = "{\"abs_path\":\"http://x/a.min.js\",\"lineno\":1,\"colno\":2}";
  static final String MODULE =
      "{\"type\":\"sourcemap\",\"code_file\":\"http://x/a.min.js\","
          + "\"debug_id\":\"c941d872-af1f-4f0c-a7ff-ad3d295fe153\"}";

  void rejects(String body, String reason) throws Exception {
    JsonNode node = JSON.readTree(body);
    assertThatThrownBy(() -> shape.parse(node))
        .isInstanceOf(ApiException.class)
        .hasMessage(reason)
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(400));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "[]                                              | the request body must be a JSON object, got array",
        "`\"x\"`                                         | the request body must be a JSON object, got string",
        "{\"stacktraces\":{}}                            | stacktraces: must be an array, got object",
        "{\"stacktraces\":[3]}                           | stacktraces[0]: must be an object, got number",
        "{\"stacktraces\":[{\"frames\":\"no\"}]}         | stacktraces[0].frames: must be an array, got string",
        "{\"stacktraces\":[{\"frames\":[{\"lineno\":1}]}]} | stacktraces[0].frames[0].abs_path: is required",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":7,\"lineno\":1}]}]} | stacktraces[0].frames[0].abs_path: must be a string, got number",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\"}]}]} | stacktraces[0].frames[0].lineno: is required",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":-1}]}]} | stacktraces[0].frames[0].lineno: must be a non-negative integer, got -1",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":1.5}]}]} | stacktraces[0].frames[0].lineno: must be a non-negative integer, got 1.5",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":\"3\"}]}]} | stacktraces[0].frames[0].lineno: must be a non-negative integer, got string",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":1099511627776}]}]} | stacktraces[0].frames[0].lineno: is too large: 1099511627776 (at most 2147483647)",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":1,\"colno\":-5}]}]} | stacktraces[0].frames[0].colno: must be a non-negative integer, got -5",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":1,\"function\":[]}]}]} | stacktraces[0].frames[0].function: must be a string, got array",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":1,\"pre_context\":[1]}]}]} | stacktraces[0].frames[0].pre_context[0]: must be a string, got number",
        "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\"a\",\"lineno\":1,\"in_app\":\"yes\"}]}]} | stacktraces[0].frames[0].in_app: must be true or false, got string",
        "{\"modules\":[{\"type\":\"proguard\",\"code_file\":\"a\",\"debug_id\":\"c941d872-af1f-4f0c-a7ff-ad3d295fe153\"}]} | modules[0].type: must be \"sourcemap\", got \"proguard\"",
        "{\"modules\":[{\"type\":\"sourcemap\",\"debug_id\":\"c941d872-af1f-4f0c-a7ff-ad3d295fe153\"}]} | modules[0].code_file: is required",
        "{\"modules\":[{\"type\":\"sourcemap\",\"code_file\":\"a\"}]} | modules[0].debug_id: is required",
        "{\"modules\":[{\"type\":\"sourcemap\",\"code_file\":\"a\",\"debug_id\":\"nope\"}]} | modules[0].debug_id: not a debug id (a UUID): \"nope\"",
        "{\"modules\":[{\"type\":\"sourcemap\",\"code_file\":\"a\",\"debug_id\":\"../../etc/passwd\"}]} | modules[0].debug_id: not a debug id (a UUID): \"../../etc/passwd\"",
        "{\"release\":5} | release: must be a string, got number",
        "{\"scraping\":{\"enabled\":\"no\"}} | scraping.enabled: must be true or false, got string",
        "{\"options\":[]} | options: must be an object, got array",
      })
  void badBodiesAreRejectedWithTheirReason(String body, String reason) throws Exception {
    rejects(body, reason);
  }

  @Test
  void tooManyFramesAreRejectedBeforeReadingThem() throws Exception {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode traces = body.putArray("stacktraces");
    JsonNode frame = JSON.readTree(FRAME);
    // two traces under the limit each, over it together
    for (int t = 0; t < 2; t++) {
      ArrayNode frames = traces.addObject().putArray("frames");
      for (int i = 0; i < MAX_FRAMES / 2 + 1; i++) {
        frames.add(frame);
      }
    }
    assertThatThrownBy(() -> shape.parse(body))
        .isInstanceOf(ApiException.class)
        .hasMessage("stacktraces: more than 20000 frames in total")
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));

    ArrayNode one = JSON.createArrayNode();
    for (int i = 0; i < 11; i++) {
      one.add(frame);
    }
    ObjectNode small = JSON.createObjectNode();
    small.putArray("stacktraces").addObject().set("frames", one);
    assertThatThrownBy(
            () -> new JsApiHandler(DetachedSymbolication.withMaxFrames(10), 10).parse(small))
        .isInstanceOf(ApiException.class)
        .hasMessage("stacktraces[0].frames: has 11 entries, at most 10 are allowed")
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));
  }

  @Test
  void tooManyModulesAreRejected() throws Exception {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode modules = body.putArray("modules");
    for (int i = 0; i < 3; i++) {
      modules.add(JSON.readTree(MODULE));
    }
    assertThatThrownBy(
            () -> new JsApiHandler(DetachedSymbolication.withMaxFrames(10), 2).parse(body))
        .isInstanceOf(ApiException.class)
        .hasMessage("modules: has 3 entries, at most 2 are allowed")
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));
  }

  @Test
  void longValuesAreClippedInReasons() throws Exception {
    String id = "x".repeat(10_000);
    assertThatThrownBy(
            () ->
                shape.parse(
                    JSON.readTree(
                        "{\"modules\":[{\"type\":\"sourcemap\",\"code_file\":\"a\",\"debug_id\":\""
                            + id
                            + "\"}]}")))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200).endsWith("...\""));
  }

  @Test
  void acceptedButIgnoredFieldsAndAsyncPrefix() throws Exception {
    JsRequest r =
        shape.parse(
            JSON.readTree(
                """
        {"source":{"type":"sentry","id":"x","url":"http://127.0.0.1/","token":"t"},
         "platform":"javascript","dist":null,"release":"r1",
         "scraping":{"enabled":false,"allowed_origins":["*"],"headers":{"a":"b"}},
         "stacktraces":[{"frames":[{"abs_path":"async http://x/a.min.js","lineno":0,
            "data":{"sourcemap":"whatever"},"token_name":"t"}]}],
         "modules":[%s]}"""
                    .formatted(MODULE)));
    assertThat(r.release()).isEqualTo("r1");
    assertThat(r.dist()).isNull();
    assertThat(r.scrapingEnabled()).isFalse();
    assertThat(r.applySourceContext()).isTrue();
    assertThat(r.stacktraces().get(0).frames().get(0).absPath()).isEqualTo("http://x/a.min.js");
    assertThat(r.stacktraces().get(0).frames().get(0).lineno()).isZero();
  }
}

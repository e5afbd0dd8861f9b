package io.symbolicate.api.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The cases of {@code ../shared/fixtures/jvm} as {@code /symbolicate-jvm} requests, shared by the
 * shape test and the server test.
 */
public final class JvmCases {
  public static final ObjectMapper JSON = new ObjectMapper();
  public static final Path JVM = SharedFixtures.fixtures("jvm");

  /** The mapping UUID every request built here names. */
  public static final String UUID_A = "5b46fdc0-0000-4000-8000-000000000001";

  private JvmCases() {}

  public static JsonNode cases() throws IOException {
    return JSON.readTree(JVM.resolve("cases.json").toFile()).get("cases");
  }

  public static JsonNode caseById(String id) throws IOException {
    for (JsonNode c : cases()) {
      if (c.get("id").asText().equals(id)) {
        return c;
      }
    }
    throw new AssertionError("no case " + id);
  }

  /** A Sentry request with one stack trace, an optional exception, and the mapping {@link #UUID_A}. */
  public static ObjectNode request(JsonNode exception, JsonNode frames) {
    ObjectNode req = JSON.createObjectNode();
    req.putArray("sources")
        .addObject()
        .put("type", "sentry")
        .put("id", "sentry:project")
        .put("url", "http://127.0.0.1:1/");
    if (exception != null) {
      req.putArray("exceptions").add(exception);
    }
    req.putArray("stacktraces").addObject().set("frames", frames);
    req.putArray("modules").addObject().put("type", "proguard").put("uuid", UUID_A);
    req.putObject("options").put("apply_source_context", true);
    return req;
  }

  /** The response without our per-frame {@code status} and Symbolicator's {@code status: completed}. */
  public static ObjectNode withoutStatus(JsonNode response) {
    ObjectNode r = response.deepCopy();
    assertThat(r.remove("status").asText()).isEqualTo("completed");
    r.get("stacktraces")
        .forEach(t -> t.get("frames").forEach(f -> ((ObjectNode) f).remove("status")));
    return r;
  }
}

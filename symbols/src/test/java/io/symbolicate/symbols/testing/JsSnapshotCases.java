package io.symbolicate.symbols.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The symbolicator cases of {@code ../shared/fixtures/js} as {@code /symbolicate-js} requests and
 * the frames Symbolicator's snapshots expect, shared by the shape test and the server test.
 */
public final class JsSnapshotCases {
  public static final ObjectMapper JSON = new ObjectMapper();
  public static final Path JS = SharedFixtures.fixtures("js");

  private JsSnapshotCases() {}

  /** One symbolicator case: its snapshot, its maps and minified files, and the module URLs. */
  public record Case(
      String id,
      JsonNode snapshot,
      List<Path> maps,
      List<Path> minified,
      List<String> urls,
      JsonNode lookups) {
    public String debugId(int i) {
      return UUID.nameUUIDFromBytes((id + i).getBytes(StandardCharsets.UTF_8)).toString();
    }

    @Override
    public String toString() {
      return id;
    }
  }

  public static Stream<Case> symbolicatorCases() throws IOException {
    List<Case> out = new ArrayList<>();
    for (JsonNode c : JSON.readTree(JS.resolve("cases.json").toFile()).get("cases")) {
      if (!c.path("peer").path("repo").asText().equals("getsentry/symbolicator")
          || !c.has("expected_output")) {
        continue;
      }
      List<Path> maps = paths(c.get("sourcemap"));
      List<Path> minified = paths(c.get("minified"));
      JsonNode snap = Snapshots.read(JS.resolve(c.get("expected_output").asText()));
      // the module URL of each minified file is the abs_path of the raw frames naming it
      List<String> urls = new ArrayList<>();
      for (Path m : minified) {
        String name = m.getFileName().toString();
        String url = null;
        for (JsonNode f : snap.get("raw_stacktraces").get(0).get("frames")) {
          if (f.path("abs_path").asText().endsWith("/" + name)) {
            url = f.get("abs_path").asText();
          }
        }
        assertThat(url).as("a raw frame of %s names %s", c.get("id"), name).isNotNull();
        urls.add(url);
      }
      out.add(new Case(c.get("id").asText(), snap, maps, minified, urls, c.get("lookups")));
    }
    assertThat(out).hasSize(3);
    return out.stream();
  }

  public static Case caseById(String id) throws IOException {
    return symbolicatorCases().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
  }

  static List<Path> paths(JsonNode n) {
    List<Path> out = new ArrayList<>();
    if (n.isArray()) {
      n.forEach(p -> out.add(JS.resolve(p.asText())));
    } else {
      out.add(JS.resolve(n.asText()));
    }
    return out;
  }

  /** The request Sentry would send: the snapshot's raw frames as they were before Symbolicator added context. */
  public static ObjectNode request(Case c) {
    ObjectNode req = JSON.createObjectNode();
    req.putObject("source")
        .put("type", "sentry")
        .put("id", "sentry:project")
        .put("url", "http://127.0.0.1:1/");
    ArrayNode traces = req.putArray("stacktraces");
    for (JsonNode t : c.snapshot().get("raw_stacktraces")) {
      ArrayNode frames = traces.addObject().putArray("frames");
      for (JsonNode f : t.get("frames")) {
        ObjectNode in = ((ObjectNode) f.deepCopy());
        in.remove(List.of("pre_context", "context_line", "post_context", "data"));
        // the case's async-prefixed abs_path (Symbolicator strips "async " before anything else)
        for (JsonNode l : c.lookups()) {
          if (l.has("input_abs_path")
              && l.get("line").asInt() == in.path("lineno").asInt()
              && l.get("column").asInt() == in.path("colno").asInt()) {
            in.put("abs_path", l.get("input_abs_path").asText());
          }
        }
        frames.add(in);
      }
    }
    ArrayNode modules = req.putArray("modules");
    for (int i = 0; i < c.urls().size(); i++) {
      modules
          .addObject()
          .put("type", "sourcemap")
          .put("code_file", c.urls().get(i))
          .put("debug_id", c.debugId(i));
    }
    req.put("release", "some-release");
    req.putObject("scraping").put("enabled", false);
    req.putObject("options").put("apply_source_context", true);
    return req;
  }

  public static List<JsonNode> frames(JsonNode response, String field) {
    List<JsonNode> out = new ArrayList<>();
    response.get(field).forEach(t -> t.get("frames").forEach(out::add));
    return out;
  }

  /** The case's maps carry no sourcesContent (Symbolicator read the sources as separate release files). */
  public static boolean noSourcesContent(Case c) throws IOException {
    for (Path m : c.maps()) {
      if (JSON.readTree(m.toFile()).has("sourcesContent")) {
        return false;
      }
    }
    return true;
  }

  /** Symbolicator's frame without the context it read from a separate source file. */
  public static ObjectNode withoutContext(JsonNode frame) {
    ObjectNode f = frame.deepCopy();
    f.remove(List.of("pre_context", "context_line", "post_context"));
    return f;
  }

  /** A frame with {@code data} reduced to {@code symbolicated} and our {@code status} removed. */
  public static ObjectNode comparable(JsonNode frame) {
    ObjectNode f = frame.deepCopy();
    f.remove("status");
    boolean symbolicated = f.path("data").path("symbolicated").asBoolean();
    f.putObject("data").put("symbolicated", symbolicated);
    return f;
  }

  /**
   * Symbolicator's frames (as {@link #comparable}) when the minified file is stored beside the map,
   * so the loader's table has its function scopes: the snapshot's names; no context when the map
   * has no sourcesContent (Symbolicator read the sources as separate release files).
   */
  public static List<ObjectNode> expectedWithMinified(Case c) throws IOException {
    List<ObjectNode> out = new ArrayList<>();
    boolean noContent = noSourcesContent(c);
    for (JsonNode f : frames(c.snapshot(), "stacktraces")) {
      ObjectNode expected = comparable(f);
      out.add(
          noContent && f.get("data").get("symbolicated").asBoolean()
              ? withoutContext(expected)
              : expected);
    }
    return out;
  }

  /**
   * Symbolicator's frames (as {@link #comparable}) when only the map is stored, as the loader
   * converts it: no enclosing scope, so Sentry's fallback function name (the minified name sent,
   * or {@code <unknown>}), and no context when the map has no sourcesContent.
   */
  public static List<ObjectNode> expectedFromMapAlone(Case c) throws IOException {
    List<JsonNode> theirs = frames(c.snapshot(), "stacktraces");
    List<JsonNode> raw = frames(c.snapshot(), "raw_stacktraces");
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < theirs.size(); i++) {
      ObjectNode expected = comparable(theirs.get(i));
      if (theirs.get(i).get("data").get("symbolicated").asBoolean()) {
        expected.put(
            "function",
            raw.get(i).has("function") ? raw.get(i).get("function").asText() : "<unknown>");
        if (noSourcesContent(c)) {
          expected = withoutContext(expected);
        }
      }
      out.add(expected);
    }
    return out;
  }
}

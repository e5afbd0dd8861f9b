package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of {@code ../shared/fixtures/js/cases.json}: tc39 validity verdicts, and lookups of
 * mozilla/source-map, rust-sourcemap, symbolic and symbolicator, through parse, table build,
 * page encoding and the symbolizer. A failing case fails the build.
 */
class JsPeerCasesTest {
  static final Path DIR = SharedFixtures.fixtures("js");

  @TestFactory
  Stream<DynamicTest> peerCases() throws Exception {
    JsonNode root = new ObjectMapper().readTree(DIR.resolve("cases.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : root.get("cases")) {
      tests.add(DynamicTest.dynamicTest(c.get("id").asText(), () -> runCase(c)));
    }
    assertThat(tests).hasSize(81);
    return tests.stream();
  }

  static SourceMap parse(String rel) throws Exception {
    return new SourceMapParser().parse(DIR.resolve(rel));
  }

  static JsSymbolizer symbolizer(String rel) throws Exception {
    return symbolizer(rel, null);
  }

  /** With the minified file, its function scopes are inferred into the table. */
  static JsSymbolizer symbolizer(String rel, String minifiedRel) throws Exception {
    // a small page size so multi-page paths are exercised by the small fixtures too
    return JsSymbolizer.inMemory(
        new JsTableBuilder(7).build(parse(rel), minifiedRel == null ? null : read(minifiedRel)));
  }

  /** The minified file paired with a map in a case (same position in the lists), or null. */
  static String minifiedFor(JsonNode c, String map) {
    JsonNode min = c.get("minified");
    if (min == null || min.isNull()) {
      return null;
    }
    if (!min.isArray()) {
      return min.asText();
    }
    JsonNode sm = c.get("sourcemap");
    for (int i = 0; i < sm.size(); i++) {
      if (sm.get(i).asText().equals(map)) {
        return min.get(i).asText();
      }
    }
    return null;
  }

  private void runCase(JsonNode c) throws Exception {
    JsonNode sm = c.get("sourcemap");
    List<String> maps = new ArrayList<>();
    if (sm.isArray()) {
      sm.forEach(n -> maps.add(n.asText()));
    } else {
      maps.add(sm.asText());
    }
    if (c.has("expect_valid")) {
      for (String m : maps) {
        if (c.get("expect_valid").asBoolean()) {
          SourceMap parsed = parse(m);
          // every segment survives the table round trip
          JsTable t = new JsTableBuilder(7).build(parsed);
          assertThat(JsHeader.decode(t.header()).segments()).isEqualTo(parsed.segmentCount());
        } else {
          assertThatThrownBy(() -> parse(m))
              .isInstanceOf(SourceMapException.class)
              .hasMessageStartingWith("invalid");
        }
      }
    }
    JsonNode inBase = c.get("input_base");
    JsonNode outBase = c.get("output_base");
    if (c.has("lookups_per_map")) {
      Iterator<Map.Entry<String, JsonNode>> it = c.get("lookups_per_map").fields();
      while (it.hasNext()) {
        var e = it.next();
        JsSymbolizer s = symbolizer(e.getKey(), minifiedFor(c, e.getKey()));
        for (JsonNode l : e.getValue()) {
          check(c, s, l, inBase, outBase);
        }
      }
    }
    for (JsonNode l : c.get("lookups")) {
      String map = l.has("map") ? l.get("map").asText() : maps.get(0);
      check(c, symbolizer(map, minifiedFor(c, map)), l, inBase, outBase);
    }
  }

  private void check(JsonNode c, JsSymbolizer s, JsonNode l, JsonNode inBase, JsonNode outBase)
      throws Exception {
    int line = l.get("line").asInt() - inBase.get("line").asInt();
    int col = l.get("column").asInt() - inBase.get("column").asInt();
    String what = c.get("id").asText() + " @" + l.get("line") + ":" + l.get("column");
    JsSymbolizer.Bias bias =
        l.has("bias")
            ? JsSymbolizer.Bias.valueOf(l.get("bias").asText())
            : JsSymbolizer.Bias.GREATEST_LOWER_BOUND;
    boolean peerSpecific = l.path("peer_specific").asBoolean(false);
    JsLocation loc = s.lookup(line, col, new JsSymbolizer.Options(bias, peerSpecific));
    JsFunctionName fn = s.functionName(line, col, loc);
    if (peerSpecific) {
      // our default (spec/mozilla) differs: no mapping on a line without segments
      assertThat(s.lookup(line, col)).as(what + " default (no fallback)").isNull();
    }
    if (l.has("through_maps")) {
      for (JsonNode m : l.get("through_maps")) {
        assertThat(loc).as(what).isNotNull();
        loc = symbolizer(m.asText()).lookup(loc.line(), loc.column());
      }
    }
    JsonNode e = l.get("expect");
    if (e.isNull()) {
      assertThat(loc == null || !loc.mapped())
          .as(what + " expects no mapping, got " + loc)
          .isTrue();
      return;
    }
    assertThat(loc).as(what).isNotNull();
    int lb = outBase.get("line").asInt();
    int cb = outBase.get("column").asInt();
    if (e.has("source")) {
      assertThat(loc.source())
          .as(what + " source")
          .isEqualTo(e.get("source").isNull() ? null : e.get("source").asText());
    }
    if (e.has("abs_path")) {
      String minUrl = c.has("minified_url") ? c.get("minified_url").asText() : null;
      assertThat(SourceUrls.resolve(minUrl, loc.source()))
          .as(what + " abs_path")
          .isEqualTo(e.get("abs_path").asText());
    }
    if (e.has("original_line")) {
      assertThat(loc.line() + lb).as(what + " line").isEqualTo(e.get("original_line").asInt());
    }
    if (e.has("original_column")) {
      assertThat(loc.column() + cb)
          .as(what + " column")
          .isEqualTo(e.get("original_column").asInt());
    }
    if (e.has("name")) {
      assertThat(loc.name())
          .as(what + " name")
          .isEqualTo(e.get("name").isNull() ? null : e.get("name").asText());
    }
    if (e.has("line_contents")) {
      String expected = e.get("line_contents").asText();
      // the peer keeps the line terminator; our stored lines are split on it
      assertThat(s.sourceLine(loc.sourceIndex(), loc.line()) + "\n")
          .as(what + " line_contents")
          .isEqualTo(expected);
    }
    // the enclosing function's original name (minified-source scopes, or Metro function maps)
    if (e.has("scope")) {
      assertThat(fn.name()).as(what + " scope (" + fn + ")").isEqualTo(e.get("scope").asText());
      assertThat(fn.nameSource()).as(what).isIn("scope", "function_map");
    }
    if (e.has("function")) {
      assertThat(fn.name())
          .as(what + " function (" + fn + ")")
          .isEqualTo(e.get("function").asText());
      assertThat(fn.nameSource()).as(what).isEqualTo("scope");
    }
    if (e.has("scope_kind")) {
      assertThat(fn.scopeKind())
          .as(what + " scope_kind (" + fn + ")")
          .isEqualTo(MinifiedScopes.ScopeKind.valueOf(e.get("scope_kind").asText().toUpperCase()));
    }
  }

  static String read(String rel) throws Exception {
    return Files.readString(DIR.resolve(rel));
  }

  static void unused() {
    fail("");
  }
}

package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Table round trip against a brute-force scan, and context lines against Sentry snapshots. */
class JsTableAndContextTest {

  /** Every segment of a real 392 KB webpack map, looked up through tables of several page sizes. */
  @Test
  void everySegmentRoundTripsThroughTheTable() throws Exception {
    SourceMap m = JsPeerCasesTest.parse("getsentry-js-source-scopes/vendors/vendors.js.map");
    Mappings mp = m.mappings();
    assertThat(mp.size()).isGreaterThan(10_000);
    for (int pageSize : new int[] {1, 13, 4096}) {
      JsTable table = new JsTableBuilder(pageSize).build(m);
      // real maps fit the bit-packed rows
      MappingPage first = (MappingPage) JsPage.decode(table.pages().get(0).bytes());
      assertThat(first.packedSegments()).isTrue();
      assertThat(first.sparseLineIndex()).isFalse();
      JsSymbolizer s = JsSymbolizer.inMemory(table);
      for (int i = 0; i < mp.size(); i++) {
        // the last of equal generated positions wins (as mozilla/source-map does)
        int last = i;
        while (last + 1 < mp.size()
            && mp.genLine(last + 1) == mp.genLine(i)
            && mp.genCol(last + 1) == mp.genCol(i)) {
          last++;
        }
        JsLocation loc = s.lookup(mp.genLine(i), mp.genCol(i));
        expectSegment(m, mp, last, loc);
        // a column inside the segment's range maps to the same segment
        if (last + 1 < mp.size()
            && mp.genLine(last + 1) == mp.genLine(i)
            && mp.genCol(last + 1) > mp.genCol(i) + 1) {
          expectSegment(m, mp, last, s.lookup(mp.genLine(i), mp.genCol(i) + 1));
        }
        // LEAST_UPPER_BOUND just before a segment finds it (the first of equals)
        if (mp.genCol(i) > 0
            && (i == 0
                || mp.genLine(i - 1) != mp.genLine(i)
                || mp.genCol(i - 1) < mp.genCol(i) - 1)) {
          JsLocation lub =
              s.lookup(
                  mp.genLine(i),
                  mp.genCol(i) - 1,
                  new JsSymbolizer.Options(JsSymbolizer.Bias.LEAST_UPPER_BOUND, false));
          expectSegment(m, mp, i, lub);
        }
        i = last;
      }
      // before the first segment of a line there is no mapping (no fallback by default)
      if (mp.genCol(0) > 0) {
        assertThat(s.lookup(mp.genLine(0), 0)).isNull();
      }
      assertThat(s.lookup(mp.genLine(mp.size() - 1) + 1, 0)).isNull();
    }
  }

  private static void expectSegment(SourceMap m, Mappings mp, int i, JsLocation loc) {
    assertThat(loc).as("segment %d", i).isNotNull();
    assertThat(loc.generatedLine()).isEqualTo(mp.genLine(i));
    assertThat(loc.generatedColumn()).isEqualTo(mp.genCol(i));
    if (mp.source(i) < 0) {
      assertThat(loc.mapped()).isFalse();
      return;
    }
    assertThat(loc.source()).isEqualTo(m.sources().get(mp.source(i)));
    assertThat(loc.line()).isEqualTo(mp.origLine(i));
    assertThat(loc.column()).isEqualTo(mp.origCol(i));
    assertThat(loc.name()).isEqualTo(mp.name(i) < 0 ? null : m.names().get(mp.name(i)));
  }

  /** A symbolicated frame from a Sentry insta snapshot: position and context lines. */
  record SnapFrame(int lineno, int colno, List<String> pre, String line, List<String> post) {}

  /** Reads the symbolicated frames of a snapshot (just the YAML subset those files use). */
  static List<SnapFrame> snapshotFrames(String rel) throws Exception {
    List<String> lines = Files.readAllLines(JsPeerCasesTest.DIR.resolve(rel));
    List<SnapFrame> out = new ArrayList<>();
    Map<String, Object> f = null;
    String list = null;
    ObjectMapper json = new ObjectMapper();
    for (String raw : lines) {
      if (raw.startsWith("raw_stacktraces:")) {
        break;
      }
      String t = raw.trim();
      if (t.startsWith("- function:") || t.startsWith("- filename:")) {
        add(out, f);
        f = new HashMap<>();
        list = null;
        continue;
      }
      if (f == null) {
        continue;
      }
      if (t.startsWith("- ") && list != null) {
        @SuppressWarnings("unchecked")
        List<String> l = (List<String>) f.get(list);
        l.add(scalar(json, t.substring(2)));
        continue;
      }
      int colon = t.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String key = t.substring(0, colon);
      String value = t.substring(colon + 1).trim();
      list = null;
      if (key.equals("pre_context") || key.equals("post_context")) {
        f.put(key, new ArrayList<String>());
        list = key;
      } else {
        f.put(key, scalar(json, value));
      }
    }
    add(out, f);
    return out;
  }

  @SuppressWarnings("unchecked")
  private static void add(List<SnapFrame> out, Map<String, Object> f) {
    if (f != null && f.containsKey("context_line") && f.containsKey("lineno")) {
      out.add(
          new SnapFrame(
              Integer.parseInt((String) f.get("lineno")),
              Integer.parseInt((String) f.get("colno")),
              (List<String>) f.getOrDefault("pre_context", List.of()),
              (String) f.get("context_line"),
              (List<String>) f.getOrDefault("post_context", List.of())));
    }
  }

  private static String scalar(ObjectMapper json, String v) {
    try {
      return v.startsWith("\"") ? json.readValue(v, String.class) : v;
    } catch (Exception e) {
      throw new IllegalStateException(v, e);
    }
  }

  @Test
  void contextLinesMatchSymbolicatorSnapshots() throws Exception {
    JsonNode root = new ObjectMapper().readTree(JsPeerCasesTest.DIR.resolve("cases.json").toFile());
    int checked = 0;
    for (JsonNode c : root.get("cases")) {
      String id = c.get("id").asText();
      // (case 02's context comes from a separately uploaded file1.js that is not in the corpus)
      if (!id.equals("symbolicator-sourcemap-expansion")) {
        continue;
      }
      List<SnapFrame> frames = snapshotFrames(c.get("expected_output").asText());
      JsSymbolizer s = JsPeerCasesTest.symbolizer(c.get("sourcemap").asText());
      for (JsonNode l : c.get("lookups")) {
        JsLocation loc = s.lookup(l.get("line").asInt() - 1, l.get("column").asInt() - 1);
        SnapFrame want =
            frames.stream()
                .filter(fr -> fr.lineno() == loc.line() + 1 && fr.colno() == loc.column() + 1)
                .findFirst()
                .orElseThrow();
        JsContext ctx = s.context(loc);
        assertThat(ctx.preContext()).isEqualTo(want.pre());
        assertThat(ctx.contextLine()).isEqualTo(want.line());
        assertThat(ctx.postContext()).isEqualTo(want.post());
        checked++;
      }
    }
    assertThat(checked).isEqualTo(3);
  }

  @Test
  void longLinesAreTrimmedAsSentryDoes() throws Exception {
    // the raw (minified) frame of snapshot 02: file.min.js line 1, colno 39
    String min =
        JsPeerCasesTest.read("getsentry-symbolicator/02_sourcemap_source_expansion/file.min.js");
    String line1 = min.split("\n")[0];
    assertThat(JsSymbolizer.trim(line1, 38))
        .isEqualTo(
            "function add(a,b){\"use strict\";return a+b}function multiply(a,b){\"use strict\";return a*b}"
                + "function divide(a,b){\"use strict\";try{return multip {snip}");
    String longLine = "x".repeat(100) + "y".repeat(100);
    String t = JsSymbolizer.trim(longLine, 100);
    assertThat(t).startsWith("{snip} ").endsWith(" {snip}").contains("xy");
    assertThat(JsSymbolizer.trim(longLine, 199))
        .startsWith("{snip} ")
        .doesNotContain(" {snip}")
        .hasSize(140 + 7);
  }

  @Test
  void manySourcesAreDeduplicatedAndGetTheirFunctionMaps() throws Exception {
    // 200,000 null sources between two equal ones (one table source), then b.js with a function
    // map: finding each table source's first map source scanned all sources per table source
    int nulls = 200_000;
    String many = String.join(",", Collections.nCopies(nulls, "null"));
    String json =
        "{\"version\":3,\"sources\":[\"a.js\","
            + many
            + ",\"a.js\",\"b.js\"],"
            + "\"x_facebook_sources\":["
            + many
            + ",null,null,[{\"names\":[\"<global>\",\"inB\"],\"mappings\":\"AAA,KC\"}]],"
            // (0,0) -> b.js 0:5 (map source 200,002), (0,10) -> the second a.js 0:0 (map source
            // 200,001)
            + "\"mappings\":\"Ak0mMAK,UDAL\"}";
    SourceMap m = new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8));
    JsSymbolizer s = JsSymbolizer.inMemory(new JsTableBuilder().build(m));
    assertThat(s.header().sources()).isEqualTo(nulls + 2);
    JsLocation b = s.lookup(0, 0);
    assertThat(b.source()).isEqualTo("b.js");
    assertThat(b.sourceIndex()).isEqualTo(nulls + 1);
    assertThat(s.functionName(0, 0, b))
        .isEqualTo(new JsFunctionName("inB", "function_map", MinifiedScopes.ScopeKind.NAMED));
    JsLocation a = s.lookup(0, 10);
    assertThat(a.source()).isEqualTo("a.js");
    assertThat(a.sourceIndex()).isZero();
  }
}

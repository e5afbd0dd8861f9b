package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.io.DebugFileInput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class SourceMapParserTest {
  static final String INDEX =
      "{\"version\":3,\"debugId\":\"85314830-023f-4cf1-a267-535f4e37bb17\",\"sections\":["
          + "{\"offset\":{\"line\":0,\"column\":0},\"map\":{\"version\":3,\"sources\":[\"a.js\",\"lib.js\"],"
          + "\"ignoreList\":[1],\"names\":[\"f\"],\"mappings\":\"AAAAA,ECAA\"}},"
          + "{\"offset\":{\"line\":1,\"column\":10},\"map\":{\"version\":3,\"sources\":[\"b.js\"],"
          + "\"x_google_ignoreList\":[0],\"names\":[\"g\"],\"mappings\":\"AAAAA;AACA\"}}]}";

  @Test
  void sourcesContentIsTheSameFromMemoryAndFromAStream() throws Exception {
    // every JSON escape, ASCII and non-ASCII \\u escapes, a surrogate pair, raw UTF-8, empty and
    // null
    String[] contents = {
      "line 1\\nline 2\\r\\n\\ttab \\\"quoted\\\" back\\\\slash sl\\/ash \\b\\f",
      "\\u0041\\u007e \\u00e9 \\ud83d\\ude00 caf\u00e9 \u65e5\u672c \ud83d\ude00",
      "",
      "x".repeat(70_000)
    };
    StringBuilder json =
        new StringBuilder(
            "{\"version\":3,\"sources\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"sourcesContent\":[");
    for (String c : contents) {
      json.append('"').append(c).append("\",");
    }
    json.append("null],\"mappings\":\"AAAA\"}");
    byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
    SourceMap fromMemory = new SourceMapParser().parse(bytes);
    SourceMap fromStream = new SourceMapParser().parse(new ByteArrayInputStream(bytes));
    assertThat(fromMemory.sourcesContent()).isEqualTo(fromStream.sourcesContent());
    assertThat(fromMemory.sourcesContent().get(0))
        .isEqualTo("line 1\nline 2\r\n\ttab \"quoted\" back\\slash sl/ash \b\f");
    assertThat(fromMemory.sourcesContent().get(1))
        .isEqualTo("A~ \u00e9 \ud83d\ude00 caf\u00e9 \u65e5\u672c \ud83d\ude00");
    assertThat(fromMemory.sourcesContent().get(3)).hasSize(70_000);
    assertThat(fromMemory.sourcesContent().get(4)).isNull();
  }

  @Test
  void sourcesContentFromMemoryIsDecodedOnlyWhenUsedAndPaddedToTheSources() throws Exception {
    // more sources than contents (padded with null), an XSSI prefix shifting every offset, and
    // escapes right after the quote and at the very end
    String json =
        ")]}'\n{\"version\":3,\"sources\":[\"a\",\"b\",\"c\"],"
            + "\"sourcesContent\":[\"\\\"q\\\"\", \"plain caf\u00e9\" ],\"mappings\":\"AAAA\"}";
    SourceMap m = new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8));
    assertThat(m.sourcesContent())
        .isInstanceOf(RawJsonStrings.class)
        .containsExactly("\"q\"", "plain caf\u00e9", null);
    // a content string over the parser's cap is refused when it is decoded, as parsing refused it
    SourceMapParser capped = new SourceMapParser(null, 8, DebugFileInput.DEFAULT_MAX_BYTES);
    SourceMap big =
        capped.parse(
            ("{\"version\":3,\"sources\":[\"a\",\"b\"],\"sourcesContent\":"
                    + "[\"0123456789\",\"ok\"],\"mappings\":\"AAAA\"}")
                .getBytes(StandardCharsets.UTF_8));
    assertThat(big.sourcesContent().get(1)).isEqualTo("ok");
    Assertions.assertThatThrownBy(() -> big.sourcesContent().get(0))
        .hasMessageContaining("sourcesContent entry 0");
  }

  @Test
  void denseMappingsGrowPastTheInitialCapacityEstimate() throws Exception {
    // 1-field segments take 2 bytes each, under the 5 bytes a segment the arrays are sized for
    int n = 50_000;
    StringBuilder mappings = new StringBuilder("AAAA");
    for (int i = 1; i < n; i++) {
      mappings.append(i % 1000 == 0 ? ";C" : ",C"); // +1 column each, a new line now and then
    }
    String json = "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"" + mappings + "\"}";
    SourceMap m = new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8));
    SourceMap fromStream =
        new SourceMapParser()
            .parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    assertThat(m.segmentCount()).isEqualTo(n).isEqualTo(fromStream.segmentCount());
    Mappings mm = m.mappings();
    // the last line (49) starts at segment 49,000 with column 1; its 1,000th segment is at 1000
    assertThat(mm.genLine(n - 1)).isEqualTo(49);
    assertThat(mm.genCol(n - 1)).isEqualTo(1000);
    assertThat(mm.genLine(999)).isZero();
    assertThat(mm.genCol(999)).isEqualTo(999);
    assertThat(mm.source(0)).isZero();
    assertThat(mm.source(n - 1)).isEqualTo(-1);
  }

  @Test
  void indexMapsAreFlattenedWithOffsetsOnTheFirstLineOnly() throws Exception {
    SourceMap m = new SourceMapParser().parse(INDEX.getBytes(StandardCharsets.UTF_8));
    assertThat(m.debugId()).isEqualTo("85314830-023f-4cf1-a267-535f4e37bb17");
    assertThat(m.sources()).containsExactly("a.js", "lib.js", "b.js");
    assertThat(m.ignored().stream().toArray()).containsExactly(1, 2);
    JsSymbolizer s = JsSymbolizer.inMemory(new JsTableBuilder().build(m));
    assertThat(s.lookup(0, 2))
        .extracting(JsLocation::source, JsLocation::name, JsLocation::ignored)
        .containsExactly("lib.js", null, true);
    // second section: column offset 10 applies to its first line only
    assertThat(s.lookup(1, 9)).isNull();
    assertThat(s.lookup(1, 10))
        .extracting(JsLocation::source, JsLocation::line, JsLocation::name)
        .containsExactly("b.js", 0, "g");
    assertThat(s.lookup(2, 0))
        .extracting(JsLocation::source, JsLocation::line)
        .containsExactly("b.js", 1);
    assertThat(s.header().debugId()).isEqualTo("85314830-023f-4cf1-a267-535f4e37bb17");
  }

  @Test
  void xssiPrefixGzipAndMapUrlResolution() throws Exception {
    String map =
        ")]}'\n{\"version\":3,\"sourceRoot\":\"/the/root\",\"sources\":[\"one.js\",null],"
            + "\"mappings\":\"AAAA,CCAA\"}";
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream o = new GZIPOutputStream(gz)) {
      o.write(map.getBytes(StandardCharsets.UTF_8));
    }
    SourceMapParser p =
        new SourceMapParser(
            "https://example.com/static/app.js.map",
            SourceMapParser.DEFAULT_MAX_STRING,
            DebugFileInput.DEFAULT_MAX_BYTES);
    SourceMap fromStream = p.parse(new ByteArrayInputStream(gz.toByteArray()));
    SourceMap fromBytes = p.parse(map.getBytes(StandardCharsets.UTF_8));
    for (SourceMap m : new SourceMap[] {fromStream, fromBytes}) {
      assertThat(m.sources()).containsExactly("https://example.com/the/root/one.js", null);
      assertThat(m.rawSources()).containsExactly("one.js", null);
      assertThat(m.segmentCount()).isEqualTo(2);
    }
    // a null source maps, but to no URL
    JsLocation loc = JsSymbolizer.inMemory(new JsTableBuilder().build(fromBytes)).lookup(0, 1);
    assertThat(loc.mapped()).isTrue();
    assertThat(loc.source()).isNull();
  }

  @Test
  void extremeValuesSurviveTheTableInWideRows() throws Exception {
    // 2^31 - 1 original line and column plus two sources and a name need more than 64 bits per
    // row, so the page falls back from packed longs to five ints per segment
    SourceMap m =
        new SourceMapParser()
            .parse(
                ("{\"version\":3,\"sources\":[\"a.js\",\"b.js\"],"
                        + "\"names\":[\"x\"],\"mappings\":\"AAAAA,CC+/////D+/////DA\"}")
                    .getBytes(StandardCharsets.UTF_8));
    JsTable t = new JsTableBuilder().build(m);
    MappingPage page = (MappingPage) JsPage.decode(t.pages().get(0).bytes());
    assertThat(page.packedSegments()).isFalse();
    JsSymbolizer s = JsSymbolizer.inMemory(t);
    assertThat(s.lookup(0, 0))
        .extracting(JsLocation::source, JsLocation::line, JsLocation::column, JsLocation::name)
        .containsExactly("a.js", 0, 0, "x");
    assertThat(s.lookup(0, 5))
        .extracting(JsLocation::source, JsLocation::line, JsLocation::column, JsLocation::name)
        .containsExactly("b.js", Integer.MAX_VALUE, Integer.MAX_VALUE, "x");
  }

  @Test
  void mappingsWithEscapesDecodeThroughTheCharPath() throws Exception {
    // "\u0041" is 'A': the raw-bytes fast path must fall back to the parser's text
    SourceMap m =
        new SourceMapParser()
            .parse(
                "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"\\u0041AAA,CAAC\"}"
                    .getBytes(StandardCharsets.UTF_8));
    assertThat(m.segmentCount()).isEqualTo(2);
    assertThat(m.mappings().genCol(1)).isEqualTo(1);
    assertThat(m.mappings().origCol(1)).isEqualTo(1);
  }

  @Test
  void segmentsOfALineAreSortedStablyByColumn() throws Exception {
    // columns 5, 0, 5, 4 with original lines 0..3: equal columns keep their order (the last wins)
    String json =
        "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"KAAA,LACA,KACA,DACA;AACA\"}";
    for (SourceMap m :
        new SourceMap[] {
          new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8)),
          new SourceMapParser()
              .parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)))
        }) {
      Mappings mm = m.mappings();
      assertThat(mm.size()).isEqualTo(5);
      int[][] got = new int[5][];
      for (int i = 0; i < 5; i++) {
        got[i] = new int[] {mm.genLine(i), mm.genCol(i), mm.origLine(i)};
      }
      assertThat(got)
          .isDeepEqualTo(new int[][] {{0, 0, 1}, {0, 4, 3}, {0, 5, 0}, {0, 5, 2}, {1, 0, 4}});
    }
  }

  @Test
  void nonAsciiInMappingsFromAStreamIsAnInvalidDigit() {
    byte[] json =
        "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AAAA,C\u00e9AC\"}"
            .getBytes(StandardCharsets.UTF_8);
    Assertions.assertThatThrownBy(() -> new SourceMapParser().parse(new ByteArrayInputStream(json)))
        .isInstanceOf(SourceMapException.class)
        .hasMessageContaining("invalid character '\\xff' at offset 6");
  }
}

package io.symbolicate.symbols.js;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the sourcemap side (docs/fuzzing.md). In every build each replays its corpus
 * under {@code src/test/resources/.../JsFuzzTestsInputs/<target>/}; {@code scripts/fuzz.sh} runs
 * one coverage-guided.
 */
class JsFuzzTests {
  /** Segments per mapping page: small, so a few-KB map is cut into several pages. */
  private static final int SEGMENTS_PER_PAGE = 4;

  /** Lookups per input: at the first segments' positions and around them. */
  private static final int PROBES = 16;

  /**
   * A map (plain, gzip or XSSI-prefixed JSON) through both parser entry points: a map or
   * {@link SourceMapException}, the same verdict from both. A map must build a table whose
   * lookups, function names and context lines answer without throwing.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "\"version\":3",
    "\"sources\":",
    "\"names\":",
    "\"mappings\":",
    "\"sourcesContent\":",
    "\"sourceRoot\":",
    "\"sections\":",
    "\"offset\":{\"line\":0,\"column\":0}",
    "\"map\":",
    "\"ignoreList\":",
    "\"x_google_ignoreList\":",
    "\"x_facebook_sources\":",
    "\"debugId\":",
    "\"file\":",
    ")]}'"
  })
  void sourceMap(byte[] data) throws Exception {
    boolean[] streamOk = new boolean[1];
    expect(
        data,
        () -> {
          SourceMap map =
              SourceMapParser.forHeap(null, 1 << 20).parse(new ByteArrayInputStream(data));
          streamOk[0] = true;
          exercise(map);
        },
        SourceMapException.class,
        DebugFileInput.CorruptInputException.class,
        DebugFileInput.TooLargeException.class);
    boolean gzip = data.length >= 2 && (data[0] & 0xFF) == 0x1F && (data[1] & 0xFF) == 0x8B;
    if (!gzip) {
      boolean[] bytesOk = new boolean[1];
      expect(
          data,
          () -> {
            new SourceMapParser().parse(data);
            bytesOk[0] = true;
          },
          SourceMapException.class);
      check(
          bytesOk[0] == streamOk[0],
          "the byte[] and stream parsers disagree on whether the map is valid");
    }
  }

  /** A parsed map's table answers every lookup. */
  private static void exercise(SourceMap map) {
    JsTable table = new JsTableBuilder(SEGMENTS_PER_PAGE).build(map);
    JsHeader header = JsHeader.decode(table.header());
    check(
        header.segments() == map.segmentCount(), "table header counts other segments than the map");
    JsSymbolizer s = JsSymbolizer.inMemory(table);
    Mappings m = map.mappings();
    for (int i = 0; i < Math.min(PROBES, m.size()); i++) {
      probe(s, m.genLine(i), m.genCol(i));
      probe(s, m.genLine(i), m.genCol(i) + 1);
    }
    probe(s, 0, 0);
    probe(s, Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  private static void probe(JsSymbolizer s, int line, int column) {
    JsLocation loc = s.lookup(line, column);
    for (JsSymbolizer.Bias bias : JsSymbolizer.Bias.values()) {
      s.lookup(line, column, new JsSymbolizer.Options(bias, true));
    }
    if (loc != null) {
      s.functionName(line, column, loc);
      s.context(loc);
    }
  }

  /**
   * A {@code mappings} string straight into the VLQ decoder: segments sorted by generated
   * position, or {@link SourceMapException}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({"AAAA", "AACA", ";", ",", "gB", "/////D", "+/"})
  void mappings(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          Mappings m =
              MappingsDecoder.decode(
                  data, 0, data.length, MappingsDecoder.stats(), 1 << 16, "the fuzz target's cap");
          for (int i = 1; i < m.size(); i++) {
            long prev = JsTable.positionKey(m.genLine(i - 1), m.genCol(i - 1));
            long cur = JsTable.positionKey(m.genLine(i), m.genCol(i));
            if (prev > cur) {
              check(false, "segments not sorted by generated position at " + i);
            }
          }
          for (int i = 0; i < Math.min(PROBES, m.size()); i++) {
            int f = m.floorIndex(m.genLine(i), m.genCol(i));
            check(
                f >= 0 && m.genLine(f) == m.genLine(i) && m.genCol(f) == m.genCol(i),
                "floorIndex misses an existing segment");
          }
        },
        SourceMapException.class);
  }

  /** Minified JavaScript through the scope finder: intervals, never an exception. */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "function ",
    "=>",
    "class ",
    "{",
    "}",
    "(",
    ")",
    "`${",
    "/*",
    "*/",
    "//",
    "async ",
    "get ",
    "static ",
    "new ",
    "'",
    "\""
  })
  void minifiedScopes(byte[] data) throws Exception {
    String src = new String(data, StandardCharsets.UTF_8);
    expect(
        data,
        () -> {
          var intervals =
              MinifiedScopes.extract(
                  src, (line, column) -> (line + column) % 3 == 0 ? null : "mapped");
          for (int i = 1; i < intervals.size(); i++) {
            var a = intervals.get(i - 1);
            var b = intervals.get(i);
            if (JsTable.positionKey(a.line(), a.column())
                > JsTable.positionKey(b.line(), b.column())) {
              check(false, "scope intervals out of order at " + i);
            }
          }
        });
  }

  /**
   * Bytes as a stored table header and as a stored page (mapping, content or function map): a
   * page that answers lookups, or {@link IllegalArgumentException} (the js table's documented
   * error for corrupt bytes).
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void tableBytes(byte[] data) throws Exception {
    expect(data, () -> JsHeader.decode(data), IllegalArgumentException.class);
    expect(
        data,
        () -> {
          JsPage page = JsPage.decode(data);
          if (page instanceof MappingPage p) {
            long first = p.firstKey();
            int line = (int) (first >>> 32);
            int column = (int) first;
            for (int i = 0; i < Math.min(PROBES, p.size()); i++) {
              p.location(i);
              long k = p.key(i);
              p.lookupOnLine((int) (k >>> 32), (int) k);
              p.scopeAt(k);
              p.floorIndex(k + 1);
              p.ceilingIndex(k - 1);
            }
            p.lookupOnLine(line, column);
            p.lookupOnLine(line, Integer.MAX_VALUE);
            p.lookupOnLine(line + 1, 0);
            p.floorIndex(Long.MAX_VALUE);
            p.ceilingIndex(Long.MIN_VALUE);
          } else if (page instanceof ContentPage c) {
            for (int i = -1; i < Math.min(PROBES, c.lines().length + 1); i++) {
              c.line(c.firstLine() + i);
            }
          } else if (page instanceof FunctionMapPage f) {
            f.map().enclosing(0, 0);
            f.map().enclosing(Integer.MAX_VALUE - 1, Integer.MAX_VALUE);
          }
        },
        IllegalArgumentException.class);
  }
}

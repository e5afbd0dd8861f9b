package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.io.DebugFileInput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Hostile inputs: each must fail fast with a clear reason, never hang, overflow or OOM. */
class HostileSourceMapTest {

  static SourceMap parse(String json) throws Exception {
    return new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Produces {@code n} bytes of {@code pattern} lazily, counting what was read. */
  static final class Repeating extends InputStream {
    final byte[] pattern;
    final long n;
    long pos;

    Repeating(String pattern, long n) {
      this.pattern = pattern.getBytes(StandardCharsets.US_ASCII);
      this.n = n;
    }

    @Override
    public int read() {
      return pos < n ? pattern[(int) (pos++ % pattern.length)] : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= n) {
        return -1;
      }
      int k = (int) Math.min(len, n - pos);
      for (int i = 0; i < k; i++) {
        b[off + i] = pattern[(int) ((pos + i) % pattern.length)];
      }
      pos += k;
      return k;
    }
  }

  @Test
  void oneGigabyteMappingsClaimStopsAtTheStringCap() {
    Repeating body = new Repeating("AAAA;", 1L << 30);
    InputStream in =
        new SequenceInputStream(
            new ByteArrayInputStream(
                "{\"version\":3,\"sources\":[\"a.js\"],\"names\":[],\"mappings\":\"".getBytes()),
            new SequenceInputStream(body, new ByteArrayInputStream("\"}".getBytes())));
    SourceMapParser parser = new SourceMapParser(null, 8 << 20, DebugFileInput.DEFAULT_MAX_BYTES);
    assertThatThrownBy(() -> parser.parse(in))
        .isInstanceOf(SourceMapException.class)
        .hasMessageContaining("exceeds a parser limit")
        .hasMessageContaining("String value length");
    // it gave up near the cap instead of reading the whole gigabyte
    assertThat(body.pos).isLessThan(64L << 20);
  }

  @Test
  void oneGigabyteInputStopsAtTheByteCap() {
    Repeating body = new Repeating("AAAA;", 1L << 30);
    InputStream in =
        new SequenceInputStream(
            new ByteArrayInputStream(
                "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"".getBytes()),
            body);
    SourceMapParser parser = new SourceMapParser(null, Integer.MAX_VALUE - 1024, 4 << 20);
    assertThatThrownBy(() -> parser.parse(in)).isInstanceOf(DebugFileInput.TooLargeException.class);
    assertThat(body.pos).isLessThan(16L << 20);
  }

  static byte[] gzip(String s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(s.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  static String emptySources(int n) {
    return String.join(",", Collections.nCopies(n, "\"\""));
  }

  @Test
  void aLongSourceRootJoinedToEverySourceIsRejectedNotMultiplied() throws Exception {
    // 1 MB sourceRoot x 1,000 empty sources: ~1 KB gzipped, 1 G chars once every source is resolved
    String map =
        "{\"version\":3,\"mappings\":\"\",\"sourceRoot\":\""
            + "r".repeat(1 << 20)
            + "\",\"sources\":["
            + emptySources(1000)
            + "]}";
    byte[] gz = gzip(map);
    assertThat(gz.length).isLessThan(4096);
    assertThatThrownBy(
            () ->
                SourceMapParser.forHeap(null, DebugFileInput.DEFAULT_MAX_BYTES)
                    .parse(new ByteArrayInputStream(gz)))
        .isInstanceOf(SourceMapException.class)
        .hasMessageStartingWith("invalid sourcemap: the resolved source URLs exceed")
        .hasMessageContaining("sourceRoot has 1048576 chars, joined to each of 1000 sources");
  }

  @Test
  void resolvedSourceUrlsAreLimitedAcrossSections() throws Exception {
    // each section alone resolves to 2 x 401 chars, under the 1,000-char limit; together they are
    // over
    String section =
        "{\"version\":3,\"mappings\":\"\",\"sourceRoot\":\""
            + "r".repeat(400)
            + "\",\"sources\":[\"a\",\"b\"]}";
    SourceMapParser parser = new SourceMapParser(null, 1000, DebugFileInput.DEFAULT_MAX_BYTES);
    assertThat(parser.parse(section.getBytes(StandardCharsets.UTF_8)).sources().get(1))
        .isEqualTo("r".repeat(400) + "/b");
    String index =
        "{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":0},\"map\":"
            + section
            + "},{\"offset\":{\"line\":1,\"column\":0},\"map\":"
            + section
            + "}]}";
    assertThatThrownBy(() -> parser.parse(index.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SourceMapException.class)
        .hasMessageContaining(
            "sections[1].map.the resolved source URLs exceed 1000 chars at sources[0]");
    // the count is per parse: the parser (shared across threads) starts every map from zero
    assertThat(
            parser
                .parse(new ByteArrayInputStream(section.getBytes(StandardCharsets.UTF_8)))
                .sources())
        .hasSize(2);
    assertThat(
            parser
                .parse(new ByteArrayInputStream(section.getBytes(StandardCharsets.UTF_8)))
                .sources())
        .hasSize(2);
  }

  @Test
  void segmentsBeyondTheParserLimitAreRejected() throws Exception {
    SourceMapParser parser =
        new SourceMapParser(
            null, SourceMapParser.DEFAULT_MAX_STRING, DebugFileInput.DEFAULT_MAX_BYTES, 1000);
    String head = "{\"version\":3,\"sources\":[],\"mappings\":\"";
    // "A,...,A": a ',' only stands between two segments
    String atLimit = head + "A,".repeat(999) + "A\"}";
    String over = head + "A,".repeat(1000) + "A\"}";
    assertThat(parser.parse(atLimit.getBytes(StandardCharsets.UTF_8)).segmentCount())
        .isEqualTo(1000);
    assertThat(
            parser
                .parse(new ByteArrayInputStream(atLimit.getBytes(StandardCharsets.UTF_8)))
                .segmentCount())
        .isEqualTo(1000);
    assertThatThrownBy(() -> parser.parse(over.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SourceMapException.class)
        .hasMessage("invalid sourcemap: mappings: more than 1000 segments (the parser's limit)");
    assertThatThrownBy(
            () -> parser.parse(new ByteArrayInputStream(over.getBytes(StandardCharsets.UTF_8))))
        .hasMessage("invalid sourcemap: mappings: more than 1000 segments (the parser's limit)");
    // an index map holds its sections' segments and their flattened copy: both count
    String section = "{\"version\":3,\"sources\":[],\"mappings\":\"" + "A,".repeat(299) + "A\"}";
    String index =
        "{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":0},\"map\":"
            + section
            + "},{\"offset\":{\"line\":1,\"column\":0},\"map\":"
            + section
            + "}]}";
    assertThatThrownBy(() -> parser.parse(index.getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("more than 1000 segments");
    assertThat(
            new SourceMapParser(
                    null,
                    SourceMapParser.DEFAULT_MAX_STRING,
                    DebugFileInput.DEFAULT_MAX_BYTES,
                    2000)
                .parse(index.getBytes(StandardCharsets.UTF_8))
                .segmentCount())
        .isEqualTo(600);
  }

  @Test
  void forHeapRejectsMoreSegmentsThanTheHeapHolds() {
    // "A," is one 24-byte segment per 2 chars, 12 times the input: a mappings string well under the
    // string cap (heap/8 chars) exhausted the heap. The limit: one segment per 128 bytes of heap.
    long limit = Runtime.getRuntime().maxMemory() / SourceMapParser.HEAP_BYTES_PER_SEGMENT;
    Repeating body = new Repeating("A,", 2 * (limit + 1));
    InputStream in =
        new SequenceInputStream(
            new ByteArrayInputStream("{\"version\":3,\"sources\":[],\"mappings\":\"".getBytes()),
            new SequenceInputStream(body, new ByteArrayInputStream("\"}".getBytes())));
    assertThatThrownBy(
            () -> SourceMapParser.forHeap(null, DebugFileInput.DEFAULT_MAX_BYTES).parse(in))
        .isInstanceOf(SourceMapException.class)
        .hasMessage(
            "invalid sourcemap: mappings: more than "
                + limit
                + " segments (decoded segments take 24"
                + " bytes each, and this JVM holds at most one per 128 bytes of its max heap; raise -Xmx to read"
                + " this map)");
  }

  @Test
  void vlqOverflowIsRejected() {
    assertThatThrownBy(
            () ->
                parse(
                    "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"gggggggggggggggggggggB\"}"))
        .isInstanceOf(SourceMapException.class)
        .hasMessageContaining("VLQ value exceeds 32 bits");
    // a single 7-digit value just above 2^31 - 1
    assertThatThrownBy(
            () -> parse("{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AggggggE\"}"))
        .hasMessageContaining("exceeds 32 bits");
  }

  @Test
  void negativeIndicesAreRejected() {
    // second segment moves the source index to -1
    assertThatThrownBy(
            () -> parse("{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AAAA,ADAA\"}"))
        .hasMessageContaining("source index -1 out of range");
    assertThatThrownBy(
            () ->
                parse(
                    "{\"version\":3,\"sources\":[\"a.js\"],\"names\":[\"x\"],\"mappings\":\"AAAAA,AAAAD\"}"))
        .hasMessageContaining("name index -1 out of range");
    assertThatThrownBy(() -> parse("{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AADA\"}"))
        .hasMessageContaining("original line -1 out of range");
    assertThatThrownBy(
            () ->
                parse(
                    "{\"version\":3,\"sources\":[\"a.js\"],\"ignoreList\":[-1],\"mappings\":\"\"}"))
        .hasMessageContaining("ignoreList entry -1");
    assertThatThrownBy(
            () ->
                parse(
                    "{\"version\":3,\"sections\":[{\"offset\":{\"line\":-1,\"column\":0},"
                        + "\"map\":{\"version\":3,\"sources\":[],\"mappings\":\"\"}}]}"))
        .hasMessageContaining("offset.line must be a non-negative integer");
  }

  @Test
  void mapPointingOutsideItsSourcesIsRejected() {
    assertThatThrownBy(() -> parse("{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AKAA\"}"))
        .hasMessageContaining("mappings reference source index 5 but sources has 1 entries");
    assertThatThrownBy(
            () ->
                parse("{\"version\":3,\"sources\":[\"a.js\"],\"names\":[],\"mappings\":\"AAAAC\"}"))
        .hasMessageContaining("name index 1 but names has 0 entries");
  }

  static String nested(int depth) {
    String map = "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AAAA\"}";
    for (int i = 0; i < depth; i++) {
      map =
          "{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":0},\"map\":"
              + map
              + "}]}";
    }
    return map;
  }

  @Test
  void deeplyNestedSectionsAreRejected() throws Exception {
    assertThat(parse(nested(3)).segmentCount()).isEqualTo(1);
    assertThatThrownBy(() -> parse(nested(50)))
        .hasMessageContaining("nested deeper than " + SourceMapParser.MAX_SECTION_DEPTH);
    // JSON nesting far beyond any sourcemap hits the parser's nesting limit, not the stack
    String deep = "{\"version\":3,\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
    assertThatThrownBy(() -> parse(deep)).hasMessageContaining("exceeds a parser limit");
  }

  @Test
  void overlappingSectionsAreRejected() {
    String sub =
        "{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AAAA,UAAU\"}"; // columns 0 and 10
    String ordered =
        "{\"version\":3,\"sections\":[{\"offset\":{\"line\":0,\"column\":0},\"map\":"
            + sub
            + "},{\"offset\":{\"line\":0,\"column\":5},\"map\":"
            + sub
            + "}]}";
    assertThatThrownBy(() -> parse(ordered))
        .hasMessageContaining("sections[0] has mappings at or after sections[1] offset 0:5");
    String unordered =
        "{\"version\":3,\"sections\":[{\"offset\":{\"line\":3,\"column\":0},\"map\":"
            + sub
            + "},{\"offset\":{\"line\":1,\"column\":0},\"map\":"
            + sub
            + "}]}";
    assertThatThrownBy(() -> parse(unordered))
        .hasMessageContaining("sections[1] offset 1:0 is not after the previous section's offset");
  }

  @Test
  void nonUtf8ContentIsRejected() {
    byte[] bad =
        "{\"version\":3,\"sources\":[\"a.js\"],\"sourcesContent\":[\"caf\u00e9\"],\"mappings\":\"\"}"
            .getBytes(StandardCharsets.ISO_8859_1); // a lone 0xE9 byte is not UTF-8
    assertThatThrownBy(() -> new SourceMapParser().parse(bad))
        .isInstanceOf(SourceMapException.class)
        .hasMessageContaining("invalid JSON")
        .hasMessageContaining("UTF-8");
    // a non-ASCII character inside mappings is an invalid VLQ digit
    assertThatThrownBy(
            () -> parse("{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AA\u00e9A\"}"))
        .hasMessageContaining("invalid character");
  }

  @Test
  void garbageAndTruncationGiveReasons() {
    assertThatThrownBy(() -> parse("[1,2]")).hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> parse("{\"version\":3,\"sources\":[],\"mappings\":\"AAAA"))
        .hasMessageContaining("invalid JSON");
    assertThatThrownBy(() -> parse("{\"version\":3,\"sources\":[],\"mappings\":\"\"} x"))
        .isInstanceOf(SourceMapException.class);
  }

  @Test
  void corruptTablePagesFailWithIllegalArgument() throws Exception {
    SourceMap m =
        parse(
            "{\"version\":3,\"sources\":[\"a.js\"],\"sourcesContent\":[\"x\\ny\"],\"names\":[\"n\"],"
                + "\"mappings\":\"AAAAA,CAAC;AACA\"}");
    JsTable t = new JsTableBuilder().build(m);
    Random rnd = new Random(42);
    for (var page : t.pages()) {
      byte[] b = page.bytes();
      for (int cut = 0; cut < b.length; cut++) {
        byte[] truncated = Arrays.copyOf(b, cut);
        assertThatThrownBy(() -> JsPage.decode(truncated))
            .isInstanceOf(IllegalArgumentException.class);
      }
      for (int i = 0; i < 200; i++) {
        byte[] flipped = b.clone();
        flipped[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
        try {
          JsPage.decode(flipped);
        } catch (IllegalArgumentException expected) {
          // a clear failure is fine; anything else (AIOOBE, NegativeArraySize, OOM) is not
        }
      }
    }
  }

  /** A table of a one-segment map built with {@code minified}: only the scopes name functions. */
  static JsSymbolizer scopesOf(String minified) throws Exception {
    SourceMap map = parse("{\"version\":3,\"sources\":[\"a.js\"],\"mappings\":\"AAAA\"}");
    return JsSymbolizer.inMemory(new JsTableBuilder().build(map, minified));
  }

  static JsFunctionName scopeAt(JsSymbolizer s, String minified, String token) {
    return scopeAt(s, minified, token, minified.indexOf(token));
  }

  static JsFunctionName scopeAt(JsSymbolizer s, String minified, String token, int column) {
    assertThat(column).as(token).isNotNegative();
    return s.functionName(0, column, null);
  }

  @Test
  void tensOfThousandsOfMethodsGetTheirScopesInOnePass() throws Exception {
    // each method looked back for its enclosing brace over all methods before it (40,000: 24 s)
    int n = 40_000;
    StringBuilder obj = new StringBuilder("x={");
    StringBuilder cls = new StringBuilder("class C{");
    for (int i = 0; i < n; i++) {
      obj.append('m').append(i).append("(){},");
      cls.append('k').append(i).append("(){}");
    }
    String minified = obj.append("};").append(cls).append('}').toString();
    JsSymbolizer s = scopesOf(minified);
    assertThat(scopeAt(s, minified, "m39999("))
        .isEqualTo(new JsFunctionName("m39999", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
    assertThat(scopeAt(s, minified, "{},m20001("))
        .isEqualTo(new JsFunctionName("m20000", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
    // class methods are named after the class body that encloses them
    assertThat(scopeAt(s, minified, "k39999("))
        .isEqualTo(
            new JsFunctionName("C.k39999", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
    assertThat(scopeAt(s, minified, "{}k1("))
        .isEqualTo(new JsFunctionName("C.k0", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
  }

  @Test
  void tensOfThousandsOfNestedArrowsGetTheirScopesInOnePass() throws Exception {
    // each arrow's expression body was scanned to its end, through every arrow nested in it
    // (40,000: 17 s)
    int n = 40_000;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append('f').append(i).append("=a=>");
    }
    String minified = sb.append("(b,[c])+x;g=a=>a").toString();
    JsSymbolizer s = scopesOf(minified);
    // "f123" is inside the body of the arrow assigned to f122
    assertThat(scopeAt(s, minified, "f123="))
        .isEqualTo(new JsFunctionName("f122", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
    assertThat(scopeAt(s, minified, "x;"))
        .isEqualTo(new JsFunctionName("f39999", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
    // the bodies end at the ';': g's arrow is outside all of them
    assertThat(scopeAt(s, minified, "g="))
        .isEqualTo(new JsFunctionName(null, null, MinifiedScopes.ScopeKind.UNKNOWN));
    assertThat(scopeAt(s, minified, "a=>a", minified.lastIndexOf("a=>a")))
        .isEqualTo(new JsFunctionName("g", "scope_minified", MinifiedScopes.ScopeKind.NAMED));
  }

  @Test
  void aLongAssignedNameIsBuiltOnceForAllItsChildren() throws Exception {
    // a.a.a...a = function(){ 20,000 anonymous functions }: the long name was built (and stored)
    // again each time a child ended (20,000 children: 7 s), and collected by inserts at the front
    int n = 20_000;
    String chain = "a" + ".a".repeat(n);
    String minified = chain + "=function(){" + "function(){};".repeat(n) + "x}";
    JsSymbolizer s = scopesOf(minified);
    assertThat(scopeAt(s, minified, "x}"))
        .isEqualTo(new JsFunctionName(chain, "scope_minified", MinifiedScopes.ScopeKind.NAMED));
    assertThat(scopeAt(s, minified, "};function(){};x}"))
        .isEqualTo(new JsFunctionName(null, "scope", MinifiedScopes.ScopeKind.ANONYMOUS));
    assertThat(scopeAt(s, minified, ";function(){};x}"))
        .isEqualTo(new JsFunctionName(chain, "scope_minified", MinifiedScopes.ScopeKind.NAMED));
  }
}

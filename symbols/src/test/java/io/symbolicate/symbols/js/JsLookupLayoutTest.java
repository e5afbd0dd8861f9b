package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The decoded lookup layout of mapping pages (line index, column buckets, packed or wide
 * segments) against a plain binary search over the parsed segments, on random maps made to hit
 * its edges: long lines with many segments per bucket, empty buckets, equal positions, lines far
 * apart (sparse line index), 1-field segments, values too wide to pack, and every page size.
 */
class JsLookupLayoutTest {
  private static final JsSymbolizer.Options LUB =
      new JsSymbolizer.Options(JsSymbolizer.Bias.LEAST_UPPER_BOUND, false);
  private static final JsSymbolizer.Options FALLBACK =
      new JsSymbolizer.Options(JsSymbolizer.Bias.GREATEST_LOWER_BOUND, true);

  @Test
  void randomMapsLookUpLikeABinarySearchOverTheSegments() throws Exception {
    boolean sawSparse = false;
    boolean sawDense = false;
    boolean sawPacked = false;
    boolean sawWide = false;
    boolean sawBuckets = false;
    for (int seed = 0; seed < 12; seed++) {
      Random rnd = new Random(seed);
      SourceMap map = new SourceMapParser().parse(randomMap(rnd).getBytes(StandardCharsets.UTF_8));
      Mappings m = map.mappings();
      if (m.size() == 0) {
        continue;
      }
      long[] keys = new long[m.size()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = JsTable.positionKey(m.genLine(i), m.genCol(i));
      }
      for (int pageSize : new int[] {1, 7, 100, 16384}) {
        JsTable table = new JsTableBuilder(pageSize).build(map);
        for (int p = 0; p < table.pages().size(); p++) {
          if (JsPage.decode(table.pages().get(p).bytes()) instanceof MappingPage mp) {
            sawSparse |= mp.sparseLineIndex();
            sawDense |= !mp.sparseLineIndex();
            sawPacked |= mp.packedSegments();
            sawWide |= !mp.packedSegments();
            sawBuckets |= mp.hasBuckets();
          }
        }
        JsSymbolizer s = JsSymbolizer.inMemory(table);
        int lastLine = m.genLine(m.size() - 1);
        for (int i = 0; i < m.size(); i++) {
          for (int d = -1; d <= 1; d++) {
            check(map, keys, s, m.genLine(i), m.genCol(i) + d);
          }
        }
        for (int k = 0; k < 1000; k++) {
          int line = rnd.nextInt(lastLine + 3);
          int col = rnd.nextInt(4) == 0 ? rnd.nextInt(Integer.MAX_VALUE) : rnd.nextInt(5000);
          check(map, keys, s, line, col);
        }
      }
    }
    // the generator must keep reaching every form, or this test proves less than it claims
    assertThat(sawSparse).isTrue();
    assertThat(sawDense).isTrue();
    assertThat(sawPacked).isTrue();
    assertThat(sawWide).isTrue();
    assertThat(sawBuckets).isTrue();
  }

  /**
   * A page holds the names its segments use: with long names, pages of a fixed segment count
   * outgrew one record of symbols.tables (a reviewer's 5 MB map was one 5 MB page). Pages are
   * halved until they fit, and lookups still find every segment and its name.
   */
  @Test
  void mapsWithLongNamesArePagedByBytes() throws Exception {
    int n = 200;
    StringBuilder json = new StringBuilder("{\"version\":3,\"sources\":[\"a.js\"],\"names\":[");
    for (int i = 0; i < n; i++) {
      json.append(i == 0 ? "" : ",")
          .append('"')
          .append(i)
          .append("_")
          .append("x".repeat(20_000))
          .append('"');
    }
    json.append("],\"mappings\":\"AAAAA").append(",EACAC".repeat(n - 1)).append("\"}");
    SourceMap map = new SourceMapParser().parse(json.toString().getBytes(StandardCharsets.UTF_8));
    JsTable table = new JsTableBuilder().build(map);
    long mappingPages =
        table.pages().stream()
            .filter(
                p -> {
                  try {
                    return JsPage.decode(p.bytes()) instanceof MappingPage;
                  } catch (Exception e) {
                    throw new AssertionError(e);
                  }
                })
            .count();
    assertThat(mappingPages).isGreaterThanOrEqualTo(8);
    assertThat(table.pages())
        .allSatisfy(
            p ->
                assertThat(p.bytes().length)
                    .isLessThanOrEqualTo(JsTableBuilder.MAX_MAPPING_PAGE_BYTES));
    JsSymbolizer s = JsSymbolizer.inMemory(table);
    for (int i = 0; i < n; i++) {
      JsLocation loc = s.lookup(0, 2 * i);
      assertThat(loc).as("segment %d", i).isNotNull();
      assertThat(loc.line()).isEqualTo(i);
      assertThat(loc.name()).startsWith(i + "_");
    }
  }

  /**
   * One name every segment uses, longer than a page may be: halving cannot shrink a page below
   * it, so the builder stops when a half is not clearly smaller (halving on copied it into a
   * page per position: 200 segments made 120 MB of pages). What is too large for one record is
   * then the loader's to refuse.
   */
  @Test
  void aSharedNameLongerThanAPageIsNotCopiedIntoEveryPosition() throws Exception {
    int n = 200;
    String json =
        "{\"version\":3,\"sources\":[\"a.js\"],\"names\":[\""
            + "x".repeat(600_000)
            + "\"],\"mappings\":\"AAAAA"
            + ",EACAA".repeat(n - 1)
            + "\"}";
    SourceMap map = new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8));
    JsTable table = new JsTableBuilder().build(map);
    long total = table.pages().stream().mapToLong(p -> p.bytes().length).sum();
    assertThat(total).as("a few copies of the name at most").isLessThan(3 * 600_000L);
    JsSymbolizer s = JsSymbolizer.inMemory(table);
    for (int i = 0; i < n; i++) {
      assertThat(s.lookup(0, 2 * i).line()).isEqualTo(i);
      assertThat(s.lookup(0, 2 * i).name()).hasSize(600_000);
    }
  }

  private static void check(SourceMap map, long[] keys, JsSymbolizer s, int line, int col) {
    if (col < 0) {
      return;
    }
    long q = JsTable.positionKey(line, col);
    int floor = lastAtOrBefore(keys, q);
    int glb = floor >= 0 && (int) (keys[floor] >>> 32) == line ? floor : -1;
    expect(map, glb, s.lookup(line, col), line, col, "glb");
    expect(map, floor, s.lookup(line, col, FALLBACK), line, col, "fallback");
    int ceil = lastAtOrBefore(keys, q - 1) + 1;
    int lub = ceil < keys.length && (int) (keys[ceil] >>> 32) == line ? ceil : -1;
    expect(map, lub, s.lookup(line, col, LUB), line, col, "lub");
  }

  /** Index of the last key <= q, or -1. */
  private static int lastAtOrBefore(long[] keys, long q) {
    int lo = 0;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (keys[mid] <= q) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi;
  }

  private static void expect(SourceMap map, int i, JsLocation loc, int line, int col, String what) {
    String at = what + " at " + line + ":" + col;
    if (i < 0) {
      assertThat(loc).as(at).isNull();
      return;
    }
    Mappings m = map.mappings();
    assertThat(loc).as(at).isNotNull();
    assertThat(loc.generatedLine()).as(at).isEqualTo(m.genLine(i));
    assertThat(loc.generatedColumn()).as(at).isEqualTo(m.genCol(i));
    if (m.source(i) < 0) {
      assertThat(loc.mapped()).as(at).isFalse();
      return;
    }
    assertThat(loc.source()).as(at).isEqualTo(map.sources().get(m.source(i)));
    assertThat(loc.line()).as(at).isEqualTo(m.origLine(i));
    assertThat(loc.column()).as(at).isEqualTo(m.origCol(i));
    assertThat(loc.name()).as(at).isEqualTo(m.name(i) < 0 ? null : map.names().get(m.name(i)));
  }

  /** A random valid map; each seed favours one shape (long lines, sparse lines, wide values). */
  private static String randomMap(Random rnd) {
    int shape = rnd.nextInt(3);
    int sources = 1 + rnd.nextInt(4);
    int names = rnd.nextInt(40);
    StringBuilder mappings = new StringBuilder();
    int lines = shape == 1 ? 2 + rnd.nextInt(5) : 1 + rnd.nextInt(20);
    int[] prev = new int[4]; // source, original line, original column, name (VLQ deltas run on)
    for (int l = 0; l < lines; l++) {
      if (l > 0) {
        // sparse shape: thousands of empty lines between the few with segments
        int gap =
            shape == 1 ? 2000 + rnd.nextInt(5000) : 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) : 0);
        mappings.append(";".repeat(gap));
      }
      int segs = rnd.nextInt(3) == 0 ? rnd.nextInt(4) : rnd.nextInt(shape == 0 ? 1000 : 200);
      int col = 0;
      for (int k = 0; k < segs; k++) {
        // equal positions, dense runs and long jumps (empty column buckets)
        int r = rnd.nextInt(20);
        int dc =
            k == 0
                ? rnd.nextInt(50)
                : r == 0 ? 0 : r == 1 ? 1000 + rnd.nextInt(100_000) : 1 + rnd.nextInt(12);
        if (k > 0) {
          mappings.append(',');
        }
        vlq(mappings, dc);
        col += dc;
        if (rnd.nextInt(10) == 0) {
          continue; // 1-field segment
        }
        int src = rnd.nextInt(sources);
        int ol =
            shape == 2 && rnd.nextInt(50) == 0
                ? (1 << 30) + rnd.nextInt(1000)
                : rnd.nextInt(20_000);
        int oc = shape == 2 && rnd.nextInt(50) == 0 ? (1 << 30) : rnd.nextInt(200);
        vlq(mappings, src - prev[0]);
        vlq(mappings, ol - prev[1]);
        vlq(mappings, oc - prev[2]);
        prev[0] = src;
        prev[1] = ol;
        prev[2] = oc;
        if (names > 0 && rnd.nextBoolean()) {
          int n = rnd.nextInt(names);
          vlq(mappings, n - prev[3]);
          prev[3] = n;
        }
      }
    }
    StringBuilder json = new StringBuilder("{\"version\":3,\"sources\":[");
    for (int i = 0; i < sources; i++) {
      json.append(i > 0 ? "," : "").append("\"s").append(i).append(".js\"");
    }
    json.append("],\"names\":[");
    for (int i = 0; i < names; i++) {
      json.append(i > 0 ? "," : "").append("\"n").append(i).append('"');
    }
    return json.append("],\"mappings\":\"").append(mappings).append("\"}").toString();
  }

  private static final String B64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  private static void vlq(StringBuilder out, int value) {
    long v = value < 0 ? ((-(long) value) << 1) | 1 : (long) value << 1;
    do {
      int digit = (int) (v & 31);
      v >>>= 5;
      out.append(B64.charAt(v != 0 ? digit | 32 : digit));
    } while (v != 0);
  }
}

package io.symbolicate.symbols.js;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A run of segments sorted by generated position, decoded for lookups. Sources and names are
 * page-local dictionaries, so a lookup needs nothing but this page.
 *
 * <p>Decoded layout (what random lookups need: few dependent memory reads, small footprint):
 * <ul>
 *   <li>a line index: per generated line, its first segment, first column, and a column-bucket
 *       index when the line has many segments (minified files are a few very long lines);
 *   <li>per bucket of {@code 2^shift} columns, the first segment in it: a lookup reads one bucket
 *       entry and then scans the few segments of that bucket (about {@link #PER_BUCKET}), instead
 *       of a binary search over the whole page;
 *   <li>segments as one {@code long} each when the page's values fit: the column relative to the
 *       line's first column in the top bits, then the bit-packed original line - lineBase, column,
 *       source + 1 and name + 1. Sorted columns make the longs sorted, so the scan compares whole
 *       longs, and the row is already in the register when the scan stops. Otherwise (extreme
 *       values) five ints per segment.
 * </ul>
 */
public final class MappingPage implements JsPage {
  static final byte TAG = 'M';

  /** Target segments per column bucket (the bucket width is a power of two, so 1/2 to 1 of it). */
  static final int PER_BUCKET = 32;

  /** Per line record: first segment, first column, bucket shift, bucket offset (-1: none), last bucket. */
  private static final int REC = 5;

  /** Ints per segment in the general (unpacked) form: column, line, column, source, name. */
  private static final int WIDE = 5;

  private final int count;
  private final int firstLine;
  private final int maxRel;

  /** Line records, {@link #REC} ints each, plus a sentinel whose first segment is {@code count}. */
  private final int[] lineRecs;

  /** Sorted relative line numbers of the records when the index is sparse (many empty lines), else null. */
  private final int[] sparseLines;

  private final int[] buckets;

  /** Packed segments, or null when the page needs the general form. */
  private final long[] packed;

  private final int rowBits;
  private final long rowMask;
  private final long keyLimit;

  /** General form: {@link #WIDE} ints per segment (column, line, column, source, name). */
  private final int[] wide;

  private final int lineBase;
  private final int colShift;
  private final int srcShift;
  private final int nameShift;
  private final long lineMask;
  private final long colMask;
  private final long srcMask;
  private final long nameMask;
  final String[] sourceUrls;
  final int[] sourceIndex;
  final boolean[] sourceIgnored;
  final String[] names;

  /** First key of the following mapping page, or -1 (for LEAST_UPPER_BOUND across pages). */
  final long nextFirstKey;

  /** Enclosing-scope intervals from the minified file, or null when the table has none. */
  final long[] scopeKeys;

  /** Per interval: 0 no function (top level), 1 anonymous, 2 + 2 * name + (mapped ? 1 : 0). */
  final int[] scopeRef;

  final String[] scopeNames;

  private MappingPage(
      Layout l,
      String[] sourceUrls,
      int[] sourceIndex,
      boolean[] sourceIgnored,
      String[] names,
      long nextFirstKey,
      Scopes scopes) {
    this.count = l.count;
    this.firstLine = l.firstLine;
    this.maxRel = l.maxRel;
    this.lineRecs = l.lineRecs;
    this.sparseLines = l.sparseLines;
    this.buckets = l.buckets;
    this.packed = l.packed;
    this.wide = l.wide;
    this.rowBits = l.rowBits;
    this.rowMask = l.rowBits == 0 ? 0 : (1L << l.rowBits) - 1;
    this.keyLimit = l.keyLimit;
    int[] packing = l.packing;
    lineBase = packing[0];
    colShift = packing[1];
    srcShift = colShift + packing[2];
    nameShift = srcShift + packing[3];
    lineMask = (1L << packing[1]) - 1;
    colMask = (1L << packing[2]) - 1;
    srcMask = (1L << packing[3]) - 1;
    nameMask = (1L << packing[4]) - 1;
    this.sourceUrls = sourceUrls;
    this.sourceIndex = sourceIndex;
    this.sourceIgnored = sourceIgnored;
    this.names = names;
    this.nextFirstKey = nextFirstKey;
    this.scopeKeys = scopes == null ? null : scopes.keys();
    this.scopeRef = scopes == null ? null : scopes.refs();
    this.scopeNames = scopes == null ? null : scopes.names();
  }

  public int size() {
    return count;
  }

  /** Whether segments are packed into one long each (else the general five-int form). */
  boolean packedSegments() {
    return packed != null;
  }

  /** Whether lines are indexed sparsely (binary search over the lines present). */
  boolean sparseLineIndex() {
    return sparseLines != null;
  }

  /** Whether some line of this page has a column-bucket index. */
  boolean hasBuckets() {
    return buckets.length > 0;
  }

  /** The record index of a relative line, or -1 when the page has no segment on it. */
  private int record(int rel) {
    if (sparseLines == null) {
      return rel;
    }
    int i = Arrays.binarySearch(sparseLines, rel);
    return i < 0 ? -1 : i;
  }

  /** Generated column of segment i. */
  private int column(int i, int rec) {
    if (packed != null) {
      return lineRecs[rec * REC + 1] + (int) (packed[i] >>> rowBits);
    }
    return wide[i * WIDE];
  }

  /** The line record holding segment i. */
  private int recordOf(int i) {
    int lo = 0;
    int hi = lineRecs.length / REC - 2;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (lineRecs[mid * REC] <= i) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private int lineOfRecord(int rec) {
    return firstLine + (sparseLines == null ? rec : sparseLines[rec]);
  }

  long key(int i) {
    int rec = recordOf(i);
    return JsTable.positionKey(lineOfRecord(rec), column(i, rec));
  }

  public long firstKey() {
    return key(0);
  }

  /**
   * The last segment at {@code column} or before it on {@code line} (the last of equal
   * positions), or -1 when this page has none on that line: one bucket read, then a short scan.
   */
  int floorOnLine(int line, int column) {
    int rel = line - firstLine;
    if (rel < 0 || rel > maxRel) {
      return -1;
    }
    int rec = record(rel);
    return rec < 0 ? -1 : scanLine(rec, column);
  }

  /**
   * The mapping at {@code column} or before it on {@code line}, or null when this page has no
   * segment there: the symbolizer's hot path (one bucket read, a short scan, the result).
   */
  JsLocation lookupOnLine(int line, int column) {
    int rel = line - firstLine;
    if (rel < 0 || rel > maxRel) {
      return null;
    }
    int rec = record(rel);
    if (rec < 0) {
      return null;
    }
    int i = scanLine(rec, column);
    if (i < 0) {
      return null;
    }
    if (packed != null) {
      long r = packed[i];
      return fromRow(line, lineRecs[rec * REC + 1] + (int) (r >>> rowBits), r);
    }
    return location(i, line, wide[i * WIDE]);
  }

  /** The floor segment of {@code column} within line record {@code rec}, or -1. */
  private int scanLine(int rec, int column) {
    int[] r = lineRecs;
    int b = rec * REC;
    int start = r[b];
    int end = r[b + REC];
    int off = column - r[b + 1];
    if (off < 0 || start == end) {
      return -1;
    }
    int from = start;
    int to = end;
    int bo = r[b + 3];
    if (bo >= 0) {
      int bi = Math.min(off >>> r[b + 2], r[b + 4]);
      from = buckets[bo + bi];
      to = buckets[bo + bi + 1];
    }
    // from > start unless the bucket is the first, whose first segment is at the line's first
    // column (<= column): so i >= start on return
    int i = from - 1;
    if (packed != null) {
      long[] p = packed;
      long q = Math.min(off, keyLimit) << rowBits | rowMask;
      while (i + 1 < to && p[i + 1] <= q) {
        i++;
      }
    } else {
      int[] w = wide;
      while (i + 1 < to && w[(i + 1) * WIDE] <= column) {
        i++;
      }
    }
    return i;
  }

  /**
   * Index of the last segment with key {@code <= key} in this page (the last of equal keys), on
   * the key's line or an earlier one, or -1.
   */
  int floorIndex(long key) {
    int line = (int) (key >>> 32);
    int rel = line - firstLine;
    if (rel < 0) {
      return -1;
    }
    if (rel > maxRel) {
      return count - 1;
    }
    int i = floorOnLine(line, (int) key);
    if (i >= 0) {
      return i;
    }
    // nothing at or before the column on this line: the last segment of an earlier line
    int rec;
    if (sparseLines == null) {
      rec = rel;
    } else {
      int k = Arrays.binarySearch(sparseLines, rel);
      rec = k >= 0 ? k : -k - 1;
    }
    return lineRecs[rec * REC] - 1;
  }

  /** Index of the first segment with key {@code >= key}, or size() when beyond this page. */
  int ceilingIndex(long key) {
    int i = floorIndex(key);
    if (i < 0) {
      return 0;
    }
    if (key(i) != key) {
      return i + 1;
    }
    while (i > 0 && key(i - 1) == key) {
      i--;
    }
    return i;
  }

  /** Original position of segment i, for the symbolizer. */
  JsLocation location(int i) {
    int rec = recordOf(i);
    return location(i, lineOfRecord(rec), column(i, rec));
  }

  private JsLocation location(int i, int line, int column) {
    if (packed != null) {
      return fromRow(line, column, packed[i]);
    }
    int[] w = wide;
    int s = w[i * WIDE + 3];
    if (s < 0) {
      return new JsLocation(line, column, null, -1, -1, -1, null, false);
    }
    int n = w[i * WIDE + 4];
    return new JsLocation(
        line,
        column,
        sourceUrls[s],
        sourceIndex[s],
        w[i * WIDE + 1],
        w[i * WIDE + 2],
        n < 0 ? null : names[n],
        sourceIgnored[s]);
  }

  private JsLocation fromRow(int line, int column, long r) {
    int s = (int) ((r >>> srcShift) & srcMask) - 1;
    if (s < 0) {
      return new JsLocation(line, column, null, -1, -1, -1, null, false);
    }
    int n = (int) ((r >>> nameShift) & nameMask) - 1;
    return new JsLocation(
        line,
        column,
        sourceUrls[s],
        sourceIndex[s],
        lineBase + (int) (r & lineMask),
        (int) ((r >>> colShift) & colMask),
        n < 0 ? null : names[n],
        sourceIgnored[s]);
  }

  private static int bits(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }

  /**
   * Encodes segments [from, to) of {@code m}; {@code globalSource} maps the map's source indices
   * to deduplicated table indices.
   */
  static byte[] encode(
      Mappings m,
      int from,
      int to,
      int[] globalSource,
      String[] globalUrls,
      BitSet ignored,
      List<String> mapNames,
      long nextFirstKey,
      List<MinifiedScopes.Interval> scopes) {
    HashMap<Integer, Integer> localSrc = new HashMap<>();
    ArrayList<Integer> srcOrder = new ArrayList<>();
    HashMap<String, Integer> localName = new HashMap<>();
    ArrayList<String> nameOrder = new ArrayList<>();
    for (int i = from; i < to; i++) {
      int s = m.source[i];
      if (s >= 0 && localSrc.putIfAbsent(globalSource[s], srcOrder.size()) == null) {
        srcOrder.add(globalSource[s]);
      }
      int n = m.name[i];
      if (n >= 0 && localName.putIfAbsent(mapNames.get(n), nameOrder.size()) == null) {
        nameOrder.add(mapNames.get(n));
      }
    }
    ByteSink out = new ByteSink((to - from) * 6 + 64);
    out.write(TAG);
    out.writeVar(to - from);
    out.writeLong(nextFirstKey);
    out.writeVar(srcOrder.size());
    for (int g : srcOrder) {
      out.writeVar(g);
      out.write(ignored.get(g) ? 1 : 0);
      out.writeString(globalUrls[g]);
    }
    out.writeVar(nameOrder.size());
    for (String n : nameOrder) {
      out.writeString(n);
    }
    int line = 0;
    int col = 0;
    int ol = 0;
    int oc = 0;
    for (int i = from; i < to; i++) {
      int gl = m.genLine[i];
      out.writeVar(gl - line);
      out.writeVar(gl != line || i == from ? m.genCol[i] : m.genCol[i] - col);
      line = gl;
      col = m.genCol[i];
      int s = m.source[i];
      if (s < 0) {
        out.writeVar(0);
        continue;
      }
      out.writeVar(localSrc.get(globalSource[s]) + 1L);
      out.writeZigZag((long) m.origLine[i] - ol);
      out.writeZigZag((long) m.origCol[i] - oc);
      ol = m.origLine[i];
      oc = m.origCol[i];
      int n = m.name[i];
      out.writeVar(n < 0 ? 0 : localName.get(mapNames.get(n)) + 1L);
    }
    encodeScopes(out, scopes);
    return out.toByteArray();
  }

  private static void encodeScopes(ByteSink out, List<MinifiedScopes.Interval> scopes) {
    if (scopes == null) {
      out.write(0);
      return;
    }
    out.write(1);
    LinkedHashMap<String, Integer> names = new LinkedHashMap<>();
    for (MinifiedScopes.Interval iv : scopes) {
      if (iv.name() != null) {
        names.putIfAbsent(iv.name(), names.size());
      }
    }
    out.writeVar(names.size());
    for (String n : names.keySet()) {
      out.writeString(n);
    }
    out.writeVar(scopes.size());
    int line = 0;
    int col = 0;
    boolean first = true;
    for (MinifiedScopes.Interval iv : scopes) {
      out.writeVar(iv.line() - line);
      out.writeVar(first || iv.line() != line ? iv.column() : iv.column() - col);
      first = false;
      line = iv.line();
      col = iv.column();
      out.writeVar(
          switch (iv.kind()) {
            case UNKNOWN -> 0;
            case ANONYMOUS -> 1;
            case NAMED -> 2 + 2 * names.get(iv.name()) + (iv.mapped() ? 1 : 0);
          });
    }
  }

  /**
   * The innermost minified-source scope at a position on this page: null when the table was built
   * without the minified file.
   */
  MinifiedScopes.Interval scopeAt(long key) {
    if (scopeKeys == null) {
      return null;
    }
    int lo = 0;
    int hi = scopeKeys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (scopeKeys[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    int ref = hi < 0 ? 0 : scopeRef[hi];
    int line = (int) (key >>> 32);
    int col = (int) key;
    return switch (ref) {
      case 0 ->
          new MinifiedScopes.Interval(line, col, MinifiedScopes.ScopeKind.UNKNOWN, null, false);
      case 1 ->
          new MinifiedScopes.Interval(line, col, MinifiedScopes.ScopeKind.ANONYMOUS, null, false);
      default ->
          new MinifiedScopes.Interval(
              line,
              col,
              MinifiedScopes.ScopeKind.NAMED,
              scopeNames[(ref - 2) >> 1],
              (ref & 1) != 0);
    };
  }

  static MappingPage decode(byte[] bytes) {
    ByteSource in = new ByteSource(bytes);
    in.read();
    int count = in.readCount();
    long next = in.readLong();
    int ns = in.readCount();
    String[] urls = new String[ns];
    int[] idx = new int[ns];
    boolean[] ign = new boolean[ns];
    for (int i = 0; i < ns; i++) {
      idx[i] = in.readVarInt();
      ign[i] = in.read() != 0;
      urls[i] = in.readString();
    }
    int nn = in.readCount();
    String[] names = new String[nn];
    for (int i = 0; i < nn; i++) {
      names[i] = in.readString();
    }
    if (count == 0) {
      throw new IllegalArgumentException("corrupt js mapping page: no segments");
    }
    long[] keys = new long[count];
    int[] srcs = new int[count];
    int[] ols = new int[count];
    int[] ocs = new int[count];
    int[] nms = new int[count];
    long prevKey = -1;
    int line = 0;
    int col = 0;
    int ol = 0;
    int oc = 0;
    int minLine = Integer.MAX_VALUE;
    int maxLine = 0;
    int maxCol = 0;
    for (int i = 0; i < count; i++) {
      int dl = in.readVarInt();
      int c = in.readVarInt();
      col = dl != 0 || i == 0 ? c : col + c;
      line += dl;
      if (col < 0) {
        throw new IllegalArgumentException("corrupt js mapping page: column out of range");
      }
      long k = JsTable.positionKey(line, col);
      if (k < prevKey) {
        throw new IllegalArgumentException("corrupt js mapping page: segments out of order");
      }
      prevKey = k;
      keys[i] = k;
      int s = in.readVarInt() - 1;
      srcs[i] = s;
      if (s < 0) {
        nms[i] = -1;
        continue;
      }
      if (s >= ns) {
        throw new IllegalArgumentException("corrupt js mapping page: source index out of range");
      }
      ol += (int) in.readZigZag();
      oc += (int) in.readZigZag();
      if (ol < 0 || oc < 0) {
        throw new IllegalArgumentException("corrupt js mapping page: negative original position");
      }
      ols[i] = ol;
      ocs[i] = oc;
      minLine = Math.min(minLine, ol);
      maxLine = Math.max(maxLine, ol);
      maxCol = Math.max(maxCol, oc);
      int n = in.readVarInt() - 1;
      if (n >= nn) {
        throw new IllegalArgumentException("corrupt js mapping page: name index out of range");
      }
      nms[i] = n;
    }
    if (minLine == Integer.MAX_VALUE) {
      minLine = 0;
    }
    int wl = bits(maxLine - minLine);
    int wc = bits(maxCol);
    int ws = bits(ns);
    int wn = bits(nn);
    int[] packing = wl + wc + ws + wn <= 64 ? new int[] {minLine, wl, wc, ws, wn} : null;
    Layout layout = Layout.build(keys, srcs, ols, ocs, nms, packing);
    return new MappingPage(layout, urls, idx, ign, names, next, scopes(in));
  }

  /** The decoded lookup structures of a page (see the class comment). */
  private static final class Layout {
    int count;
    int firstLine;
    int maxRel;
    int[] lineRecs;
    int[] sparseLines;
    int[] buckets;
    long[] packed;
    int[] wide;
    int rowBits;
    long keyLimit;
    int[] packing;

    static Layout build(long[] keys, int[] srcs, int[] ols, int[] ocs, int[] nms, int[] packing) {
      Layout l = new Layout();
      int count = keys.length;
      l.count = count;
      l.firstLine = (int) (keys[0] >>> 32);
      l.maxRel = (int) (keys[count - 1] >>> 32) - l.firstLine;
      int lines = 1;
      for (int i = 1; i < count; i++) {
        if ((int) (keys[i] >>> 32) != (int) (keys[i - 1] >>> 32)) {
          lines++;
        }
      }
      // a dense index (record = relative line) unless empty lines would make it larger than the
      // data
      boolean dense = (long) l.maxRel + 1 <= 4L * count;
      int recs = dense ? l.maxRel + 1 : lines;
      int[] r = new int[(recs + 1) * REC];
      int[] sparse = dense ? null : new int[lines];
      int[] bk = new int[16];
      int nbk = 0;
      int maxSpan = 0;
      int i = 0;
      for (int rec = 0; rec < recs; rec++) {
        int rel = dense ? rec : (int) (keys[i] >>> 32) - l.firstLine;
        if (sparse != null) {
          sparse[rec] = rel;
        }
        int s = i;
        while (i < count && (int) (keys[i] >>> 32) - l.firstLine == rel) {
          i++;
        }
        int b = rec * REC;
        r[b] = s;
        r[b + 3] = -1;
        if (i == s) {
          continue;
        }
        int minCol = (int) keys[s];
        int maxCol = (int) keys[i - 1];
        r[b + 1] = minCol;
        maxSpan = Math.max(maxSpan, maxCol - minCol);
        int n = i - s;
        if (n > 2 * PER_BUCKET) {
          long span = (long) maxCol - minCol + 1;
          long width = Math.max(1, span * PER_BUCKET / n);
          int shift = 63 - Long.numberOfLeadingZeros(width);
          int nb = (int) ((span - 1) >> shift) + 1;
          r[b + 2] = shift;
          r[b + 3] = nbk;
          r[b + 4] = nb - 1;
          if (nbk + nb + 1 > bk.length) {
            bk = Arrays.copyOf(bk, Math.max(bk.length * 2, nbk + nb + 1));
          }
          int j = s;
          for (int k = 0; k <= nb; k++) {
            long startCol = minCol + ((long) k << shift);
            while (j < i && (int) keys[j] < startCol) {
              j++;
            }
            bk[nbk++] = j;
          }
        }
      }
      r[recs * REC] = count;
      l.lineRecs = r;
      l.sparseLines = sparse;
      l.buckets = Arrays.copyOf(bk, nbk);
      int keyBits = bits(maxSpan);
      int rowBits = packing == null ? 64 : packing[1] + packing[2] + packing[3] + packing[4];
      if (keyBits + rowBits <= 63) {
        l.packing = packing;
        l.rowBits = rowBits;
        l.keyLimit = (1L << keyBits) - 1;
        long[] p = new long[count];
        int wl = packing[1];
        int wc = packing[2];
        int ws = packing[3];
        int rec = 0;
        for (int k = 0; k < count; k++) {
          while (r[(rec + 1) * REC] <= k) {
            rec++;
          }
          long row =
              srcs[k] < 0
                  ? 0L
                  : (ols[k] - packing[0])
                      | (long) ocs[k] << wl
                      | (long) (srcs[k] + 1) << (wl + wc)
                      | (long) (nms[k] + 1) << (wl + wc + ws);
          p[k] = (long) ((int) keys[k] - r[rec * REC + 1]) << rowBits | row;
        }
        l.packed = p;
      } else {
        l.packing = new int[5];
        int[] w = new int[count * WIDE];
        for (int k = 0; k < count; k++) {
          w[k * WIDE] = (int) keys[k];
          w[k * WIDE + 1] = ols[k];
          w[k * WIDE + 2] = ocs[k];
          w[k * WIDE + 3] = srcs[k];
          w[k * WIDE + 4] = nms[k];
        }
        l.wide = w;
      }
      return l;
    }
  }

  /** Decoded scope intervals of a page. */
  private record Scopes(long[] keys, int[] refs, String[] names) {}

  private static Scopes scopes(ByteSource in) {
    if (in.read() == 0) {
      return null;
    }
    String[] scopeNames = new String[in.readCount()];
    for (int i = 0; i < scopeNames.length; i++) {
      scopeNames[i] = in.readString();
    }
    int n = in.readCount();
    long[] scopeKeys = new long[n];
    int[] scopeRef = new int[n];
    int sLine = 0;
    int sCol = 0;
    for (int i = 0; i < n; i++) {
      int dl = in.readVarInt();
      int c = in.readVarInt();
      sCol = i == 0 || dl != 0 ? c : sCol + c;
      sLine += dl;
      scopeKeys[i] = JsTable.positionKey(sLine, sCol);
      int ref = in.readVarInt();
      if (ref >= 2 && (ref - 2) >> 1 >= scopeNames.length) {
        throw new IllegalArgumentException(
            "corrupt js mapping page: scope name index out of range");
      }
      scopeRef[i] = ref;
    }
    return new Scopes(scopeKeys, scopeRef, scopeNames);
  }
}

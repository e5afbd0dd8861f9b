package io.symbolicate.symbols.js;

/**
 * A run of segments sorted by generated position, decoded into flat arrays for binary search.
 * Sources and names are page-local dictionaries, so a lookup needs nothing but this page.
 */
public final class MappingPage implements JsPage {
  static final byte TAG = 'M';
  static final int SHIFT = 3;
  static final int STRIDE = 1 << SHIFT;

  /**
   * Segments in blocks of {@link #STRIDE}: the 8 keys, then one row per segment. Keeping a
   * block's keys and rows together means a lookup touches one or two adjacent cache lines after
   * the summary search. Missing keys of the last block are {@code Long.MAX_VALUE}. A row is one
   * long when the page's values fit (bit-packed: original line - lineBase, column, source + 1,
   * name + 1, widths chosen per page), else two (line|column, source|name).
   */
  final long[] blocks;
  private final int count;
  private final int blockLongs;
  private final boolean narrow;
  private final int lineBase;
  private final int colShift;
  private final int srcShift;
  private final int nameShift;
  private final long lineMask;
  private final long colMask;
  private final long srcMask;
  private final long nameMask;
  /** First key of every block: a small, cache-resident index. */
  final long[] summary;
  /**
   * Compact form, used when rows are bit-packed and the page's keys fit in 30 bits as
   * {@code (line - firstLine) << colBits | column}: blocks of 8 int keys then 8 rows as int pairs
   * (24 ints, 96 bytes), with an int summary. Null otherwise. Smaller pages stay cache resident
   * longer, which is what random lookups need.
   */
  private final int[] cblocks;
  private final int[] csummary;
  private final int firstLine;
  private final int maxRel;
  private final int colBits;
  private final int colMaskI;
  private static final int CBLOCK = STRIDE * 3;
  /** A relative query beyond every key of a compact page (real keys are below 2^30). */
  private static final int BEYOND = 1 << 30;
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

  private MappingPage(long[] blocks, int[] cblocks, int[] keyPacking, int count, int[] packing,
      String[] sourceUrls, int[] sourceIndex, boolean[] sourceIgnored, String[] names,
      long nextFirstKey, Scopes scopes) {
    this.blocks = blocks;
    this.count = count;
    this.narrow = packing != null;
    this.blockLongs = STRIDE * (narrow ? 2 : 3);
    if (narrow) {
      lineBase = packing[0];
      colShift = packing[1];
      srcShift = colShift + packing[2];
      nameShift = srcShift + packing[3];
      lineMask = (1L << packing[1]) - 1;
      colMask = (1L << packing[2]) - 1;
      srcMask = (1L << packing[3]) - 1;
      nameMask = (1L << packing[4]) - 1;
    } else {
      lineBase = colShift = srcShift = nameShift = 0;
      lineMask = colMask = srcMask = nameMask = 0;
    }
    this.cblocks = cblocks;
    if (cblocks != null) {
      firstLine = keyPacking[0];
      maxRel = keyPacking[1];
      colBits = keyPacking[2];
      colMaskI = (1 << colBits) - 1;
      csummary = new int[(count + STRIDE - 1) / STRIDE];
      for (int i = 0; i < csummary.length; i++) {
        csummary[i] = cblocks[i * CBLOCK];
      }
      summary = null;
    } else {
      firstLine = maxRel = colBits = colMaskI = 0;
      csummary = null;
      summary = new long[(count + STRIDE - 1) / STRIDE];
      for (int i = 0; i < summary.length; i++) {
        summary[i] = blocks[i * blockLongs];
      }
    }
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

  /** Whether rows are bit-packed into one long (else two). */
  boolean narrowRows() {
    return narrow;
  }

  /** Whether keys are page-relative ints (the compact form). */
  boolean compactKeys() {
    return cblocks != null;
  }

  long key(int i) {
    if (cblocks != null) {
      int rel = cblocks[(i >>> SHIFT) * CBLOCK + (i & (STRIDE - 1))];
      return JsTable.positionKey(firstLine + (rel >>> colBits), rel & colMaskI);
    }
    return blocks[(i >>> SHIFT) * blockLongs + (i & (STRIDE - 1))];
  }

  /** A position as a compact page-relative key: -1 before the page, BEYOND after its lines. */
  private int relative(long key) {
    int line = (int) (key >>> 32);
    if (line < firstLine) {
      return -1;
    }
    int rel = line - firstLine;
    if (rel > maxRel) {
      return BEYOND;
    }
    int col = (int) key;
    return rel << colBits | Math.min(col, colMaskI);
  }

  private int floorCompact(long key) {
    int q = relative(key);
    if (q < 0) {
      return -1;
    }
    int[] sm = csummary;
    int lo = 0;
    int hi = sm.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (sm[mid] <= q) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (hi < 0) {
      return -1;
    }
    int[] b = cblocks;
    int base = hi * CBLOCK;
    int j = 0;
    while (j < STRIDE - 1 && b[base + j + 1] <= q) {
      j++;
    }
    return hi * STRIDE + j;
  }

  public long firstKey() {
    return blocks[0];
  }

  /**
   * Index of the last segment with key {@code <= key} (the last of equal keys), or -1: binary
   * search over the summary, then a scan of one block of {@link #STRIDE} keys.
   */
  int floorIndex(long key) {
    if (cblocks != null) {
      return floorCompact(key);
    }
    long[] sm = summary;
    int lo = 0;
    int hi = sm.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (sm[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (hi < 0) {
      return -1;
    }
    long[] b = blocks;
    int base = hi * blockLongs;
    int j = 0;
    while (j < STRIDE - 1 && b[base + j + 1] <= key) {
      j++;
    }
    return hi * STRIDE + j;
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
    int j = i & (STRIDE - 1);
    long k;
    int s;
    int n;
    int line;
    int col;
    if (cblocks != null) {
      int[] c = cblocks;
      int base = (i >>> SHIFT) * CBLOCK;
      int rel = c[base + j];
      k = JsTable.positionKey(firstLine + (rel >>> colBits), rel & colMaskI);
      long r = ((long) c[base + STRIDE + 2 * j] << 32) | (c[base + STRIDE + 2 * j + 1] & 0xFFFFFFFFL);
      s = (int) ((r >>> srcShift) & srcMask) - 1;
      n = (int) ((r >>> nameShift) & nameMask) - 1;
      line = lineBase + (int) (r & lineMask);
      col = (int) ((r >>> colShift) & colMask);
    } else if (narrow) {
      long[] b = blocks;
      int base = (i >>> SHIFT) * blockLongs;
      k = b[base + j];
      long r = b[base + STRIDE + j];
      s = (int) ((r >>> srcShift) & srcMask) - 1;
      n = (int) ((r >>> nameShift) & nameMask) - 1;
      line = lineBase + (int) (r & lineMask);
      col = (int) ((r >>> colShift) & colMask);
    } else {
      long[] b = blocks;
      int base = (i >>> SHIFT) * blockLongs;
      k = b[base + j];
      long r0 = b[base + STRIDE + 2 * j];
      long r1 = b[base + STRIDE + 2 * j + 1];
      s = (int) (r1 >> 32);
      n = (int) r1;
      line = (int) (r0 >>> 32);
      col = (int) r0;
    }
    if (s < 0) {
      return new JsLocation((int) (k >>> 32), (int) k, null, -1, -1, -1, null, false);
    }
    return new JsLocation((int) (k >>> 32), (int) k, sourceUrls[s], sourceIndex[s], line, col,
        n < 0 ? null : names[n], sourceIgnored[s]);
  }

  private static int bits(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }

  /**
   * Encodes segments [from, to) of {@code m}; {@code globalSource} maps the map's source indices
   * to deduplicated table indices.
   */
  static byte[] encode(Mappings m, int from, int to, int[] globalSource, String[] globalUrls,
      java.util.BitSet ignored, java.util.List<String> mapNames, long nextFirstKey,
      java.util.List<MinifiedScopes.Interval> scopes) {
    java.util.HashMap<Integer, Integer> localSrc = new java.util.HashMap<>();
    java.util.ArrayList<Integer> srcOrder = new java.util.ArrayList<>();
    java.util.HashMap<String, Integer> localName = new java.util.HashMap<>();
    java.util.ArrayList<String> nameOrder = new java.util.ArrayList<>();
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

  private static void encodeScopes(ByteSink out, java.util.List<MinifiedScopes.Interval> scopes) {
    if (scopes == null) {
      out.write(0);
      return;
    }
    out.write(1);
    java.util.LinkedHashMap<String, Integer> names = new java.util.LinkedHashMap<>();
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
      out.writeVar(switch (iv.kind()) {
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
      case 0 -> new MinifiedScopes.Interval(line, col, MinifiedScopes.ScopeKind.UNKNOWN, null, false);
      case 1 -> new MinifiedScopes.Interval(line, col, MinifiedScopes.ScopeKind.ANONYMOUS, null, false);
      default -> new MinifiedScopes.Interval(line, col, MinifiedScopes.ScopeKind.NAMED,
          scopeNames[(ref - 2) >> 1], (ref & 1) != 0);
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
    int nBlocks = (count + STRIDE - 1) / STRIDE;
    int firstLine = (int) (keys[0] >>> 32);
    int maxRel = (int) (keys[count - 1] >>> 32) - firstLine;
    int maxKeyCol = 0;
    for (long k : keys) {
      maxKeyCol = Math.max(maxKeyCol, (int) k);
    }
    int kColBits = bits(maxKeyCol);
    if (packing != null && bits(maxRel) + kColBits <= 30) {
      int[] cb = new int[nBlocks * CBLOCK];
      for (int i = 0; i < nBlocks * STRIDE; i++) {
        int base = (i >>> SHIFT) * CBLOCK;
        int j = i & (STRIDE - 1);
        if (i >= count) {
          cb[base + j] = Integer.MAX_VALUE;
          continue;
        }
        cb[base + j] = ((int) (keys[i] >>> 32) - firstLine) << kColBits | (int) keys[i];
        long r = srcs[i] < 0 ? 0L
            : (ols[i] - minLine) | (long) ocs[i] << wl | (long) (srcs[i] + 1) << (wl + wc)
                | (long) (nms[i] + 1) << (wl + wc + ws);
        cb[base + STRIDE + 2 * j] = (int) (r >>> 32);
        cb[base + STRIDE + 2 * j + 1] = (int) r;
      }
      return new MappingPage(null, cb, new int[] {firstLine, maxRel, kColBits}, count, packing,
          urls, idx, ign, names, next, scopes(in));
    }
    int blockLongs = STRIDE * (packing != null ? 2 : 3);
    long[] blocks = new long[nBlocks * blockLongs];
    for (int i = 0; i < nBlocks * STRIDE; i++) {
      int base = (i >>> SHIFT) * blockLongs;
      int j = i & (STRIDE - 1);
      if (i >= count) {
        blocks[base + j] = Long.MAX_VALUE;
        continue;
      }
      blocks[base + j] = keys[i];
      if (packing != null) {
        blocks[base + STRIDE + j] = srcs[i] < 0 ? 0L
            : (ols[i] - minLine) | (long) ocs[i] << wl | (long) (srcs[i] + 1) << (wl + wc)
                | (long) (nms[i] + 1) << (wl + wc + ws);
      } else {
        blocks[base + STRIDE + 2 * j] = srcs[i] < 0 ? -1L : ((long) ols[i] << 32) | ocs[i];
        blocks[base + STRIDE + 2 * j + 1] = srcs[i] < 0 ? -1L : ((long) srcs[i] << 32) | (nms[i] & 0xFFFFFFFFL);
      }
    }
    return new MappingPage(blocks, null, null, count, packing, urls, idx, ign, names, next,
        scopes(in));
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
        throw new IllegalArgumentException("corrupt js mapping page: scope name index out of range");
      }
      scopeRef[i] = ref;
    }
    return new Scopes(scopeKeys, scopeRef, scopeNames);
  }

}

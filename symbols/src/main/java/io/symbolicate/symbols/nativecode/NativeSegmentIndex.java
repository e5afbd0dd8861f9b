package io.symbolicate.symbols.nativecode;

import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * A native page being decoded: its records as the body gives them (FUNCs, PUBLICs, line records,
 * inline ranges, return pads), filled by {@link NativePageDecoder}, and the segment index built
 * over them ({@link #buildSegments}). A segment is a maximal address range with one answer
 * (function or public or nothing, line record, innermost inline range); the index finds the
 * segment of an address with a bucket read and a short scan, and once the dense per-segment
 * records carry everything a lookup reads, the records are released. {@link NativePage} takes
 * the arrays that are left and does the lookups.
 */
final class NativeSegmentIndex {
  static final String NAME_OMITTED = "<name omitted>";
  private static final SharedUtf8 OMITTED = SharedUtf8.of(NAME_OMITTED);

  final long firstKey;
  // names and paths as UTF-8 bytes, which the output encoder copies as they are (SharedUtf8)
  SharedUtf8[] strings;
  // FUNCs, PUBLICs, line records and inline ranges as decoded: the segment index is built from
  // them; once the dense records carry everything a lookup reads, they are released
  // FUNCs
  long[] fStart;
  long[] fSize;
  int[] fName;
  boolean[] fMulti;
  // PUBLICs
  long[] pAddr;
  int[] pName;
  boolean[] pMulti;
  // line records (per FUNC, sorted, disjoint)
  long[] lStart;
  int[] lLine;
  int[] lFile;
  // inline ranges (per FUNC, parent first)
  long[] rStart;
  // per range, side by side (one cache line serves a chain step): parent, origin string,
  // call-site line, call-site file string, start (low, high 32 bits), chain length
  static final int R = 8;
  int[] rInfo;
  // segments
  long[] sStart;
  int[] sSym; // >= 0 FUNC index, -1 nothing, <= -2 PUBLIC (-2 - index)
  int[] sLine;
  int[] sRange;
  int nSeg;
  // frozen segment index: offsets from firstKey (when the page spans < 2^31 bytes) and a
  // bucket table (2^bucketShift bytes of address per bucket, about four buckets per segment)
  // giving the segment at each bucket's start, so a search touches one bucket and, only when a
  // segment starts inside that bucket, a short scan of segOff
  int[] segOff;
  int[] bucket;
  int bucketShift;
  // bucket flag: a segment starts inside the bucket, so the search scans segOff from there
  static final int SCAN = 0x80000000;
  // answers per segment (sym, line, range) until densified
  int[] seg;
  // denormalised answers for narrow pages, side by side: kind, name, base, flags, line, file,
  // line base, range (one cache line per lookup instead of one per array) ...
  static final int D = 8;
  int[] dense;
  // ... and the references a result needs: name, line file, innermost inline range. The
  // Strings themselves are not touched by a lookup.
  Object[] segRef;
  InlineRange[] rangeObj;
  // the answer per segment, built on the segment's first lookup (see lookup) ...
  NativeFrame[] answers;
  // ... and per bucket that lies inside one segment, so such a lookup reads one array slot and
  // the answer instead of the bucket, the segment's slot and the answer (misses in a row)
  NativeFrame[] byBucket;
  // estimate of the heap the page holds once every segment was looked up
  long heapBytes;
  // of which what consumers may keep with the names (SharedUtf8.keep; pages without the memo)
  long keptBytes;
  // return pads (symbfile): sorted addresses, each with frames padFrom[i] until padFrom[i + 1],
  // outermost first; null on pages without pads
  long[] padAddr;
  int[] padFrom;
  SharedUtf8[] padName;
  SharedUtf8[] padFile;
  int[] padLine;

  NativeSegmentIndex(
      long firstKey, SharedUtf8[] strings, int nFuncs, int nPubs, int nLines, int nRanges) {
    this.firstKey = firstKey;
    this.strings = strings;
    fStart = new long[nFuncs];
    fSize = new long[nFuncs];
    fName = new int[nFuncs];
    fMulti = new boolean[nFuncs];
    pAddr = new long[nPubs];
    pName = new int[nPubs];
    pMulti = new boolean[nPubs];
    lStart = new long[nLines];
    lLine = new int[nLines];
    lFile = new int[nLines];
    rStart = new long[nRanges];
    rInfo = new int[R * nRanges];
  }

  private void emit(long start, int sym, int line, int range) {
    if (nSeg > 0 && sSym[nSeg - 1] == sym && sLine[nSeg - 1] == line && sRange[nSeg - 1] == range) {
      return;
    }
    if (nSeg == sStart.length) {
      int n = Math.max(16, nSeg * 2);
      sStart = Arrays.copyOf(sStart, n);
      sSym = Arrays.copyOf(sSym, n);
      sLine = Arrays.copyOf(sLine, n);
      sRange = Arrays.copyOf(sRange, n);
    }
    sStart[nSeg] = start;
    sSym[nSeg] = sym;
    sLine[nSeg] = line;
    sRange[nSeg] = range;
    nSeg++;
  }

  /**
   * Evaluates Breakpad's rule at every FUNC start/end and PUBLIC address: the FUNC containing
   * the address; else the nearest PUBLIC below if it lies above the nearest FUNC start below;
   * else nothing. Inside a FUNC, line and inline boundaries refine the segments.
   */
  void buildSegments(int[] lineFrom, int[] rangeFrom, long[] lHigh, long[] rHigh, boolean memo) {
    int nf = fStart.length;
    int np = pAddr.length;
    int cap = lStart.length + 2 * rStart.length + 2 * nf + np + 4;
    sStart = new long[cap];
    sSym = new int[cap];
    sLine = new int[cap];
    sRange = new int[cap];
    long[] points = new long[2 * nf + np];
    int n = 0;
    for (int f = 0; f < nf; f++) {
      points[n++] = fStart[f];
      long end = fStart[f] + fSize[f];
      if (end != 0) {
        points[n++] = end;
      }
    }
    for (int i = 0; i < np; i++) {
      points[n++] = pAddr[i];
    }
    n = Unsigned.sortUnique(points, n);
    long[] bounds = new long[16];
    int[] stack = new int[16];
    int lastFunc = -1;
    if (n == 0 || Unsigned.lt(firstKey, points[0])) {
      emit(firstKey, -1, -1, -1); // unwind records below the first symbol: no answer there
    }
    for (int k = 0; k < n; k++) {
      long b = points[k];
      int f = Unsigned.floor(fStart, nf, b);
      if (f >= 0 && Unsigned.contains(fStart[f], fSize[f], b)) {
        if (f != lastFunc) {
          lastFunc = f;
          bounds = funcSegments(f, lineFrom, rangeFrom, lHigh, rHigh, bounds, stack);
          if (stack.length < rangeFrom[f + 1] - rangeFrom[f]) {
            stack = new int[rangeFrom[f + 1] - rangeFrom[f]];
          }
        }
        continue;
      }
      int p = Unsigned.floor(pAddr, np, b);
      if (p >= 0 && (f < 0 || Unsigned.lt(fStart[f], pAddr[p]))) {
        emit(b, -2 - p, -1, -1);
      } else {
        emit(b, -1, -1, -1);
      }
    }
    // FUNCs that overlap (the builder drops them, so only a corrupt page has them) leave
    // segments out of order, and the bucket index and the binary search would then give
    // different answers for one address (fuzz finding: memo vs plain at the top address)
    for (int i = 1; i < nSeg; i++) {
      if (!Unsigned.lt(sStart[i - 1], sStart[i])) {
        throw new CorruptTableException(
            "native page symbols overlap or are out of order at 0x" + Long.toHexString(sStart[i]));
      }
    }
    freeze(memo);
  }

  private void freeze(boolean memo) {
    long strs = 0;
    for (SharedUtf8 str : strings) {
      // the SharedUtf8, its bytes and their array header; plus the String (and its bytes) that
      // a page memoising its answers keeps (see str), or, on a page whose answers carry the
      // SharedUtf8 itself, what a consumer may keep with it (SharedUtf8.keep)
      int len = str == null ? 0 : str.getByteLength();
      strs += 16 + 40 + len + (memo ? 24 + 16 + len : 0);
      if (!memo) {
        keptBytes += SharedUtf8.KEPT_BYTES + (long) SharedUtf8.KEPT_BYTES_PER_BYTE * len;
      }
    }
    int nr = rStart.length;
    long ranges = 40L * nr;
    rangeObj = new InlineRange[nr];
    for (int r = 0; r < nr; r++) {
      int at = R * r;
      int origin = rInfo[at + 1];
      int cf = rInfo[at + 3];
      int parent = rInfo[at];
      rangeObj[r] =
          new InlineRange(
              origin >= 0 ? strings[origin] : OMITTED,
              cf >= 0 ? strings[cf] : null,
              rInfo[at + 2],
              rStart[r],
              parent >= 0 ? rangeObj[parent] : null);
    }
    answers = memo ? new NativeFrame[nSeg] : null;
    seg = new int[3 * nSeg];
    for (int i = 0; i < nSeg; i++) {
      seg[3 * i] = sSym[i];
      seg[3 * i + 1] = sLine[i];
      seg[3 * i + 2] = sRange[i];
    }
    sSym = null;
    sLine = null;
    sRange = null;
    long span = nSeg == 0 ? 0 : sStart[nSeg - 1] - firstKey;
    if (nSeg > 0 && span >= 0 && span <= Integer.MAX_VALUE) {
      segOff = new int[nSeg];
      for (int i = 0; i < nSeg; i++) {
        segOff[i] = (int) (sStart[i] - firstKey);
      }
      sStart = null;
      int last = segOff[nSeg - 1];
      int shift = 0;
      while (((long) last >>> shift) + 1 > 4L * nSeg + 16) {
        shift++;
      }
      bucketShift = shift;
      bucket = new int[(last >>> shift) + 1];
      byBucket = memo ? new NativeFrame[bucket.length] : null;
      int at = 0;
      for (int b = 0; b < bucket.length; b++) {
        long start = (long) b << shift;
        while (at + 1 < nSeg && segOff[at + 1] <= start) {
          at++;
        }
        long end = start + (1L << shift);
        bucket[b] = at + 1 < nSeg && segOff[at + 1] < end ? at | SCAN : at;
      }
      dense = densify();
      if (dense != null) {
        // the dense records and their references carry everything a lookup reads
        seg = null;
        fStart = null;
        fSize = null;
        fName = null;
        fMulti = null;
        pAddr = null;
        pName = null;
        pMulti = null;
        lStart = null;
        lLine = null;
        lFile = null;
        rStart = null;
        rInfo = null;
        rangeObj = null;
        strings = null;
      }
    } else {
      sStart = Arrays.copyOf(sStart, nSeg);
    }
    heapBytes = estimateHeap(memo, strs + keptBytes, ranges);
  }

  /**
   * Arrays still held, plus strings, inline ranges and (with the memo) one answer per segment.
   * On a page without dense records this counts fSize, rStart and rInfo too, which only the
   * build reads: the estimate is the one the page had before decoding and lookups were split.
   */
  private long estimateHeap(boolean memo, long strs, long ranges) {
    long b = 64 + strs + ranges;
    for (Object a :
        new Object[] {
          fStart, fSize, fName, fMulti, pAddr, pName, pMulti, lStart, lLine, lFile, rStart, rInfo,
          sStart, seg, segOff, bucket, dense, segRef, rangeObj, answers, byBucket, padAddr, padFrom,
          padName, padFile, padLine
        }) {
      b += arrayBytes(a);
    }
    if (memo) {
      b += 96L * nSeg; // a NativeFrame with its boxed line and line base
    }
    return b;
  }

  private static long arrayBytes(Object a) {
    if (a == null) {
      return 0;
    }
    int n = Array.getLength(a);
    Class<?> t = a.getClass().getComponentType();
    int each = t == long.class ? 8 : t == int.class ? 4 : t == boolean.class ? 1 : 4;
    return 16 + (long) n * each;
  }

  /** Per segment: kind, name, base, flags, line, file, line base, range; null if a base is wide. */
  private int[] densify() {
    int[] d = new int[D * nSeg];
    Object[] ss = new Object[3 * nSeg];
    for (int i = 0; i < nSeg; i++) {
      int at = D * i;
      int sym = seg[3 * i];
      int line = seg[3 * i + 1];
      d[at + 7] = seg[3 * i + 2];
      ss[3 * i + 2] = seg[3 * i + 2] >= 0 ? rangeObj[seg[3 * i + 2]] : null;
      d[at + 5] = -1;
      if (sym == -1) {
        d[at] = -1;
        continue;
      }
      long base;
      if (sym < -1) {
        int p = -2 - sym;
        d[at] = 1;
        d[at + 1] = pName[p];
        base = pAddr[p];
        d[at + 3] = pMulti[p] ? 1 : 0;
      } else {
        d[at] = 0;
        d[at + 1] = fName[sym];
        base = fStart[sym];
        d[at + 3] = fMulti[sym] ? 1 : 0;
      }
      long baseOff = base - firstKey;
      if (baseOff < 0 || baseOff > Integer.MAX_VALUE) {
        return null;
      }
      d[at + 2] = (int) baseOff;
      if (line >= 0) {
        long lineOff = lStart[line] - firstKey;
        if (lineOff < Integer.MIN_VALUE || lineOff > Integer.MAX_VALUE) {
          return null;
        }
        d[at + 3] |= 2;
        d[at + 4] = lLine[line];
        d[at + 5] = lFile[line];
        d[at + 6] = (int) lineOff;
        ss[3 * i + 1] = lFile[line] >= 0 ? strings[lFile[line]] : null;
      }
      ss[3 * i] = strings[d[at + 1]];
    }
    segRef = ss;
    return d;
  }

  private long[] funcSegments(
      int f,
      int[] lineFrom,
      int[] rangeFrom,
      long[] lHigh,
      long[] rHigh,
      long[] bounds,
      int[] stack) {
    long s = fStart[f];
    long last = s + fSize[f] - 1;
    int l0 = lineFrom[f];
    int l1 = lineFrom[f + 1];
    int r0 = rangeFrom[f];
    int r1 = rangeFrom[f + 1];
    int need = 1 + 2 * (l1 - l0) + 2 * (r1 - r0);
    if (bounds.length < need) {
      bounds = new long[need];
    }
    if (stack.length < r1 - r0) {
      stack = new int[r1 - r0];
    }
    int n = 0;
    bounds[n++] = s;
    for (int i = l0; i < l1; i++) {
      n = addInside(bounds, n, lStart[i], s, last);
      n = addInside(bounds, n, lHigh[i] + 1, s, last);
    }
    for (int i = r0; i < r1; i++) {
      n = addInside(bounds, n, rStart[i], s, last);
      n = addInside(bounds, n, rHigh[i] + 1, s, last);
    }
    n = Unsigned.sortUnique(bounds, n);
    int li = l0;
    int ri = r0;
    int sp = 0;
    for (int k = 0; k < n; k++) {
      long b = bounds[k];
      while (li < l1 && Unsigned.lt(lHigh[li], b)) {
        li++;
      }
      int line = li < l1 && Unsigned.le(lStart[li], b) ? li : -1;
      while (sp > 0 && Unsigned.lt(rHigh[stack[sp - 1]], b)) {
        sp--;
      }
      while (ri < r1 && Unsigned.le(rStart[ri], b)) {
        if (Unsigned.le(b, rHigh[ri])) {
          stack[sp++] = ri;
        }
        ri++;
      }
      emit(b, f, line, sp > 0 ? stack[sp - 1] : -1);
    }
    return bounds;
  }

  private static int addInside(long[] a, int n, long v, long s, long last) {
    if (Unsigned.lt(s, v) && Unsigned.le(v, last)) {
      a[n++] = v;
    }
    return n;
  }
}

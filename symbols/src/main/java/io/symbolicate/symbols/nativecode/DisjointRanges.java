package io.symbolicate.symbols.nativecode;

/**
 * A growing set of disjoint address ranges {@code [start, high]} (unsigned), asked whether a new
 * range overlaps any of them: Breakpad's RangeMap rule for FUNCs that arrive out of address order.
 *
 * <p>Primitive, 16 bytes a range: the ranges sit in sorted runs whose sizes are distinct powers of
 * two, like the bits of the count (run k is empty or holds 2^k ranges). An add merges the new
 * range with the full runs below the first empty one (each range is moved about log2(n) times in
 * all); a query binary-searches each run. A {@code TreeMap<Long, Long>} took ~90 bytes a range
 * (an entry and two boxed longs), several times the .sym line that made it.
 */
final class DisjointRanges {
  private final long[][] starts = new long[32][];
  private final long[][] highs = new long[32][];
  private long size;

  long size() {
    return size;
  }

  /** Heap bytes of the runs: a start and a high per range. */
  long heapBytes() {
    return 16 * size;
  }

  /** Whether {@code [start, high]} shares an address with a range of the set. */
  boolean overlaps(long start, long high) {
    for (int k = 0; k < starts.length; k++) {
      long[] s = starts[k];
      if (s == null) {
        continue;
      }
      long[] h = highs[k];
      // the run's ranges are disjoint and sorted: only the last one starting at or before start,
      // and the first one after it, can overlap
      int j = Unsigned.floor(s, s.length, start);
      if (j >= 0 && Unsigned.le(start, h[j])) {
        return true;
      }
      if (j + 1 < s.length && Unsigned.le(s[j + 1], high)) {
        return true;
      }
    }
    return false;
  }

  /** Adds a range that {@link #overlaps} none of the set's ({@code start <= high}, unsigned). */
  void add(long start, long high) {
    long[] s = {start};
    long[] h = {high};
    int k = 0;
    while (starts[k] != null) {
      long[] ms = new long[s.length + starts[k].length];
      long[] mh = new long[ms.length];
      merge(s, h, starts[k], highs[k], ms, mh);
      starts[k] = null;
      highs[k] = null;
      s = ms;
      h = mh;
      k++;
    }
    starts[k] = s;
    highs[k] = h;
    size++;
  }

  /** Merges two runs sorted by unsigned start (disjoint ranges: no start is in both). */
  private static void merge(long[] as, long[] ah, long[] bs, long[] bh, long[] os, long[] oh) {
    int i = 0;
    int j = 0;
    int o = 0;
    while (i < as.length && j < bs.length) {
      if (Unsigned.lt(as[i], bs[j])) {
        os[o] = as[i];
        oh[o++] = ah[i++];
      } else {
        os[o] = bs[j];
        oh[o++] = bh[j++];
      }
    }
    int ra = as.length - i;
    System.arraycopy(as, i, os, o, ra);
    System.arraycopy(ah, i, oh, o, ra);
    o += ra;
    int rb = bs.length - j;
    System.arraycopy(bs, j, os, o, rb);
    System.arraycopy(bh, j, oh, o, rb);
  }
}

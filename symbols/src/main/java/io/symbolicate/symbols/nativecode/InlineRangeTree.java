package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/**
 * The inline ranges of one FUNC, nested by their INLINE records' nest levels as Breakpad's
 * processor nests them: a range of level L goes under the level L-1 ranges it overlaps, cut to
 * each of them (a part outside every one has no caller and is dropped); ranges of one level are
 * kept disjoint (a range is cut to start after the one before it at that level, as symbolic
 * trims overlapping sibling inlinees). Containment alone cannot decide: Mozilla's dump_syms
 * merges the ranges of one call site (origin, level, call line, call file) across different
 * callers, so a call's ranges may start where, or even span, its callers' ranges start.
 *
 * <p>Ranges are collected first, then nested level by level in address order, so the cost is a
 * sort and a binary search per range, whatever order the records come in.
 */
final class InlineRangeTree {
  // nodes are indexes into parallel arrays, node 0 the root; reused from FUNC to FUNC (a million
  // INLINE ranges in a big file were a million objects of garbage as nodes): [1, used] are in the
  // tree now. A node's children: kids[node][0, nk[node]), sorted and disjoint.
  private long[] nStart = new long[64];
  private long[] nHigh = new long[64];
  private int[] nRec = new int[64];
  private int[] nk = new int[64];
  private int[][] kids = new int[64][];
  private int used;
  private int[] stack = new int[16];
  private int[] stackIdx = new int[16];
  private int[] stackNext = new int[16];

  // the ranges added, in arrival order: [0, added)
  private long[] aBase = new long[64];
  private long[] aHigh = new long[64];
  private int[] aRec = new int[64];
  private int[] aLevel = new int[64];
  private int added;
  private long dropped;

  // the nodes of the level being built and of the one above it, in address order
  private int[] upper = new int[64];
  private int[] lower = new int[64];

  /** Nodes kept for the next FUNC at most; a FUNC with more (hostile) leaves them to the collector. */
  static final int POOL_KEEP = 1 << 16;

  private static final int[] EMPTY = new int[0];
  private long[] start = new long[64];
  private long[] high = new long[64];
  private int[] rec = new int[64];
  private int[] parent = new int[64];

  InlineRangeTree() {
    Arrays.fill(kids, EMPTY);
    nRec[0] = -1;
  }

  void clear() {
    nk[0] = 0;
    if (used > POOL_KEEP) {
      nStart = new long[64];
      nHigh = new long[64];
      nRec = new int[64];
      nk = new int[64];
      kids = new int[64][];
      Arrays.fill(kids, EMPTY);
      nRec[0] = -1;
    }
    if (added > POOL_KEEP) {
      aBase = new long[64];
      aHigh = new long[64];
      aRec = new int[64];
      aLevel = new int[64];
      upper = new int[64];
      lower = new int[64];
    }
    used = 0;
    added = 0;
    dropped = 0;
  }

  /** Ranges added since the last {@link #clear}. */
  int added() {
    return added;
  }

  /** Range parts left out by the last {@link #flatten} for the node limit. */
  long dropped() {
    return dropped;
  }

  /** Adds [base, hi] of INLINE record {@code record} at nest level {@code level} (>= 0). */
  void add(long base, long hi, int record, int level) {
    if (added == aBase.length) {
      int m = added * 2;
      aBase = Arrays.copyOf(aBase, m);
      aHigh = Arrays.copyOf(aHigh, m);
      aRec = Arrays.copyOf(aRec, m);
      aLevel = Arrays.copyOf(aLevel, m);
    }
    aBase[added] = base;
    aHigh[added] = hi;
    aRec[added] = record;
    aLevel[added] = level;
    added++;
  }

  /** A node for [start, high] of record r under {@code under}, after its children. */
  private int node(int under, long start, long high, int r) {
    int n = ++used;
    if (n == nk.length) {
      int m = n * 2;
      nStart = Arrays.copyOf(nStart, m);
      nHigh = Arrays.copyOf(nHigh, m);
      nRec = Arrays.copyOf(nRec, m);
      nk = Arrays.copyOf(nk, m);
      kids = Arrays.copyOf(kids, m);
      Arrays.fill(kids, n, m, EMPTY);
    }
    nStart[n] = start;
    nHigh[n] = high;
    nRec[n] = r;
    nk[n] = 0;
    int[] k = kids[under];
    int c = nk[under];
    if (c == k.length) {
      k = kids[under] = Arrays.copyOf(k, Math.max(4, c * 2));
    }
    k[c] = n;
    nk[under] = c + 1;
    return n;
  }

  /** Nests the added ranges, at most {@code maxNodes} nodes (the rest counted as dropped). */
  private void build(int maxNodes) {
    int n = added;
    int[] order = sortedByLevelThenBase(n);
    int nUpper = 0;
    int nLower = 0;
    int level = -1;
    for (int x = 0; x < n; x++) {
      int a = order[x];
      int lv = aLevel[a];
      if (lv != level) {
        if (lv != level + 1) {
          break; // no ranges at the level above: the rest has no callers
        }
        int[] t = upper;
        upper = lower;
        lower = t;
        nUpper = nLower;
        nLower = 0;
        level = lv;
      }
      long b = aBase[a];
      long h = aHigh[a];
      if (nLower > 0) {
        long prevHigh = nHigh[lower[nLower - 1]];
        if (Unsigned.le(h, prevHigh)) {
          continue; // inside the range before it at this level
        }
        if (Unsigned.le(b, prevHigh)) {
          b = prevHigh + 1;
        }
      }
      if (level == 0) {
        if (used >= maxNodes) {
          dropped++;
          continue;
        }
        lower = push(lower, nLower++, node(0, b, h, aRec[a]));
        continue;
      }
      // the first caller range ending at or after b, then every one starting at or before h
      int lo = 0;
      int up = nUpper;
      while (lo < up) {
        int mid = (lo + up) >>> 1;
        if (Unsigned.lt(nHigh[upper[mid]], b)) {
          lo = mid + 1;
        } else {
          up = mid;
        }
      }
      for (int i = lo; i < nUpper && Unsigned.le(nStart[upper[i]], h); i++) {
        int p = upper[i];
        if (used >= maxNodes) {
          dropped++;
          break;
        }
        long s = Unsigned.lt(b, nStart[p]) ? nStart[p] : b;
        long e = Unsigned.lt(nHigh[p], h) ? nHigh[p] : h;
        lower = push(lower, nLower++, node(p, s, e, aRec[a]));
      }
    }
  }

  private static int[] push(int[] a, int i, int v) {
    if (i == a.length) {
      a = Arrays.copyOf(a, i * 2);
    }
    a[i] = v;
    return a;
  }

  /** Indexes of the added ranges by level, then base (unsigned), then arrival (stable). */
  private int[] sortedByLevelThenBase(int n) {
    int[] order = new int[n];
    boolean sorted = true;
    for (int i = 0; i < n; i++) {
      order[i] = i;
      if (i > 0 && compare(i - 1, i) > 0) {
        sorted = false;
      }
    }
    if (!sorted) {
      int[] tmp = new int[n];
      mergeSort(order, tmp, 0, n);
    }
    return order;
  }

  private int compare(int x, int y) {
    int c = Integer.compare(aLevel[x], aLevel[y]);
    return c != 0 ? c : Long.compareUnsigned(aBase[x], aBase[y]);
  }

  // iterative bottom-up merge sort: stable, n log n for any (hostile) order
  private void mergeSort(int[] a, int[] tmp, int from, int to) {
    int n = to - from;
    int[] src = a;
    int[] dst = tmp;
    for (int width = 1; width < n; width *= 2) {
      for (int lo = from; lo < to; lo += 2 * width) {
        int mid = Math.min(lo + width, to);
        int hi = Math.min(lo + 2 * width, to);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
          dst[k++] = compare(src[i], src[j]) <= 0 ? src[i++] : src[j++];
        }
        while (i < mid) {
          dst[k++] = src[i++];
        }
        while (j < hi) {
          dst[k++] = src[j++];
        }
      }
      int[] t = src;
      src = dst;
      dst = t;
    }
    if (src != a) {
      System.arraycopy(src, from, a, from, n);
    }
  }

  /**
   * Nests the added ranges (at most {@code maxNodes} of them) and lists the tree parent-first (a
   * parent has a lower index, siblings in address order); returns the range count.
   */
  int flatten(int maxNodes) {
    build(maxNodes);
    int count = 0;
    int[] nodes = stack;
    int[] idx = stackIdx;
    int[] next = stackNext;
    nodes[0] = 0;
    idx[0] = -1;
    next[0] = 0;
    int sp = 1;
    while (sp > 0) {
      int node = nodes[sp - 1];
      int k = next[sp - 1];
      if (k == nk[node]) {
        sp--;
        continue;
      }
      next[sp - 1] = k + 1;
      if (count == start.length) {
        start = Arrays.copyOf(start, count * 2);
        high = Arrays.copyOf(high, count * 2);
        rec = Arrays.copyOf(rec, count * 2);
        parent = Arrays.copyOf(parent, count * 2);
      }
      int child = kids[node][k];
      start[count] = nStart[child];
      high[count] = nHigh[child];
      rec[count] = nRec[child];
      parent[count] = idx[sp - 1];
      if (sp == nodes.length) {
        nodes = Arrays.copyOf(nodes, sp * 2);
        idx = Arrays.copyOf(idx, sp * 2);
        next = Arrays.copyOf(next, sp * 2);
        stack = nodes;
        stackIdx = idx;
        stackNext = next;
      }
      nodes[sp] = child;
      idx[sp] = count;
      next[sp] = 0;
      sp++;
      count++;
    }
    return count;
  }

  long start(int i) {
    return start[i];
  }

  long high(int i) {
    return high[i];
  }

  int record(int i) {
    return rec[i];
  }

  int parent(int i) {
    return parent[i];
  }
}

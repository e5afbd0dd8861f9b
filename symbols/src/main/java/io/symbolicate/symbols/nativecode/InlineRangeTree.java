package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/**
 * The inline ranges of one FUNC, nested by containment like Breakpad's ContainedRangeMap: a
 * range goes inside the one child that contains it (an equal range nests inside the earlier
 * one) or around the children it contains; a partial overlap is rejected. Iterative, and it
 * counts the element moves out-of-order inserts cost so the caller can bound hostile input.
 */
final class InlineRangeTree {
  // nodes are indexes into parallel arrays, node 0 the root; reused from FUNC to FUNC (a million
  // INLINE ranges in a big file were a million objects of garbage as nodes, and as pooled objects
  // every child stored was a reference store with the collector's barriers): [1, used] are in the
  // tree now. A node's children: kids[node][0, nk[node]), sorted and disjoint.
  private long[] nStart = new long[64];
  private long[] nHigh = new long[64];
  private int[] nRec = new int[64];
  private int[] nk = new int[64];
  private int[][] kids = new int[64][];
  private int used;
  private long moves;
  // the root-to-node path of the last insert: ancestors contain their descendants and siblings
  // are disjoint, so a descent from the root reaches the deepest path node containing a new
  // range; starting there skips the searches (INLINE records come parent first, in address order)
  // (the upward scan costs at most the descents of the last insert, which the budget counted)
  private int[] path = new int[16];
  private int pathLen = 1;
  private int[] stack = new int[16];
  private int[] stackIdx = new int[16];
  private int[] stackNext = new int[16];

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

  long moves() {
    return moves;
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
    used = 0;
    moves = 0;
    pathLen = 1;
  }

  /** A node for [start, high] of record r, without children. */
  private int node(long start, long high, int r) {
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
    return n;
  }

  boolean insert(long base, long hi, int record) {
    int[] path = this.path;
    long[] ns = nStart;
    long[] nh = nHigh;
    int depth = pathLen - 1;
    while (depth > 0 && !(Unsigned.le(ns[path[depth]], base) && Unsigned.le(hi, nh[path[depth]]))) {
      depth--;
    }
    moves += depth; // the descents from the root this start skipped, counted as if made
    int node = path[depth];
    while (true) {
      int[] k = kids[node];
      int count = nk[node];
      int lo = 0;
      int up = count;
      if (count == 0 || Unsigned.lt(nh[k[count - 1]], base)) {
        lo = count; // after every child: ranges mostly come in address order
        up = count;
      }
      while (lo < up) {
        int mid = (lo + up) >>> 1;
        if (Unsigned.lt(nh[k[mid]], base)) {
          lo = mid + 1;
        } else {
          up = mid;
        }
      }
      int i = lo;
      int j = i;
      while (j < count && Unsigned.le(ns[k[j]], hi)) {
        j++;
      }
      if (j - i == 1 && Unsigned.le(ns[k[i]], base) && Unsigned.le(hi, nh[k[i]])) {
        node = k[i]; // descend: iterative, so deep (hostile) nesting cannot overflow
        moves++;
        path = pathAt(++depth, node);
        continue;
      }
      int added = insertHere(node, base, hi, record, i, j);
      if (added < 0) {
        pathLen = depth + 1;
        return false;
      }
      pathAt(depth + 1, added);
      pathLen = depth + 2;
      return true;
    }
  }

  private int[] pathAt(int depth, int node) {
    if (depth == path.length) {
      path = Arrays.copyOf(path, depth * 2);
    }
    path[depth] = node;
    return path;
  }

  /**
   * Stores [base, high] under {@code node}, around its children [i, j) it contains; returns the
   * new node, or -1 on a partial overlap.
   */
  private int insertHere(int node, long base, long hi, int r, int i, int j) {
    int[] k = kids[node];
    for (int m = i; m < j; m++) {
      if (Unsigned.lt(nStart[k[m]], base) || Unsigned.lt(hi, nHigh[k[m]])) {
        return -1;
      }
    }
    int n = node(base, hi, r);
    int count = nk[node];
    int removed = j - i;
    if (removed > 0) {
      if (kids[n].length < removed) {
        kids[n] = new int[Math.max(4, removed)];
      }
      System.arraycopy(k, i, kids[n], 0, removed);
      nk[n] = removed;
    }
    int newCount = count - removed + 1;
    if (newCount > k.length) {
      k = kids[node] = Arrays.copyOf(k, Math.max(4, k.length * 2));
    }
    if (count > j) {
      System.arraycopy(k, j, k, i + 1, count - j);
    }
    moves += count - j + removed;
    k[i] = n;
    nk[node] = newCount;
    return n;
  }

  /** Lists the tree parent-first (a parent has a lower index); returns the range count. */
  int flatten() {
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

package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/**
 * The inline ranges of one FUNC, nested by containment like Breakpad's ContainedRangeMap: a
 * range goes inside the one child that contains it (an equal range nests inside the earlier
 * one) or around the children it contains; a partial overlap is rejected. Iterative, and it
 * counts the element moves out-of-order inserts cost so the caller can bound hostile input.
 */
final class InlineRangeTree {
  private final Node root = new Node();
  private long moves;
  // nodes are reused from FUNC to FUNC (a million INLINE ranges in a big file were a million
  // nodes and child arrays of garbage); pool[0, used) are in the tree now
  private Node[] pool = new Node[64];
  private int used;
  private Node[] stack = new Node[16];
  // the root-to-node path of the last insert: ancestors contain their descendants and siblings
  // are disjoint, so a descent from the root reaches the deepest path node containing a new
  // range; starting there skips the searches (INLINE records come parent first, in address order)
  // (the upward scan costs at most the descents of the last insert, which the budget counted)
  private Node[] path = new Node[16];
  private int pathLen = 1;

  InlineRangeTree() {
    path[0] = root;
  }
  private int[] stackIdx = new int[16];
  private int[] stackNext = new int[16];
  /** Nodes kept for the next FUNC at most; a FUNC with more (hostile) leaves them to the collector. */
  static final int POOL_KEEP = 1 << 16;
  private long[] start = new long[64];
  private long[] high = new long[64];
  private int[] rec = new int[64];
  private int[] parent = new int[64];

  long moves() {
    return moves;
  }

  void clear() {
    root.nk = 0;
    if (used > POOL_KEEP) {
      pool = new Node[64];
      root.kids = Node.EMPTY;
    }
    used = 0;
    moves = 0;
    pathLen = 1;
  }

  /** A node for [start, high] of record r, without children. */
  private Node node(long start, long high, int r) {
    if (used == pool.length) {
      pool = Arrays.copyOf(pool, used * 2);
    }
    Node n = pool[used];
    if (n == null) {
      n = new Node();
      pool[used] = n;
    }
    used++;
    n.start = start;
    n.high = high;
    n.rec = r;
    n.nk = 0;
    return n;
  }

  boolean insert(long base, long hi, int record) {
    Node[] path = this.path;
    int depth = pathLen - 1;
    while (depth > 0 && !(Unsigned.le(path[depth].start, base) && Unsigned.le(hi, path[depth].high))) {
      depth--;
    }
    moves += depth; // the descents from the root this start skipped, counted as if made
    Node node = path[depth];
    while (true) {
      Node[] kids = node.kids;
      int nk = node.nk;
      int lo = 0;
      int up = nk;
      if (nk == 0 || Unsigned.lt(kids[nk - 1].high, base)) {
        lo = nk; // after every child: ranges mostly come in address order
        up = nk;
      }
      while (lo < up) {
        int mid = (lo + up) >>> 1;
        if (Unsigned.lt(kids[mid].high, base)) {
          lo = mid + 1;
        } else {
          up = mid;
        }
      }
      int i = lo;
      int j = i;
      while (j < nk && Unsigned.le(kids[j].start, hi)) {
        j++;
      }
      if (j - i == 1 && Unsigned.le(kids[i].start, base) && Unsigned.le(hi, kids[i].high)) {
        node = kids[i]; // descend: iterative, so deep (hostile) nesting cannot overflow
        moves++;
        path = pathAt(++depth, node);
        continue;
      }
      Node added = node.insertHere(base, hi, record, i, j, this);
      if (added == null) {
        pathLen = depth + 1;
        return false;
      }
      pathAt(depth + 1, added);
      pathLen = depth + 2;
      return true;
    }
  }

  private Node[] pathAt(int depth, Node node) {
    if (depth == path.length) {
      path = Arrays.copyOf(path, depth * 2);
    }
    path[depth] = node;
    return path;
  }

  /** Lists the tree parent-first (a parent has a lower index); returns the range count. */
  int flatten() {
    int count = 0;
    Node[] nodes = stack;
    int[] idx = stackIdx;
    int[] next = stackNext;
    nodes[0] = root;
    idx[0] = -1;
    next[0] = 0;
    int sp = 1;
    while (sp > 0) {
      Node node = nodes[sp - 1];
      int k = next[sp - 1];
      if (k == node.nk) {
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
      Node child = node.kids[k];
      start[count] = child.start;
      high[count] = child.high;
      rec[count] = child.rec;
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

  private static final class Node {
    static final Node[] EMPTY = new Node[0];
    long start;
    long high;
    int rec = -1;
    Node[] kids = EMPTY;
    int nk;

    /**
     * Stores [base, high] here, around the children [i, j) it contains; returns the new node, or
     * null on a partial overlap.
     */
    private Node insertHere(long base, long hi, int r, int i, int j,
        InlineRangeTree budget) {
      for (int m = i; m < j; m++) {
        if (Unsigned.lt(kids[m].start, base) || Unsigned.lt(hi, kids[m].high)) {
          return null;
        }
      }
      Node n = budget.node(base, hi, r);
      int removed = j - i;
      if (removed > 0) {
        if (n.kids.length < removed) {
          n.kids = new Node[Math.max(4, removed)];
        }
        System.arraycopy(kids, i, n.kids, 0, removed);
        n.nk = removed;
      }
      int newCount = nk - removed + 1;
      if (newCount > kids.length) {
        kids = Arrays.copyOf(kids, Math.max(4, kids.length * 2));
      }
      System.arraycopy(kids, j, kids, i + 1, nk - j);
      budget.moves += nk - j + removed;
      kids[i] = n;
      for (int m = newCount; m < nk; m++) {
        kids[m] = null;
      }
      nk = newCount;
      return n;
    }
  }
}

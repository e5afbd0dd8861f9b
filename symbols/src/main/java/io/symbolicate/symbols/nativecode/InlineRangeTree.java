package io.symbolicate.symbols.nativecode;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * The inline ranges of one FUNC, nested by containment like Breakpad's ContainedRangeMap: a
 * range goes inside the one child that contains it (an equal range nests inside the earlier
 * one) or around the children it contains; a partial overlap is rejected. Iterative, and it
 * counts the element moves out-of-order inserts cost so the caller can bound hostile input.
 */
final class InlineRangeTree {
  private final Node root = new Node(0, 0, -1);
  private long moves;
  private long[] start = new long[64];
  private long[] high = new long[64];
  private int[] rec = new int[64];
  private int[] parent = new int[64];

  long moves() {
    return moves;
  }

  void clear() {
    root.clearChildren();
    moves = 0;
  }

  boolean insert(long base, long hi, int record) {
    return root.insert(base, hi, record, this);
  }

  /** Lists the tree parent-first (a parent has a lower index); returns the range count. */
  int flatten() {
    int count = 0;
    ArrayList<Node> nodes = new ArrayList<>();
    int[] idx = new int[16];
    int[] next = new int[16];
    nodes.add(root);
    idx[0] = -1;
    int sp = 1;
    while (sp > 0) {
      Node node = nodes.get(sp - 1);
      int k = next[sp - 1];
      if (k == node.nk) {
        nodes.remove(--sp);
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
      if (sp == idx.length) {
        idx = Arrays.copyOf(idx, sp * 2);
        next = Arrays.copyOf(next, sp * 2);
      }
      nodes.add(child);
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
    final long start;
    final long high;
    final int rec;
    Node[] kids = EMPTY;
    int nk;

    Node(long start, long high, int rec) {
      this.start = start;
      this.high = high;
      this.rec = rec;
    }

    void clearChildren() {
      kids = EMPTY;
      nk = 0;
    }

    /**
     * Stores [base, high]: inside the one child that contains it (equal ranges nest inside the
     * earlier one), or around the children it contains; a partial overlap is rejected.
     */
    boolean insert(long base, long hi, int r, InlineRangeTree budget) {
      Node node = this;
      while (true) {
        Node[] kids = node.kids;
        int nk = node.nk;
        int lo = 0;
        int up = nk;
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
          budget.moves++;
          continue;
        }
        return node.insertHere(base, hi, r, i, j, budget);
      }
    }

    private boolean insertHere(long base, long hi, int r, int i, int j,
        InlineRangeTree budget) {
      for (int m = i; m < j; m++) {
        if (Unsigned.lt(kids[m].start, base) || Unsigned.lt(hi, kids[m].high)) {
          return false;
        }
      }
      Node n = new Node(base, hi, r);
      int removed = j - i;
      if (removed > 0) {
        n.kids = Arrays.copyOfRange(kids, i, j);
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
      return true;
    }
  }
}

package io.symbolicate.symbols.js;

import java.util.Arrays;

/**
 * Decoded segments as parallel int arrays, sorted by (generated line, generated column).
 * {@code source == -1} marks a 1-field segment (maps to nothing); {@code name == -1} means no name.
 */
public final class Mappings {
  int size;
  int[] genLine;
  int[] genCol;
  int[] source;
  int[] origLine;
  int[] origCol;
  int[] name;

  Mappings(int capacity) {
    int c = Math.max(16, capacity);
    genLine = new int[c];
    genCol = new int[c];
    source = new int[c];
    origLine = new int[c];
    origCol = new int[c];
    name = new int[c];
  }

  public int size() {
    return size;
  }

  public int genLine(int i) {
    return genLine[i];
  }

  public int genCol(int i) {
    return genCol[i];
  }

  public int source(int i) {
    return source[i];
  }

  public int origLine(int i) {
    return origLine[i];
  }

  public int origCol(int i) {
    return origCol[i];
  }

  public int name(int i) {
    return name[i];
  }

  /** Index of the last segment at or before (line, column), or -1. */
  public int floorIndex(int line, int column) {
    long key = ((long) line << 32) | column;
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long k = ((long) genLine[mid] << 32) | genCol[mid];
      if (k <= key) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi;
  }

  /** Room for this many segments without growing. */
  int capacity() {
    return genLine.length;
  }

  /** Ensures room for {@code extra} more segments. */
  void reserve(int extra) {
    int need = size + extra;
    if (need <= genLine.length) {
      return;
    }
    resize(Math.max(need, genLine.length + (genLine.length >> 1)));
  }

  /** Grows by half, but to at most {@code max} segments ({@code max > capacity()}). */
  void grow(int max) {
    resize((int) Math.min(max, genLine.length + (long) (genLine.length >> 1)));
  }

  // one column at a time: each old column can be collected as soon as its copy replaces it
  private void resize(int c) {
    genLine = Arrays.copyOf(genLine, c);
    genCol = Arrays.copyOf(genCol, c);
    source = Arrays.copyOf(source, c);
    origLine = Arrays.copyOf(origLine, c);
    origCol = Arrays.copyOf(origCol, c);
    name = Arrays.copyOf(name, c);
  }

  void add(int gl, int gc, int src, int ol, int oc, int nm) {
    if (size == genLine.length) {
      reserve(1);
    }
    int i = size++;
    genLine[i] = gl;
    genCol[i] = gc;
    source[i] = src;
    origLine[i] = ol;
    origCol[i] = oc;
    name[i] = nm;
  }

  /**
   * Sorts segments of one generated line [from, to) by column, stably; segments inside a line are
   * not required to be ordered (tc39 vlqValidNegativeDigit). Primitive: a long per segment
   * (column, then its index, so equal columns keep their order) and one column copy at a time,
   * 12 bytes a segment while it runs (boxed indices took 20 and more).
   */
  void sortLine(int from, int to) {
    int n = to - from;
    long[] order = new long[n];
    for (int i = 0; i < n; i++) {
      order[i] = ((long) genCol[from + i] << 32) | i; // columns are non-negative ints
    }
    Arrays.sort(order);
    int[] copy = new int[n];
    for (int[] col : new int[][] {genCol, source, origLine, origCol, name}) {
      for (int i = 0; i < n; i++) {
        copy[i] = col[from + (int) order[i]];
      }
      System.arraycopy(copy, 0, col, from, n);
    }
  }
}

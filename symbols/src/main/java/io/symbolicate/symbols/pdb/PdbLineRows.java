package io.symbolicate.symbols.pdb;

import java.util.Arrays;

/**
 * Line rows in columns (RVA, length, line, file name index of a {@link PdbFileNames}), growing as
 * rows are added: a table of a million rows is four arrays, not a million objects. Lines are
 * stored as {@code int}; a line number above 2^31 keeps its 32 bits (read it unsigned).
 */
public final class PdbLineRows {
  private long[] rva;
  private long[] length;
  private int[] line;
  private int[] file;
  private int count;

  public PdbLineRows() {
    this(16);
  }

  public PdbLineRows(int capacity) {
    int c = Math.max(4, capacity);
    rva = new long[c];
    length = new long[c];
    line = new int[c];
    file = new int[c];
  }

  public void add(long rva, long length, int line, int file) {
    if (count == this.rva.length) {
      grow(count + 1);
    }
    this.rva[count] = rva;
    this.length[count] = length;
    this.line[count] = line;
    this.file[count] = file;
    count++;
  }

  /** Room for {@code more} rows past the current ones (a count already checked against bytes). */
  public void reserve(long more) {
    if (count + more > rva.length) {
      grow((int) Math.min(Integer.MAX_VALUE - 16, count + more));
    }
  }

  private void grow(int min) {
    int c = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(min, (long) rva.length * 2));
    rva = Arrays.copyOf(rva, c);
    length = Arrays.copyOf(length, c);
    line = Arrays.copyOf(line, c);
    file = Arrays.copyOf(file, c);
  }

  public int count() {
    return count;
  }

  /** Drops the rows from {@code n} on. */
  public void truncate(int n) {
    count = Math.min(count, Math.max(0, n));
  }

  public void clear() {
    count = 0;
  }

  public long rva(int i) {
    return rva[i];
  }

  public long length(int i) {
    return length[i];
  }

  public int line(int i) {
    return line[i];
  }

  public int file(int i) {
    return file[i];
  }

  void setRva(int i, long v) {
    rva[i] = v;
  }

  public void setLength(int i, long v) {
    length[i] = v;
  }

  /**
   * Sorts rows {@code [from, count)} by RVA, stably (rows at one RVA keep their order); nothing
   * to do when they are in order already, as each subsection's and mostly a module's are.
   */
  public void sortByRva(int from) {
    int n = count - from;
    boolean sorted = true;
    boolean packs = n < (1 << 30);
    for (int i = from; i < count; i++) {
      if (i > from && rva[i] < rva[i - 1]) {
        sorted = false;
      }
      if (rva[i] < 0 || rva[i] >= 1L << 32) {
        packs = false;
      }
    }
    if (sorted) {
      return;
    }
    int[] order = new int[n];
    if (packs) { // RVA above, the row's place below: a sort of primitives, stable by the place
      long[] keys = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = rva[from + i] << 31 | i;
      }
      Arrays.sort(keys);
      for (int i = 0; i < n; i++) {
        order[i] = (int) (keys[i] & 0x7fffffffL);
      }
    } else {
      Integer[] boxed = new Integer[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, (x, y) -> Long.compare(rva[from + x], rva[from + y])); // stable
      for (int i = 0; i < n; i++) {
        order[i] = boxed[i];
      }
    }
    long[] r = Arrays.copyOfRange(rva, from, count);
    long[] l = Arrays.copyOfRange(length, from, count);
    int[] li = Arrays.copyOfRange(line, from, count);
    int[] f = Arrays.copyOfRange(file, from, count);
    for (int i = 0; i < n; i++) {
      int o = order[i];
      rva[from + i] = r[o];
      length[from + i] = l[o];
      line[from + i] = li[o];
      file[from + i] = f[o];
    }
  }

  /** The first row at or after {@code at} of rows sorted by RVA ({@link #count()} when none). */
  public int firstAtOrAfter(long at) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (rva[mid] < at) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The row as a {@link PdbLine}, its file named by {@code names}. */
  public PdbLine row(int i, PdbFileNames names) {
    return new PdbLine(rva[i], length[i], line[i] & 0xffffffffL, names.name(file[i]));
  }
}

package io.symbolicate.symbols.dwarf;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One abbreviation table of {@code .debug_abbrev}: per code its tag, whether it has children and
 * its (attribute, form, implicit constant) specs, kept in flat arrays (no object per entry).
 * Codes 1..n (what compilers write) index an array; other codes go through a map.
 */
final class AbbrevTable {
  private static final int NONE = -1;

  private int[] denseIndex = new int[16]; // code -> entry, NONE when absent
  private final Map<Long, Integer> sparse = new HashMap<>();

  int count;
  int[] tag = new int[16];
  boolean[] children = new boolean[16];
  int[] first = new int[16]; // index of the entry's first spec
  int[] specs = new int[16]; // the entry's spec count

  int specCount;
  int[] name = new int[64];
  int[] form = new int[64];
  long[] implicitConst = new long[64];

  /** Reads the table at {@code offset}; stops at its terminating 0 code. */
  static AbbrevTable read(Cursor c, long offset) throws DwarfException {
    c.at(offset, c.buf.limit());
    AbbrevTable t = new AbbrevTable();
    Arrays.fill(t.denseIndex, NONE);
    while (true) {
      long code = c.uleb();
      if (code == 0) {
        return t;
      }
      int tag = c.ulebInt("abbreviation tag");
      boolean children = c.u8() != 0;
      int e = t.count;
      if (e == t.tag.length) {
        int n = e * 2;
        t.tag = Arrays.copyOf(t.tag, n);
        t.children = Arrays.copyOf(t.children, n);
        t.first = Arrays.copyOf(t.first, n);
        t.specs = Arrays.copyOf(t.specs, n);
      }
      t.tag[e] = tag;
      t.children[e] = children;
      t.first[e] = t.specCount;
      while (true) {
        int at = c.ulebInt("attribute");
        int form = c.ulebInt("form");
        if (at == 0 && form == 0) {
          break;
        }
        long implicit = form == Dw.FORM_IMPLICIT_CONST ? c.sleb() : 0;
        if (t.specCount == t.name.length) {
          int n = t.specCount * 2;
          t.name = Arrays.copyOf(t.name, n);
          t.form = Arrays.copyOf(t.form, n);
          t.implicitConst = Arrays.copyOf(t.implicitConst, n);
        }
        t.name[t.specCount] = at;
        t.form[t.specCount] = form;
        t.implicitConst[t.specCount] = implicit;
        t.specCount++;
      }
      t.specs[e] = t.specCount - t.first[e];
      t.count++;
      // dense only for codes near the entry count, so a claimed code allocates nothing
      if (code > 0 && code <= 2L * t.count + 64) {
        int ci = (int) code;
        if (ci >= t.denseIndex.length) {
          int old = t.denseIndex.length;
          t.denseIndex = Arrays.copyOf(t.denseIndex, Math.max(ci + 1, old * 2));
          Arrays.fill(t.denseIndex, old, t.denseIndex.length, NONE);
        }
        if (t.denseIndex[ci] == NONE) {
          t.denseIndex[ci] = e;
        }
      } else {
        t.sparse.putIfAbsent(code, e);
      }
    }
  }

  /** The entry of {@code code}, or -1. */
  int find(long code) {
    if (code > 0 && code < denseIndex.length) {
      return denseIndex[(int) code];
    }
    Integer e = sparse.get(code);
    return e == null ? NONE : e;
  }

  /** Approximate heap bytes, for the cache's bound. */
  long heapBytes() {
    return 4L * denseIndex.length + 17L * tag.length + 16L * name.length + 64L * sparse.size();
  }
}

package io.symbolicate.symbols.dwarf;

/**
 * A set of (long, long) pairs in two open-addressed arrays (16 bytes a slot, no object per entry):
 * the functions already written, kept for the whole file. The pair (0, 0) is never added (a
 * function at 0 is never written).
 */
final class LongPairSet {
  private long[] a = new long[1024];
  private long[] b = new long[1024];
  private int size;

  /** Adds the pair; false when it was there. */
  boolean add(long x, long y) {
    if (x == 0 && y == 0) {
      return false;
    }
    if (size * 2 >= a.length) {
      grow();
    }
    return insert(a, b, x, y);
  }

  private boolean insert(long[] ka, long[] kb, long x, long y) {
    int mask = ka.length - 1;
    int i = hash(x, y) & mask;
    while (true) {
      if (ka[i] == 0 && kb[i] == 0) {
        ka[i] = x;
        kb[i] = y;
        size++;
        return true;
      }
      if (ka[i] == x && kb[i] == y) {
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  private static int hash(long x, long y) {
    long h = x * 0x9E3779B97F4A7C15L + y * 0xC2B2AE3D27D4EB4FL;
    return (int) (h ^ (h >>> 29));
  }

  private void grow() {
    long[] oa = a;
    long[] ob = b;
    a = new long[oa.length * 2];
    b = new long[ob.length * 2];
    size = 0;
    for (int i = 0; i < oa.length; i++) {
      if (oa[i] != 0 || ob[i] != 0) {
        insert(a, b, oa[i], ob[i]);
      }
    }
  }

  int size() {
    return size;
  }
}

package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/** Unsigned 64-bit address helpers (module-relative addresses may use the whole range). */
public final class Unsigned {
  private Unsigned() {}

  static boolean lt(long a, long b) {
    return a + Long.MIN_VALUE < b + Long.MIN_VALUE;
  }

  static boolean le(long a, long b) {
    return a + Long.MIN_VALUE <= b + Long.MIN_VALUE;
  }

  /** Index of the greatest element {@code <= key} in sorted[0, n), or -1. */
  static int floor(long[] sorted, int n, long key) {
    long k = key + Long.MIN_VALUE;
    int lo = 0;
    int hi = n - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] + Long.MIN_VALUE <= k) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return lo - 1;
  }

  /** Whether {@code address} lies in {@code [start, start + size)} without overflowing. */
  static boolean contains(long start, long size, long address) {
    return le(start, address) && lt(address - start, size);
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  /** Sorts a[0, n) as unsigned values and removes duplicates; returns the new length. */
  public static int sortUnique(long[] a, int n) {
    for (int i = 0; i < n; i++) {
      a[i] += Long.MIN_VALUE;
    }
    Arrays.sort(a, 0, n);
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (m == 0 || a[m - 1] != a[i]) {
        a[m++] = a[i];
      }
    }
    for (int i = 0; i < m; i++) {
      a[i] -= Long.MIN_VALUE;
    }
    return m;
  }
}

package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import java.util.List;

/**
 * All pages of a native table decoded up front (CLI, tests, benchmarks), with a bucket table
 * over the page keys: a floor is one bucket read and a short scan, not a binary search whose
 * branches a random address stream mispredicts.
 */
final class NativePageIndex implements PageSource<NativePage> {
  private final long[] keys;
  private final NativePage[] pages;
  private final int[] bucket; // page index at each bucket's start; null without pages
  private final int shift;

  NativePageIndex(List<TablePage> encoded) {
    int n = encoded.size();
    keys = new long[n];
    pages = new NativePage[n];
    for (int i = 0; i < n; i++) {
      TablePage p = encoded.get(i);
      if (i > 0 && Long.compareUnsigned(p.firstKey(), keys[i - 1]) <= 0) {
        throw new IllegalArgumentException("pages must be sorted by unsigned first key");
      }
      keys[i] = p.firstKey();
      pages[i] = NativePage.decode(p.bytes());
    }
    if (n == 0) {
      bucket = null;
      shift = 0;
      return;
    }
    long span = keys[n - 1] - keys[0]; // unsigned
    int s = 0;
    while (Long.compareUnsigned(span >>> s, 4L * n + 16) > 0) {
      s++;
    }
    shift = s;
    bucket = new int[(int) (span >>> s) + 1];
    int at = 0;
    for (int b = 0; b < bucket.length; b++) {
      long start = keys[0] + ((long) b << s);
      while (at + 1 < n && Long.compareUnsigned(keys[at + 1], start) <= 0) {
        at++;
      }
      bucket[b] = at;
    }
  }

  @Override
  public NativePage floor(long key) {
    long[] k = keys;
    int n = k.length;
    if (n == 0 || Long.compareUnsigned(key, k[0]) < 0) {
      return null;
    }
    long rel = key - k[0];
    int[] bk = bucket;
    long b = rel >>> shift;
    int i = bk[Long.compareUnsigned(b, bk.length - 1) > 0 ? bk.length - 1 : (int) b];
    while (i + 1 < n && Long.compareUnsigned(k[i + 1], key) <= 0) {
      i++;
    }
    return pages[i];
  }
}

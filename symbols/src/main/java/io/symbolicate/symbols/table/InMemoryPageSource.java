package io.symbolicate.symbols.table;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** All pages of one table decoded up front, for the CLI, tests and benchmarks. */
public final class InMemoryPageSource<P> implements PageSource<P> {
  private final long[] keys;

  /** The keys with the sign bit flipped: unsigned order as signed order, for a branch-free search. */
  private final long[] flipped;

  private final Object[] pages;

  public InMemoryPageSource(List<TablePage> encoded, Function<byte[], P> decoder) {
    keys = new long[encoded.size()];
    pages = new Object[encoded.size()];
    long prev = 0;
    for (int i = 0; i < encoded.size(); i++) {
      TablePage p = encoded.get(i);
      if (i > 0 && Long.compareUnsigned(p.firstKey(), prev) <= 0) {
        throw new IllegalArgumentException("pages must be sorted by unsigned first key");
      }
      prev = p.firstKey();
      keys[i] = p.firstKey();
      pages[i] = decoder.apply(p.bytes());
    }
    flipped = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      flipped[i] = keys[i] ^ Long.MIN_VALUE;
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public P floor(long key) {
    // branch-free binary search: which way each step goes is unpredictable for random keys, and
    // a conditional move is cheaper than the mispredictions (this runs once per lookup)
    long[] k = flipped;
    long q = key ^ Long.MIN_VALUE;
    int n = k.length;
    if (n == 0 || k[0] > q) {
      return null;
    }
    int lo = 0;
    while (n > 1) {
      int half = n >>> 1;
      lo = k[lo + half] <= q ? lo + half : lo;
      n -= half;
    }
    return (P) pages[lo];
  }

  /** Index of the greatest unsigned key {@code <= key}, or -1. */
  static int floorIndex(long[] sortedUnsigned, long key) {
    int lo = 0;
    int hi = sortedUnsigned.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(sortedUnsigned[mid], key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  public int size() {
    return keys.length;
  }

  @Override
  public String toString() {
    return "InMemoryPageSource" + Arrays.toString(keys);
  }
}

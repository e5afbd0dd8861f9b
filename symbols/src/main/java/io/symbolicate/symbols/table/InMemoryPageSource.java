package io.symbolicate.symbols.table;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** All pages of one table decoded up front, for the CLI, tests and benchmarks. */
public final class InMemoryPageSource<P> implements PageSource<P> {
  private final long[] keys;
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
  }

  @Override
  @SuppressWarnings("unchecked")
  public P floor(long key) {
    int i = floorIndex(keys, key);
    return i < 0 ? null : (P) pages[i];
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

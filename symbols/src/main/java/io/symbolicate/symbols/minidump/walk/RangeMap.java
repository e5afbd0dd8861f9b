package io.symbolicate.symbols.minidump.walk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Non-overlapping address ranges with Breakpad's RangeMap rules: a range overlapping a stored one
 * is refused (the first stored wins), or with "truncate lower" the lower of the two is cut short
 * where the higher begins. Addresses are unsigned.
 */
final class RangeMap<T> {
  record Range<T>(long base, long high, T value) {}

  private final TreeMap<Long, Range<T>> byHigh = new TreeMap<>(Long::compareUnsigned);
  private final boolean truncateLower;

  RangeMap(boolean truncateLower) {
    this.truncateLower = truncateLower;
  }

  boolean store(long base, long size, T value) {
    if (size == 0) {
      return false;
    }
    long high = base + size - 1;
    if (Long.compareUnsigned(high, base) < 0) {
      return false;
    }
    Map.Entry<Long, Range<T>> atBase = byHigh.ceilingEntry(base);
    Map.Entry<Long, Range<T>> atHigh = byHigh.ceilingEntry(high);
    boolean same =
        atBase == null
            ? atHigh == null
            : atHigh != null && atBase.getKey().longValue() == atHigh.getKey().longValue();
    if (!same) {
      return truncateLower && resolve(atBase, base, size, value);
    }
    if (atHigh != null && Long.compareUnsigned(atHigh.getValue().base(), high) <= 0) {
      return truncateLower && resolve(atHigh, base, size, value);
    }
    byHigh.put(high, new Range<>(base, high, value));
    return true;
  }

  private boolean resolve(Map.Entry<Long, Range<T>> other, long base, long size, T value) {
    long otherBase = other.getValue().base();
    int c = Long.compareUnsigned(base, otherBase);
    if (c < 0) {
      return store(base, otherBase - base, value);
    }
    if (c > 0) {
      byHigh.remove(other.getKey());
      byHigh.put(base - 1, new Range<>(otherBase, base - 1, other.getValue().value()));
      return store(base, size, value);
    }
    return false;
  }

  /** The range holding {@code address}, or null. */
  Range<T> find(long address) {
    Map.Entry<Long, Range<T>> e = byHigh.ceilingEntry(address);
    if (e == null || Long.compareUnsigned(e.getValue().base(), address) > 0) {
      return null;
    }
    return e.getValue();
  }

  List<Range<T>> inOrder() {
    return new ArrayList<>(byHigh.values());
  }

  int size() {
    return byHigh.size();
  }
}

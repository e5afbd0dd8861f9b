package io.symbolicate.symbols.nativecode;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Nested address ranges with Breakpad's ContainedRangeMap rules: a range may hold smaller ones
 * but not overlap one partially (that one is refused, as is a second range equal to a stored
 * one); a lookup answers the innermost range holding the address.
 */
final class ContainedRangeMap<T> {
  private final long base;
  private final T entry;
  private TreeMap<Long, ContainedRangeMap<T>> children; // by high address

  ContainedRangeMap() {
    this(0, null, null);
  }

  private ContainedRangeMap(long base, T entry, TreeMap<Long, ContainedRangeMap<T>> children) {
    this.base = base;
    this.entry = entry;
    this.children = children;
  }

  boolean store(long rangeBase, long size, T value) {
    long high = rangeBase + size - 1;
    if (size == 0 || Long.compareUnsigned(high, rangeBase) < 0) {
      return false;
    }
    if (children == null) {
      children = new TreeMap<>(Long::compareUnsigned);
    }
    Map.Entry<Long, ContainedRangeMap<T>> atBase = children.ceilingEntry(rangeBase);
    Map.Entry<Long, ContainedRangeMap<T>> atHigh = children.ceilingEntry(high);
    if (atBase != null
        && atHigh != null
        && atBase.getKey().longValue() == atHigh.getKey()
        && Long.compareUnsigned(rangeBase, atBase.getValue().base) >= 0) {
      ContainedRangeMap<T> child = atBase.getValue();
      if (child.base == rangeBase && atBase.getKey() == high) {
        return false;
      }
      return child.store(rangeBase, size, value);
    }
    boolean containsHigh =
        atHigh != null && Long.compareUnsigned(high, atHigh.getValue().base) >= 0;
    if ((atBase != null && Long.compareUnsigned(rangeBase, atBase.getValue().base) > 0)
        || (containsHigh && Long.compareUnsigned(high, atHigh.getKey()) < 0)) {
      return false;
    }
    TreeMap<Long, ContainedRangeMap<T>> moved = null;
    if (atBase != null) {
      NavigableMap<Long, ContainedRangeMap<T>> inside =
          containsHigh
              ? children.subMap(atBase.getKey(), true, atHigh.getKey(), true)
              : (atHigh == null
                  ? children.tailMap(atBase.getKey(), true)
                  : children.subMap(atBase.getKey(), true, atHigh.getKey(), false));
      if (!inside.isEmpty()) {
        moved = new TreeMap<>(Long::compareUnsigned);
        moved.putAll(inside);
        inside.clear();
      }
    }
    children.put(high, new ContainedRangeMap<>(rangeBase, value, moved));
    return true;
  }

  /** The innermost stored entry whose range holds {@code address}, or null. */
  T find(long address) {
    T found = null;
    ContainedRangeMap<T> node = this;
    while (node.children != null) {
      Map.Entry<Long, ContainedRangeMap<T>> e = node.children.ceilingEntry(address);
      if (e == null || Long.compareUnsigned(address, e.getValue().base) < 0) {
        break;
      }
      node = e.getValue();
      found = node.entry;
    }
    return found;
  }
}

package io.symbolicate.bench.chaos;

import java.util.List;

/**
 * The longest time a partition's output stood still: {@code length} nanoseconds from
 * {@code start} ({@link System#nanoTime()}), between two arrivals or from the last arrival to the
 * window's end.
 */
record Stall(long length, long start) {
  static final Stall NONE = new Stall(0, 0);

  /**
   * The longest gap between consecutive arrivals (sorted, nanoTime) inside {@code [from, to]}:
   * the window's start counts as an arrival (a partition that produced nothing yet stalls from
   * there), and so does its end (a partition silent at the end stalls until then). No arrival at
   * all: the whole window.
   */
  static Stall longest(List<Long> arrivals, long from, long to) {
    long prev = from;
    Stall best = NONE;
    for (long t : arrivals) {
      if (t > to) {
        break;
      }
      if (t >= from && t - prev > best.length()) {
        best = new Stall(t - prev, prev);
      }
      prev = Math.max(prev, t);
    }
    if (to - prev > best.length()) {
      best = new Stall(to - prev, prev);
    }
    return best;
  }
}

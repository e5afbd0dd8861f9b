package io.symbolicate.bench.collect;

import java.util.Arrays;
import java.util.List;

/** The arithmetic of the minidump benchmark's report: percentiles, rates and medians of runs. */
final class Latencies {
  private Latencies() {}

  /**
   * The nearest-rank percentile {@code p} (0 < p <= 100) of {@code values}, in their unit: the
   * smallest value that at least p % of the values do not exceed.
   */
  static long percentile(long[] values, double p) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile " + p + " is not in (0, 100]");
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /** Items per second over {@code nanos}; 0 for an empty window. */
  static double rate(long items, long nanos) {
    return nanos <= 0 ? 0 : items * 1e9 / nanos;
  }

  /** The median of runs' figures (the mean of the middle two for an even count). */
  static double median(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    double[] s = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}

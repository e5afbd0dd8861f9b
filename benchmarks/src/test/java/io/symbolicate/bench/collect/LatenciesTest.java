package io.symbolicate.bench.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The minidump benchmark's report arithmetic: nearest-rank percentiles, rates, medians of runs. */
class LatenciesTest {
  @Test
  void nearestRankPercentilesOfAHundredValues() {
    // 1..100 in reverse: the order of arrival does not matter
    long[] v = LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray();
    assertThat(Latencies.percentile(v, 50)).isEqualTo(50);
    assertThat(Latencies.percentile(v, 99)).isEqualTo(99);
    assertThat(Latencies.percentile(v, 100)).isEqualTo(100);
    assertThat(Latencies.percentile(v, 0.5)).isEqualTo(1);
    assertThat(v[0]).as("the input is not sorted in place").isEqualTo(100);
  }

  @Test
  void aFewSlowUploadsShowInP99NotP50() {
    long[] v = new long[200];
    Arrays.fill(v, 10);
    v[17] = 5000;
    v[150] = 7000;
    v[199] = 9000;
    assertThat(Latencies.percentile(v, 50)).isEqualTo(10);
    // rank ceil(0.99 * 200) = 198 of the sorted values: the smallest of the three slow ones
    assertThat(Latencies.percentile(v, 99)).isEqualTo(5000);
    assertThat(Latencies.percentile(new long[] {42}, 99)).isEqualTo(42);
  }

  @Test
  void badArgumentsAreRefused() {
    assertThatThrownBy(() -> Latencies.percentile(new long[0], 50))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Latencies.percentile(new long[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Latencies.percentile(new long[] {1}, 101))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Latencies.median(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void ratesAndMedians() {
    assertThat(Latencies.rate(300, 2_000_000_000L)).isCloseTo(150, within(1e-9));
    assertThat(Latencies.rate(300, 0)).isZero();
    assertThat(Latencies.median(List.of(5.0, 1.0, 3.0))).isEqualTo(3.0);
    assertThat(Latencies.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
  }
}

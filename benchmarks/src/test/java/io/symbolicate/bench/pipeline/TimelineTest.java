package io.symbolicate.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The baseline-before-the-load's rate, computed over the load run's window afterwards. */
class TimelineTest {
  private static final long S = 1_000_000_000L;

  @Test
  void rateOverAWindowCountsTheOutputsInsideIt() {
    // 1,000 outputs a second for 10 s, sampled every second
    List<long[]> samples = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      samples.add(new long[] {(i + 1) * S, (i + 1) * 1000L});
    }
    var t = new PipelineBenchmark.Timeline(samples, 10 * S);
    assertThat(t.countAt(0)).isZero();
    assertThat(t.countAt(3 * S)).isEqualTo(3000);
    assertThat(t.countAt(3 * S + 1)).isEqualTo(3000);
    assertThat(t.rate(new PipelineBenchmark.LoadWindow(2 * S, 4 * S)))
        .isCloseTo(1000, within(1e-9));
    // the events ran out at 10 s: a window reaching past it is cut there, as the load run's is
    assertThat(t.rate(new PipelineBenchmark.LoadWindow(8 * S, 10 * S)))
        .isCloseTo(1000, within(1e-9));
    // a window starting after the last output has no rate
    assertThat(t.rate(new PipelineBenchmark.LoadWindow(11 * S, S))).isZero();
  }
}

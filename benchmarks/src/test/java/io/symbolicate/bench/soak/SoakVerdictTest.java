package io.symbolicate.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakVerdictTest {
  private static final long MB = 1 << 20;

  private static List<SoakRun.Sample> samples(long heapStartMb, long heapStepMb) {
    List<SoakRun.Sample> s = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      s.add(
          new SoakRun.Sample(
              i * 0.5,
              i * 1000L,
              i * 1000L - 20,
              (heapStartMb + i * heapStepMb) * MB,
              600 * MB,
              3,
              1000,
              40 * MB,
              20 * MB));
    }
    return s;
  }

  @Test
  void steadySeriesAreFlat() {
    assertThat(SoakRun.verdict(samples(100, 0), 100))
        .allSatisfy(t -> assertThat(t.flat()).as(t.name()).isTrue());
  }

  @Test
  void aHeapThatKeepsGrowingIsNot() {
    List<SoakRun.Trend> t = SoakRun.verdict(samples(100, 10), 100);
    assertThat(t)
        .filteredOn(x -> x.name().startsWith("heap"))
        .singleElement()
        .satisfies(x -> assertThat(x.flat()).isFalse());
    assertThat(t)
        .filteredOn(x -> !x.name().startsWith("heap"))
        .allSatisfy(x -> assertThat(x.flat()).isTrue());
  }

  @Test
  void theFirstSampleIsLeftOut() {
    List<SoakRun.Sample> s = samples(100, 0);
    s.set(
        0,
        new SoakRun.Sample(0.5, 0, 0, 10 * MB, 100 * MB, 0, 0, 0, 0)); // cold: far below the rest
    assertThat(SoakRun.verdict(s, 100)).allSatisfy(t -> assertThat(t.flat()).as(t.name()).isTrue());
  }

  @Test
  void residentMemoryIsReadFromProc() {
    assertThat(SoakRun.rss()).isGreaterThan(MB);
  }
}

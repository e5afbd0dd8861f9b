package io.symbolicate.app.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Events per second over the sliding window, on a clock the test moves. */
class EventRatesTest {
  @Test
  void ratesAreTheChangeOverTheWindow() {
    AtomicLong in = new AtomicLong();
    AtomicLong out = new AtomicLong();
    AtomicLong clock = new AtomicLong();
    EventRates rates = new EventRates(in::get, out::get, clock::get);
    assertThat(rates.sample().inPerSecond()).as("nothing to compare with yet").isZero();
    for (int s = 1; s <= 5; s++) {
      clock.addAndGet(1_000_000_000L);
      in.addAndGet(100);
      out.addAndGet(40);
      rates.sample();
    }
    EventRates.Rates r = rates.sample();
    assertThat(r.in()).isEqualTo(500);
    assertThat(r.inPerSecond()).isCloseTo(100, within(1e-9));
    assertThat(r.outPerSecond()).isCloseTo(40, within(1e-9));
    // the window slides: after a quiet 20 s the rate is zero again
    clock.addAndGet(20_000_000_000L);
    rates.sample();
    clock.addAndGet(1_000_000_000L);
    assertThat(rates.sample().inPerSecond()).isZero();
  }

  @Test
  void manySamplesStayBounded() {
    AtomicLong clock = new AtomicLong();
    AtomicLong in = new AtomicLong();
    EventRates rates = new EventRates(in::get, () -> 0, clock::get);
    for (int i = 0; i < 10_000; i++) {
      clock.addAndGet(1_000); // a burst of requests within microseconds
      in.incrementAndGet();
      rates.sample();
    }
    assertThat(rates.sample().inPerSecond()).isPositive();
    assertThat(rates.samples()).isLessThanOrEqualTo(EventRates.MAX_SAMPLES);
  }
}

package io.symbolicate.app.status;

import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * Events in and out per second over the last {@link #WINDOW_NANOS}: a sample of both totals
 * each time it is asked (the status page asks every two seconds) and every {@link #TICK_MILLIS}
 * by the source's ticker, the rate being the change since the oldest sample of the window.
 */
final class EventRates {
  static final long WINDOW_NANOS = 10_000_000_000L;
  static final long TICK_MILLIS = 1_000;

  /** Samples kept at most (a burst of requests must not grow the queue). */
  static final int MAX_SAMPLES = 64;

  record Sample(long nanos, long in, long out) {}

  record Rates(long in, long out, double inPerSecond, double outPerSecond) {}

  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  private final LongSupplier in;
  private final LongSupplier out;
  private final LongSupplier clock;

  EventRates(LongSupplier in, LongSupplier out, LongSupplier nanoClock) {
    this.in = in;
    this.out = out;
    this.clock = nanoClock;
  }

  synchronized int samples() {
    return samples.size();
  }

  synchronized Rates sample() {
    Sample now = new Sample(clock.getAsLong(), in.getAsLong(), out.getAsLong());
    while (!samples.isEmpty()
        && (now.nanos() - samples.peekFirst().nanos() > WINDOW_NANOS
            || samples.size() >= MAX_SAMPLES)) {
      samples.pollFirst();
    }
    Sample first = samples.isEmpty() ? now : samples.peekFirst();
    samples.addLast(now);
    double seconds = (now.nanos() - first.nanos()) / 1e9;
    if (seconds <= 0) {
      return new Rates(now.in(), now.out(), 0, 0);
    }
    return new Rates(
        now.in(),
        now.out(),
        Math.max(0, now.in() - first.in()) / seconds,
        Math.max(0, now.out() - first.out()) / seconds);
  }
}

package io.symbolicate.app.metrics;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

/** Reads a meter's value in tests, whatever its kind (counter, function counter, gauge). */
public final class Meters {
  private Meters() {}

  /** Sum over the meters named {@code name} with these tags (key, value, ...); fails if none. */
  public static double value(MeterRegistry registry, String name, String... tags) {
    double sum = 0;
    for (Meter m : registry.get(name).tags(tags).meters()) {
      for (Measurement x : m.measure()) {
        sum += x.getValue();
        break;
      }
    }
    return sum;
  }
}

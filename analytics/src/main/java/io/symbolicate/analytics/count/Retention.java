package io.symbolicate.analytics.count;

import java.time.Duration;

/**
 * How long crashes are counted and how often expired hours are purged.
 *
 * @param retention crashes older than this (crash time, against the wall clock) are not counted
 * @param purgeInterval how often the stores are purged of expired hours
 */
public record Retention(Duration retention, Duration purgeInterval) {
  /** The first hour (epoch ms) still counted at wall-clock time {@code nowMs}. */
  public long firstCountedHour(long nowMs) {
    return CrashRef.hourOf(nowMs - retention.toMillis());
  }
}

package io.symbolicate.analytics.query;

import io.symbolicate.analytics.count.CrashRef;

/**
 * A top-crashers question: whole hours from {@code sinceHour} (inclusive) to {@code untilHour}
 * (exclusive), for one release and platform or all ({@code null}).
 */
public record CrasherQuery(String release, String platform, long sinceHour, long untilHour) {
  public CrasherQuery {
    if (sinceHour % CrashRef.HOUR_MS != 0 || untilHour % CrashRef.HOUR_MS != 0) {
      throw new IllegalArgumentException("since and until must be whole hours");
    }
    if (untilHour < sinceHour) {
      throw new IllegalArgumentException("until is before since");
    }
  }
}

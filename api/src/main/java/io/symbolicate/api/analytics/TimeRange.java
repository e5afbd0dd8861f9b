package io.symbolicate.api.analytics;

import io.symbolicate.analytics.query.LocalCounts;
import io.symbolicate.api.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hours a top-crashers request covers: {@code since} and {@code until} are ISO-8601 instants
 * or durations before now ({@code 24h}, {@code 90m}, {@code 7d}, {@code 30s}, or ISO's
 * {@code PT24H}); counts are per hour, so {@code since} is rounded down to its hour and
 * {@code until} up.
 */
record TimeRange(long sinceHour, long untilHour) {
  static final Duration DEFAULT_SPAN = Duration.ofHours(24);

  /** Durations beyond this (about 100 years) are refused rather than overflowing. */
  static final Duration MAX_AGO = Duration.ofDays(36_500);

  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})([smhd])");
  private static final long HOUR = 3_600_000L;

  static TimeRange parse(String since, String until, Instant now) {
    Instant u = until == null ? now : instant("until", until, now);
    Instant s = since == null ? u.minus(DEFAULT_SPAN) : instant("since", since, now);
    long sinceHour = LocalCounts.hourOf(s.toEpochMilli());
    long untilMs = u.toEpochMilli();
    long untilHour = LocalCounts.hourOf(untilMs) + (untilMs % HOUR == 0 ? 0 : HOUR);
    if (untilHour <= sinceHour) {
      throw ApiException.badRequest("until (" + u + ") must be after since (" + s + ")");
    }
    return new TimeRange(sinceHour, untilHour);
  }

  private static Instant instant(String name, String v, Instant now) {
    Matcher m = SHORT.matcher(v);
    Duration ago = null;
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      ago =
          switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
    } else if (v.startsWith("P") || v.startsWith("p")) {
      try {
        ago = Duration.parse(v);
      } catch (DateTimeParseException e) {
        throw ApiException.badRequest(
            name + ": '" + QueryString.printable(v) + "' is not an ISO-8601 duration");
      }
    }
    if (ago != null) {
      if (ago.isNegative() || ago.compareTo(MAX_AGO) > 0) {
        throw ApiException.badRequest(
            name + ": a duration must be between 0 and " + MAX_AGO.toDays() + " days");
      }
      return now.minus(ago);
    }
    try {
      Instant t = Instant.parse(v);
      if (t.isBefore(Instant.EPOCH) || t.isAfter(now.plus(MAX_AGO))) {
        throw ApiException.badRequest(name + ": " + t + " is out of range");
      }
      return t;
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          name
              + ": '"
              + QueryString.printable(v)
              + "' is neither an ISO-8601 instant (2026-11-27T10:00:00Z) nor a duration (24h, 90m, 7d, PT24H)");
    }
  }
}

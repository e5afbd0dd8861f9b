package io.symbolicate.api.collect;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Crash ids as Socorro's collector makes them: a random UUID whose last seven hex digits are
 * replaced by the throttle result ({@code 0}: accepted, the only one we give) and the day it
 * arrived, {@code yymmdd} in UTC, e.g. {@code de1bb258-cbbf-4589-a673-34f800261127}. The date
 * lets a store shard by day without a lookup.
 */
public final class CrashIds {
  /** What {@link #create} makes (lower-case hex, the accepted digit, a date). */
  public static final Pattern FORMAT =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{5}0[0-9]{6}");

  /** The prefix Breakpad's and Socorro's clients show before the id ({@code CrashID=bp-...}). */
  public static final String PREFIX = "bp-";

  private CrashIds() {}

  public static String create(LocalDate day) {
    String u = UUID.randomUUID().toString();
    return u.substring(0, u.length() - 7)
        + "0"
        + String.format(
            "%02d%02d%02d", day.getYear() % 100, day.getMonthValue(), day.getDayOfMonth());
  }

  public static String create(long epochMillis) {
    return create(LocalDate.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC));
  }
}

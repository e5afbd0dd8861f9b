package io.symbolicate.symbols.apple;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * {@code Date/Time} values ({@code 2019-01-09 17:42:22 +0000}, {@code 2020-03-27 18:06:51.4969 -0700}:
 * the reference parser's {@code %Y-%m-%d %H:%M:%S%.f %z}) and their UTC RFC 3339 form with as many
 * fraction digits as needed in steps of three (chrono's AutoSi: none, .075, .496900).
 */
final class CrashTimestamps {
  private static final int MAX_FRACTION_DIGITS = 9;

  private CrashTimestamps() {}

  /** The instant, or null when {@code s} is not in the report's format. */
  static Instant parse(String s) {
    Cursor c = new Cursor(s);
    int year = c.number(4, 4);
    if (year < 0 || !c.expect('-')) {
      return null;
    }
    int month = c.number(1, 2);
    if (month < 0 || !c.expect('-')) {
      return null;
    }
    int day = c.number(1, 2);
    if (day < 0 || !c.spaces()) {
      return null;
    }
    int hour = c.number(1, 2);
    if (hour < 0 || !c.expect(':')) {
      return null;
    }
    int minute = c.number(1, 2);
    if (minute < 0 || !c.expect(':')) {
      return null;
    }
    int second = c.number(1, 2);
    if (second < 0) {
      return null;
    }
    int nanos = 0;
    if (c.peek() == '.') {
      c.i++;
      int start = c.i;
      int end = Chars.skipDigits(s, start, s.length());
      if (end == start) {
        return null;
      }
      // digits past nanoseconds are read and dropped, as chrono does
      for (int k = 0; k < MAX_FRACTION_DIGITS; k++) {
        nanos = nanos * 10 + (start + k < end ? s.charAt(start + k) - '0' : 0);
      }
      c.i = end;
    }
    if (!c.spaces()) {
      return null;
    }
    char sign = c.peek();
    if (sign != '+' && sign != '-') {
      return null;
    }
    c.i++;
    int oh = c.number(2, 2);
    if (oh < 0) {
      return null;
    }
    if (c.peek() == ':') {
      c.i++;
    }
    int om = c.number(2, 2);
    if (om < 0 || c.i != s.length() || om > 59 || oh > 23) {
      return null;
    }
    try {
      int offsetSeconds = (sign == '-' ? -1 : 1) * (oh * 3600 + om * 60);
      return LocalDateTime.of(year, month, day, hour, minute, second, nanos)
          .toInstant(ZoneOffset.ofTotalSeconds(offsetSeconds));
    } catch (DateTimeException e) {
      return null; // day 31 of a 30-day month, hour 24, second 60 and the like
    }
  }

  /** UTC, RFC 3339, fraction in groups of three digits, {@code Z}. */
  static String format(Instant t) {
    String base =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC).format(t);
    int n = t.getNano();
    String fraction;
    if (n == 0) {
      fraction = "";
    } else if (n % 1_000_000 == 0) {
      fraction = String.format(".%03d", n / 1_000_000);
    } else if (n % 1_000 == 0) {
      fraction = String.format(".%06d", n / 1_000);
    } else {
      fraction = String.format(".%09d", n);
    }
    return base + fraction + "Z";
  }

  private static final class Cursor {
    final String s;
    int i;

    Cursor(String s) {
      this.s = s;
    }

    char peek() {
      return i < s.length() ? s.charAt(i) : 0;
    }

    boolean expect(char c) {
      if (peek() != c) {
        return false;
      }
      i++;
      return true;
    }

    boolean spaces() {
      int b = i;
      i = Chars.skipSpace(s, i, s.length());
      return i > b;
    }

    int number(int min, int max) {
      int b = i;
      int v = 0;
      while (i < s.length() && i - b < max && Chars.isDigit(s.charAt(i))) {
        v = v * 10 + (s.charAt(i++) - '0');
      }
      return i - b >= min ? v : -1;
    }
  }
}

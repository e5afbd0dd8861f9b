package io.symbolicate.api.status;

import java.util.Locale;

/** How numbers look on the page; status.js formats the same way. */
final class StatusFormat {
  private StatusFormat() {}

  static String count(long n) {
    return Long.toString(n);
  }

  /** Per second, one decimal. */
  static String rate(double perSecond) {
    return String.format(Locale.ROOT, "%.1f", perSecond);
  }

  /** A ratio as a percentage with one decimal, or an en dash before the first lookup. */
  static String percent(Double ratio) {
    return ratio == null ? "\u2013" : String.format(Locale.ROOT, "%.1f %%", ratio * 100);
  }

  /** Milliseconds below ten seconds, else seconds with one decimal. */
  static String millis(double ms) {
    return ms < 10_000 ? Math.round(ms) + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000);
  }
}

package io.symbolicate.analytics.query;

import io.symbolicate.analytics.count.CellValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A signature's counts per hour, release and platform, and its most recent events (latest
 * first), from one or several instances.
 */
public record SignatureHistory(List<HourCount> hours, List<RecentEvent> recent) {

  /** Crashes of the signature in one hour, release and platform. */
  public record HourCount(long hourMs, String release, String platform, long count) {}

  /** An event of the signature and its crash time. */
  public record RecentEvent(String eventId, long crashMs) {}

  static final Comparator<HourCount> HOUR_ORDER =
      Comparator.comparingLong(HourCount::hourMs)
          .thenComparing(HourCount::release)
          .thenComparing(HourCount::platform);
  static final Comparator<RecentEvent> LATEST_FIRST =
      Comparator.comparingLong(RecentEvent::crashMs)
          .reversed()
          .thenComparing(RecentEvent::eventId, (a, b) -> CellValue.compareIds(b, a));

  public long total() {
    return hours.stream().mapToLong(HourCount::count).sum();
  }

  /** The histories of several instances (each holding other releases) as one. */
  public static SignatureHistory merge(List<SignatureHistory> parts, int recentLimit) {
    List<HourCount> hours = new ArrayList<>();
    List<RecentEvent> recent = new ArrayList<>();
    for (SignatureHistory p : parts) {
      hours.addAll(p.hours);
      recent.addAll(p.recent);
    }
    hours.sort(HOUR_ORDER);
    recent.sort(LATEST_FIRST);
    return new SignatureHistory(
        List.copyOf(hours), List.copyOf(recent.subList(0, Math.min(recentLimit, recent.size()))));
  }
}

package io.symbolicate.analytics.query;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The top of the signatures by count, over totals from one or several instances. */
public record TopCrashers(long total, List<CrasherTotal> crashers) {
  /** The most signatures an answer lists. */
  public static final int MAX_LIMIT = 1000;

  static final Comparator<CrasherTotal> MOST_FIRST =
      Comparator.comparingLong(CrasherTotal::count)
          .reversed()
          .thenComparing(CrasherTotal::signature);

  /** Sums the totals of each signature, then keeps the {@code limit} largest (ties by signature). */
  public static TopCrashers of(Collection<CrasherTotal> parts, int limit) {
    Map<String, CrasherTotal> bySignature = new HashMap<>();
    long total = 0;
    for (CrasherTotal t : parts) {
      bySignature.merge(t.signature(), t, CrasherTotal::plus);
      total += t.count();
    }
    List<CrasherTotal> all = new ArrayList<>(bySignature.values());
    all.sort(MOST_FIRST);
    return new TopCrashers(total, List.copyOf(all.subList(0, Math.min(limit, all.size()))));
  }
}

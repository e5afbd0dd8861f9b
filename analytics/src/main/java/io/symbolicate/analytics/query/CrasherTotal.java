package io.symbolicate.analytics.query;

import io.symbolicate.analytics.count.CellValue;

/**
 * One signature's crashes over a query's cells: how many, the earliest and latest crash times,
 * and the latest event (ties: the greatest id).
 */
public record CrasherTotal(
    String signature, long count, long firstMs, long lastMs, String exampleEventId) {

  /** The two totals of the same signature as one. */
  public CrasherTotal plus(CrasherTotal o) {
    boolean otherLater =
        o.lastMs > lastMs
            || o.lastMs == lastMs && CellValue.compareIds(o.exampleEventId, exampleEventId) > 0;
    return new CrasherTotal(
        signature,
        count + o.count,
        Math.min(firstMs, o.firstMs),
        Math.max(lastMs, o.lastMs),
        otherLater ? o.exampleEventId : exampleEventId);
  }

  static CrasherTotal of(String signature, CellValue v) {
    return new CrasherTotal(signature, v.count(), v.firstMs(), v.lastMs(), v.exampleEventId());
  }
}

package io.symbolicate.analytics;

/** The names of the aggregation's state stores (each changelogged) and of its processors. */
public final class AnalyticsStores {
  private AnalyticsStores() {}

  /** Event id to where the event is counted ({@code CrashRef}); partitioned by event id. */
  public static final String EVENTS = "topcrashers-events";

  /** Cell (release, hour, platform, signature) to its count; partitioned by release. */
  public static final String CELLS = "topcrashers-cells";

  /** The events of each cell, by crash time: exact first/last seen and recent event ids. */
  public static final String CELL_EVENTS = "topcrashers-cell-events";

  /** Signature, hour, release, platform to a count: a signature's history without a scan. */
  public static final String SIGNATURE_HOURS = "topcrashers-signature-hours";

  /** The repartition (by release) between the event table and the counts. */
  public static final String BY_RELEASE = "topcrashers-by-release";
}

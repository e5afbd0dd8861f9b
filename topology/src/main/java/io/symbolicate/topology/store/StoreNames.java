package io.symbolicate.topology.store;

/** The names of the topology's state stores (their changelogs are named after them). */
public final class StoreNames {
  /** Global store materialised from the tables topic. */
  public static final String TABLES = "symbol-tables";

  /** Changelogged store of events waiting for symbols, one per platform: this plus the platform's name. */
  public static final String PARKED_PREFIX = "parked-events-";

  /** Aggregate behind the missing-symbols topic. */
  public static final String MISSING = "missing-symbols";

  private StoreNames() {}
}

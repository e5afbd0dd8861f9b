package io.symbolicate.schema.topic;

/**
 * Every topic the application reads or writes, by default name. The names are configurable
 * ({@link TopicNames}); these constants are the defaults and the keys' documentation.
 */
public final class Topics {
  /** Raw crash events (Avro single-object or JSON). Read. */
  public static final String RAW = "crash-events.raw";
  /** Symbolicated events (Avro single-object, {@code SymbolicatedEvent}). Written. */
  public static final String SYMBOLICATED = "crash-events.symbolicated";
  /** Input records that could not be processed, with their bytes and a reason. Written. */
  public static final String DLQ = "crash-events.dlq";
  /** Modules the stream needs: written by the stream, read by the loader. */
  public static final String SYMBOL_REQUESTS = "symbols.requests";
  /** Compacted: table pages and module states; written by the loader, materialised by the stream. */
  public static final String SYMBOL_TABLES = "symbols.tables";
  /** Compacted: module states only, so a loader can rebuild its bookkeeping quickly. */
  public static final String SYMBOL_INDEX = "symbols.index";
  /** Upload notifications (scope, module): invalidate negative entries at once. Read by the loader. */
  public static final String SYMBOL_UPLOADS = "symbols.uploads";
  /** Per module: how often it was missing, first and last seen. Written. */
  public static final String SYMBOLS_MISSING = "symbols.missing";

  /** Global store materialised from {@link #SYMBOL_TABLES}. */
  public static final String TABLES_STORE = "symbol-tables";
  /** Changelogged store of events waiting for symbols, one per platform. */
  public static final String PARKED_STORE_PREFIX = "parked-events-";
  /** Aggregate behind {@link #SYMBOLS_MISSING}. */
  public static final String MISSING_STORE = "missing-symbols";

  private Topics() {}
}

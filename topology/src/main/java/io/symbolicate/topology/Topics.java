package io.symbolicate.topology;

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

  private Topics() {}
}

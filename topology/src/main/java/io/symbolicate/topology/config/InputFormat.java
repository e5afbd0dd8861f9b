package io.symbolicate.topology.config;

/** How raw events are encoded on the input topic. */
public enum InputFormat {
  /** Avro single-object encoding only. */
  AVRO,
  /** JSON with the Avro field names only. */
  JSON,
  /** Either, told apart by the first bytes (Avro single-object starts with C3 01). */
  AUTO
}

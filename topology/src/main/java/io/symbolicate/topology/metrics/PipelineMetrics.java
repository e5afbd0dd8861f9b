package io.symbolicate.topology.metrics;

import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.store.StoreMetrics;

/**
 * What the topology reports while it runs. The topology is a pure function of its arguments, so
 * it is handed this sink rather than reaching for a registry; the app backs it with Micrometer
 * ({@link MicrometerPipelineMetrics}), tests and callers without metrics use {@link #NONE}.
 * Called from stream threads (several at once): implementations are thread-safe and cheap.
 * Counts are taken when a record is processed, so a transaction retried under exactly-once
 * counts again.
 */
public interface PipelineMetrics extends StoreMetrics {
  /** Records nothing. */
  PipelineMetrics NONE = new PipelineMetrics() {};

  /** A raw record was read from the input topic. */
  default void eventIn() {}

  /** A record went to the dead-letter topic for {@code reason}. */
  default void deadLettered(ErrorKind reason) {}

  /** An event was written to the output: counts it, its frames and its modules by status. */
  default void symbolicated(Platform platform, SymbolicatedEvent out) {}

  /**
   * How many events {@code owner} (one processor of one task) holds parked now; an owner that
   * closes reports 0.
   */
  default void parked(String owner, Platform platform, long count) {}
}

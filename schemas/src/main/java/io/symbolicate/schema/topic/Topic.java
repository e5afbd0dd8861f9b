package io.symbolicate.schema.topic;

import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serde;

/**
 * A topic the application reads or writes: the configuration key that names it, its default
 * name, the serdes of its records and how the broker keeps them. The constants are in
 * {@link Topics}; a deployment's names are a {@link TopicNames}.
 *
 * @param configKey the key that overrides the name (e.g. {@code topic.raw})
 * @param keySerde a new serde of the record keys
 * @param valueSerde a new serde of the record values
 * @param role who reads and writes it, for the docs
 */
public record Topic<K, V>(
    String configKey,
    String defaultName,
    Supplier<Serde<K>> keySerde,
    Supplier<Serde<V>> valueSerde,
    Cleanup cleanup,
    String role) {

  /** How the broker keeps the records. */
  public enum Cleanup {
    /** By retention time. */
    DELETE,
    /** The latest record per key (log compaction). */
    COMPACT
  }

  public Serde<K> keys() {
    return keySerde.get();
  }

  public Serde<V> values() {
    return valueSerde.get();
  }

  public boolean compacted() {
    return cleanup == Cleanup.COMPACT;
  }
}

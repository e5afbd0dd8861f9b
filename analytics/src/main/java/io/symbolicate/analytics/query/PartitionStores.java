package io.symbolicate.analytics.query;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The count stores of one partition (their keys sort as RocksDB keeps them: one store, one order). */
public record PartitionStores(
    ReadOnlyKeyValueStore<Bytes, byte[]> cells,
    ReadOnlyKeyValueStore<Bytes, byte[]> cellEvents,
    ReadOnlyKeyValueStore<Bytes, byte[]> signatureHours) {}

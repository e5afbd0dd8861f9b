package io.symbolicate.topology.store;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Materialises {@code symbols.tables} into the global RocksDB store (tombstones delete). */
public final class TablesStoreUpdater implements Processor<Bytes, byte[], Void, Void> {
  private final String storeName;
  private KeyValueStore<Bytes, byte[]> store;

  public TablesStoreUpdater(String storeName) {
    this.storeName = storeName;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    store = context.getStateStore(storeName);
  }

  @Override
  public void process(Record<Bytes, byte[]> rec) {
    if (rec.key() == null) {
      return;
    }
    if (rec.value() == null) {
      store.delete(rec.key());
    } else {
      store.put(rec.key(), rec.value());
    }
  }
}

package io.symbolicate.topology.store;

import io.symbolicate.symbolication.store.TableReader;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The running app's global store of {@code symbols.tables} as a {@link TableReader}, by
 * interactive query (safe for concurrent reads), for readers outside the stream threads such as
 * the API inside {@code run}. While the store is not queryable (starting or rebalancing) every
 * key reads as absent: the module is unknown, so it is requested and waited for.
 */
public final class GlobalTablesQuery implements TableReader {
  private final KafkaStreams streams;
  private volatile ReadOnlyKeyValueStore<Bytes, byte[]> store;

  public GlobalTablesQuery(KafkaStreams streams) {
    this.streams = streams;
  }

  @Override
  public byte[] get(byte[] key) {
    ReadOnlyKeyValueStore<Bytes, byte[]> s = store();
    if (s == null) {
      return null;
    }
    try {
      return s.get(Bytes.wrap(key));
    } catch (InvalidStateStoreException e) {
      store = null;
      return null;
    }
  }

  private ReadOnlyKeyValueStore<Bytes, byte[]> store() {
    ReadOnlyKeyValueStore<Bytes, byte[]> s = store;
    if (s == null) {
      try {
        s =
            streams.store(
                StoreQueryParameters.fromNameAndType(
                    StoreNames.TABLES, QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
        store = s;
      } catch (InvalidStateStoreException e) {
        return null;
      }
    }
    return s;
  }
}

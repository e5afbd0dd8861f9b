package io.symbolicate.topology.http;

import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.topology.Topics;
import io.symbolicate.topology.serde.AvroSerde;
import io.symbolicate.topology.serde.WireSerdes;
import io.symbolicate.topology.store.ModuleRef;
import io.symbolicate.topology.store.PageCache;
import io.symbolicate.topology.store.TableReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API inside {@code run}: reads the streams app's global store of {@code symbols.tables}
 * (an interactive query, safe for concurrent reads) and shares its page cache, so a module
 * loaded for the stream is warm for the API and vice versa. A module the store does not know is
 * requested on {@code symbols.requests}, where the loader picks it up.
 */
public final class KafkaApiSymbols implements ApiSymbols {
  private static final Logger log = LoggerFactory.getLogger(KafkaApiSymbols.class);

  private final KafkaStreams streams;
  private final PageCache cache;
  private final Producer<byte[], byte[]> producer;
  private final String requestsTopic;
  private final AvroSerde<SymbolRequest> requestSerde = WireSerdes.symbolRequest();
  private final ModuleThrottle requests;
  private final ModuleThrottle touches;
  private volatile ReadOnlyKeyValueStore<Bytes, byte[]> store;

  /**
   * @param requestRetry a module is requested again at most this often (as the stream does)
   * @param touchInterval a module in use is reported to the loader at most this often
   */
  public KafkaApiSymbols(KafkaStreams streams, PageCache cache, Producer<byte[], byte[]> producer,
      String requestsTopic, Duration requestRetry, Duration touchInterval) {
    this.touches = new ModuleThrottle(touchInterval.toMillis(), 10_000);
    this.streams = streams;
    this.cache = cache;
    this.producer = producer;
    this.requestsTopic = requestsTopic;
    this.requests = new ModuleThrottle(requestRetry.toMillis(), 10_000);
  }

  @Override
  public TableReader tables() {
    return key -> {
      ReadOnlyKeyValueStore<Bytes, byte[]> s = store();
      if (s == null) {
        return null; // not queryable yet (starting or rebalancing): unknown, so requested and waited for
      }
      try {
        return s.get(Bytes.wrap(key));
      } catch (InvalidStateStoreException e) {
        store = null;
        return null;
      }
    };
  }

  private ReadOnlyKeyValueStore<Bytes, byte[]> store() {
    ReadOnlyKeyValueStore<Bytes, byte[]> s = store;
    if (s == null) {
      try {
        s = streams.store(StoreQueryParameters.fromNameAndType(Topics.TABLES_STORE,
            QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
        store = s;
      } catch (InvalidStateStoreException e) {
        return null;
      }
    }
    return s;
  }

  @Override
  public PageCache pageCache() {
    return cache;
  }

  @Override
  public void request(ModuleRef ref, RequestReason reason) {
    if (requests.tryAcquire(ref, System.currentTimeMillis())) {
      send(ref, reason, requests);
    }
  }

  /** Reports use to the loader (a {@code used} request), as the stream's parking does. */
  @Override
  public void used(ModuleRef ref) {
    if (touches.tryAcquire(ref, System.currentTimeMillis())) {
      send(ref, RequestReason.used, touches);
    }
  }

  private void send(ModuleRef ref, RequestReason reason, ModuleThrottle sent) {
    long now = System.currentTimeMillis();
    SymbolRequest req = SymbolRequest.newBuilder().setScope(ref.scope()).setPlatform(ref.platform())
        .setModuleKey(ref.key()).setReason(reason).setRequestedAt(Instant.ofEpochMilli(now)).build();
    producer.send(new ProducerRecord<>(requestsTopic, ref.toString().getBytes(StandardCharsets.UTF_8),
        requestSerde.encode(req)), (md, e) -> {
          if (e != null) {
            log.warn("requesting {} failed: {}", ref, e.toString());
            sent.release(ref);
          }
        });
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}

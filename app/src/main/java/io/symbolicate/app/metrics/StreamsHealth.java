package io.symbolicate.app.metrics;

import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.symbolication.store.PageCache;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Readiness of the stream application ({@code run}): UP when the client is RUNNING, the symbol
 * store is warm and the embedded loader (if any) has read {@code symbols.index}. A rebalance
 * after the first RUNNING keeps it UP (the global store, and so the API, keeps serving);
 * shutting down or failed, or an embedded loader whose poll thread died, is DOWN; anything else
 * is STARTING.
 */
public final class StreamsHealth implements Health {
  private final KafkaStreams streams;
  private final StoreWarmup warmup;
  private final SymbolLoader loader;
  private final PageCache cache;

  /** @param loader the embedded loader, or null when it runs apart */
  public StreamsHealth(
      KafkaStreams streams, StoreWarmup warmup, SymbolLoader loader, PageCache cache) {
    this.streams = streams;
    this.warmup = warmup;
    this.loader = loader;
    this.cache = cache;
  }

  @Override
  public Report check() {
    KafkaStreams.State state = streams.state();
    boolean warm = warmup.warm();
    Map<String, Object> store = new LinkedHashMap<>();
    store.put("warm", warm);
    store.put("restored_records", warmup.restoredRecords());
    store.put("restoring_partitions", warmup.restoringPartitions());
    store.put("page_cache_entries", cache.estimatedSize());
    Map<String, Object> loaderInfo = new LinkedHashMap<>();
    loaderInfo.put("embedded", loader != null);
    if (loader != null) {
      loaderInfo.put("index_loaded", loader.indexLoaded());
      loaderInfo.put("failed", loader.failed());
      loaderInfo.put("in_flight", loader.inFlight());
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("streams", state.name());
    details.put("store", store);
    details.put("loader", loaderInfo);
    return new Report(status(state, warm), details);
  }

  private Status status(KafkaStreams.State state, boolean warm) {
    switch (state) {
      case PENDING_SHUTDOWN, NOT_RUNNING, PENDING_ERROR, ERROR:
        return Status.DOWN;
      default:
        break;
    }
    if (loader != null && loader.failed()) {
      return Status.DOWN; // nothing would load the symbols events wait for
    }
    boolean running =
        state == KafkaStreams.State.RUNNING
            || state == KafkaStreams.State.REBALANCING && warmup.ranOnce();
    return running && warm && (loader == null || loader.indexLoaded())
        ? Status.UP
        : Status.STARTING;
  }
}

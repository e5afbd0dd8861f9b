package io.symbolicate.topology.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.topology.metrics.CacheLayer;
import io.symbolicate.topology.metrics.PipelineMetrics;
import io.symbolicate.topology.serde.AvroSerde;
import io.symbolicate.topology.serde.WireSerdes;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Read side of the symbol store: module states and pages from the RocksDB store materialised
 * from {@code symbols.tables}. The floor lookup runs on the page index carried by the module's
 * state, in memory; decoded pages come from the shared {@link PageCache}, and RocksDB is read
 * (one exact get) only on a cache miss. Not thread-safe: one instance per stream task.
 */
public final class SymbolStore {
  private final TableReader kv;
  private final PageCache cache;
  private final AvroSerde<ModuleState> stateSerde = WireSerdes.moduleState();

  private final java.util.function.LongSupplier clock;
  private final PipelineMetrics metrics;

  /** @param clock milliseconds, the stream task's wall clock */
  public SymbolStore(ReadOnlyKeyValueStore<Bytes, byte[]> kv, PageCache cache, java.util.function.LongSupplier clock) {
    this(kv, cache, clock, PipelineMetrics.NONE);
  }

  /** @param metrics counts the module-state and RocksDB layers (the page cache counts itself) */
  public SymbolStore(ReadOnlyKeyValueStore<Bytes, byte[]> kv, PageCache cache, java.util.function.LongSupplier clock,
      PipelineMetrics metrics) {
    this(key -> kv.get(Bytes.wrap(key)), cache, clock, metrics);
  }

  /** Over any table reader (e.g. the API's local store), with the same keys and cache. */
  public SymbolStore(TableReader reader, PageCache cache, java.util.function.LongSupplier clock,
      PipelineMetrics metrics) {
    this.kv = reader;
    this.cache = cache;
    this.clock = clock;
    this.metrics = metrics;
  }

  /** A decoded state with its page index, reused while the stored bytes stay the same. */
  private record Decoded(byte[] raw, ModuleState state, long[] index, long readAt) {}

  /** A state read from RocksDB is reused this long (tables arrive asynchronously anyway). */
  private static final long STATE_REUSE_MS = 200;

  private final java.util.Map<ModuleRef, Decoded> decoded = new java.util.HashMap<>();

  /** The module's state record, or null when the store knows nothing of it. */
  public ModuleState state(ModuleRef ref) {
    Decoded d = decodedState(ref);
    return d == null ? null : d.state();
  }

  private Decoded decodedState(ModuleRef ref) {
    long now = clock.getAsLong();
    Decoded cached = decoded.get(ref);
    // only found tables are reused: a negative answer may be replaced by an upload at any time
    if (cached != null && cached.state().getStatus() == io.symbolicate.schema.TableStatus.found
        && now - cached.readAt() >= 0 && now - cached.readAt() < STATE_REUSE_MS) {
      metrics.cacheLookup(CacheLayer.MODULE_STATE, true);
      return cached;
    }
    metrics.cacheLookup(CacheLayer.MODULE_STATE, false);
    byte[] v = kv.get(TableKeys.state(ref));
    if (v == null) {
      decoded.remove(ref);
      return null;
    }
    Decoded d = cached;
    if (d != null && java.util.Arrays.equals(d.raw(), v)) {
      d = new Decoded(d.raw(), d.state(), d.index(), now);
      decoded.put(ref, d);
      return d;
    }
    try {
      ModuleState s = stateSerde.decode(v);
      d = new Decoded(v, s, toArray(s.getPageKeys()), now);
    } catch (IOException | RuntimeException e) {
      // an undecodable state (e.g. written by a newer, incompatible version) counts as absent
      return null;
    }
    if (decoded.size() > 10_000) {
      decoded.clear();
    }
    decoded.put(ref, d);
    return d;
  }

  /** Pages of a found module (its state gives generation and page index), decoded through the cache. */
  public <P> PageSource<P> pages(ModuleRef ref, ModuleState state, Function<byte[], P> decoder) {
    String module = ref.toString();
    long generation = state.getGeneration();
    Decoded d = decoded.get(ref);
    long[] index = d != null && d.state() == state ? d.index() : toArray(state.getPageKeys());
    return key -> {
      int i = floorIndex(index, key);
      if (i < 0) {
        return null;
      }
      long first = index[i];
      PageCache.Key ck = new PageCache.Key(module, generation, first);
      P hit = cache.getIfPresent(ck);
      if (hit != null) {
        return hit;
      }
      byte[] encoded = kv.get(TableKeys.page(ref, generation, first));
      metrics.cacheLookup(CacheLayer.ROCKSDB, encoded != null);
      if (encoded == null) {
        return null; // evicted or not yet materialised: treated as no symbol here
      }
      return cache.decodeIfAbsent(ck, encoded, decoder);
    };
  }

  public PageCache cache() {
    return cache;
  }

  static long[] toArray(List<Long> keys) {
    long[] a = new long[keys.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = keys.get(i);
    }
    return a;
  }

  /** Index of the greatest unsigned key {@code <= key}, or -1. */
  static int floorIndex(long[] sorted, long key) {
    int lo = 0;
    int hi = sorted.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(sorted[mid], key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }
}

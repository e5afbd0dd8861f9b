package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKeys;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Read side of the symbol store: module states and pages from a {@link TableReader} (the
 * stream's RocksDB global store materialised from {@code symbols.tables}, or the API's local
 * store). The floor lookup runs on the page index carried by the module's
 * state, in memory; decoded pages come from the shared {@link PageCache}, and RocksDB is read
 * (one exact get) only on a cache miss. Not thread-safe: one instance per stream task.
 */
public final class SymbolStore {
  private final TableReader kv;
  private final PageCache cache;
  private final AvroSerde<ModuleState> stateSerde = WireSerdes.moduleState();

  private final LongSupplier clock;
  private final StoreMetrics metrics;

  /**
   * @param clock milliseconds (a stream task's wall clock)
   * @param metrics counts the module-state and RocksDB layers (the page cache counts itself)
   */
  public SymbolStore(
      TableReader reader, PageCache cache, LongSupplier clock, StoreMetrics metrics) {
    this.kv = reader;
    this.cache = cache;
    this.clock = clock;
    this.metrics = metrics;
  }

  /**
   * A decoded state with its page index, module name and decoded header, reused while the
   * stored bytes stay the same; and the module's pages as this store last got them from the
   * page cache.
   */
  private static final class Decoded {
    final byte[] raw;
    final ModuleState state;
    final long[] index;
    final String module;
    long readAt;
    Object header;
    // the page source handed out for this state, and the decoder it decodes with
    PageSource<?> source;
    Function<byte[], ?> sourceDecoder;
    // decoded pages by index (and their cache keys, made once), filled while the page cache's
    // removal stamp stays the store's memoStamp: every page in any memo of this store is then
    // still in the cache, so the memos hold no memory beyond the cache's bound (all of them are
    // dropped at the first lookup or punctuation that sees the stamp move). Saves each frame's
    // lookup in the shared cache (a key object, its hash and the cache's bookkeeping).
    Object[] memo;
    PageCache.Key[] keys;
    int memoHitsSinceTouch;

    Decoded(byte[] raw, ModuleState state, long[] index, String module, long readAt) {
      this.raw = raw;
      this.state = state;
      this.index = index;
      this.module = module;
      this.readAt = readAt;
    }
  }

  /** A state read from RocksDB is reused this long (tables arrive asynchronously anyway). */
  private static final long STATE_REUSE_MS = 200;

  private final java.util.Map<ModuleRef, Decoded> decoded = new java.util.HashMap<>();

  // the decoded states whose memo holds pages, the removal stamp they were filled under, and the
  // lookups since the stamp last moved (no memo while the cache keeps evicting)
  private final java.util.Set<Decoded> memoised =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private long memoStamp;
  private int lookupsSinceRemoval;

  /** Lookups without a removal from the page cache before the memos are used again. */
  static final int MEMO_SETTLE_LOOKUPS = 1024;

  /** How many modules' memos hold pages (tests). */
  int memoisedModules() {
    return memoised.size();
  }

  /** A decoded state this store no longer holds: its memo goes (the set stays bounded by the map). */
  private void forget(Decoded d) {
    if (d != null && memoised.remove(d)) {
      d.memo = null;
    }
  }

  /**
   * Drops every module's memo of pages if the page cache has evicted anything since they were
   * filled (a page in a memo may be one it let go). Called on every page lookup, and by the stream
   * task's punctuator so that an idle task lets go of them too. Returns the current stamp.
   */
  public long dropStaleMemos() {
    long stamp = cache.removalStamp();
    if (stamp != memoStamp) {
      for (Decoded d : memoised) {
        d.memo = null;
      }
      memoised.clear();
      memoStamp = stamp;
      lookupsSinceRemoval = 0;
    }
    return stamp;
  }

  /** The module's state record, or null when the store knows nothing of it. */
  public ModuleState state(ModuleRef ref) {
    Decoded d = decodedState(ref);
    return d == null ? null : d.state;
  }

  private Decoded decodedState(ModuleRef ref) {
    long now = clock.getAsLong();
    Decoded cached = decoded.get(ref);
    // only found tables are reused: a negative answer may be replaced by an upload at any time
    if (cached != null
        && cached.state.getStatus() == io.symbolicate.schema.TableStatus.found
        && now - cached.readAt >= 0
        && now - cached.readAt < STATE_REUSE_MS) {
      metrics.cacheLookup(CacheLayer.MODULE_STATE, true);
      return cached;
    }
    metrics.cacheLookup(CacheLayer.MODULE_STATE, false);
    byte[] v = kv.get(TableKeys.state(ref));
    if (v == null) {
      forget(decoded.remove(ref));
      return null;
    }
    Decoded d = cached;
    if (d != null && java.util.Arrays.equals(d.raw, v)) {
      d.readAt = now;
      return d;
    }
    try {
      ModuleState s = stateSerde.decode(v);
      d = new Decoded(v, s, toArray(s.getPageKeys()), ref.toString(), now);
    } catch (IOException | RuntimeException e) {
      // an undecodable state (e.g. written by a newer, incompatible version) counts as absent
      return null;
    }
    if (decoded.size() > 10_000) {
      decoded.values().forEach(this::forget);
      decoded.clear();
    }
    forget(decoded.put(ref, d));
    return d;
  }

  /**
   * One in this many lookups answered from a module's memo still goes to the page cache, so
   * that its eviction policy keeps seeing the pages in use as used.
   */
  static final int MEMO_TOUCH_EVERY = 64;

  /** Pages of a found module (its state gives generation and page index), decoded through the cache. */
  @SuppressWarnings("unchecked")
  public <P> PageSource<P> pages(ModuleRef ref, ModuleState state, Function<byte[], P> decoder) {
    Decoded d = decoded.get(ref);
    if (d == null || d.state != state) {
      // a state this store does not hold (e.g. read elsewhere): no memo
      long generation = state.getGeneration();
      String module = ref.toString();
      long[] index = toArray(state.getPageKeys());
      return key -> {
        int i = floorIndex(index, key);
        return i < 0 ? null : page(ref, new PageCache.Key(module, generation, index[i]), decoder);
      };
    }
    if (d.source == null || d.sourceDecoder != decoder) {
      d.sourceDecoder = decoder;
      d.source = (PageSource<P>) key -> memoPage(ref, d, key, decoder);
    }
    return (PageSource<P>) d.source;
  }

  @SuppressWarnings("unchecked")
  private <P> P memoPage(ModuleRef ref, Decoded d, long key, Function<byte[], P> decoder) {
    int i = floorIndex(d.index, key);
    if (i < 0) {
      return null;
    }
    long stamp = dropStaleMemos();
    if (d.keys == null) {
      d.keys = new PageCache.Key[d.index.length];
    }
    PageCache.Key ck = d.keys[i];
    if (ck == null) {
      ck = new PageCache.Key(d.module, d.state.getGeneration(), d.index[i]);
      d.keys[i] = ck;
    }
    if (lookupsSinceRemoval < MEMO_SETTLE_LOOKUPS) {
      // the cache evicted lately: while it keeps doing so a memo would be dropped again at once
      lookupsSinceRemoval++;
      return page(ref, ck, decoder);
    }
    Object hit = d.memo == null ? null : d.memo[i];
    if (hit != null && ++d.memoHitsSinceTouch < MEMO_TOUCH_EVERY) {
      cache.recordMemoHits(1);
      return (P) hit;
    }
    d.memoHitsSinceTouch = 0;
    P page = page(ref, ck, decoder);
    // kept only if nothing left the cache meanwhile (else the page may be one that did)
    if (page != null && cache.removalStamp() == stamp) {
      if (d.memo == null) {
        if (decoded.get(ref) != d) {
          return page; // a state replaced meanwhile (its source still in use by this event)
        }
        d.memo = new Object[d.index.length];
        memoised.add(d);
      }
      d.memo[i] = page;
    }
    return page;
  }

  /** A page through the cache, read from RocksDB and decoded on a miss; null if not stored. */
  private <P> P page(ModuleRef ref, PageCache.Key ck, Function<byte[], P> decoder) {
    P hit = cache.getIfPresent(ck);
    if (hit != null) {
      return hit;
    }
    byte[] encoded = kv.get(TableKeys.page(ref, ck.generation(), ck.firstKey()));
    metrics.cacheLookup(CacheLayer.ROCKSDB, encoded != null);
    if (encoded == null) {
      // evicted or not yet materialised: no symbol here. Or the found state this task reuses
      // (STATE_REUSE_MS) was replaced by a rebuild whose loader already deleted the old pages:
      // the next event reads the state again
      Decoded d = decoded.get(ref);
      if (d != null && d.state.getGeneration() == ck.generation()) {
        forget(decoded.remove(ref));
      }
      return null;
    }
    return cache.decodeIfAbsent(ck, encoded, decoder);
  }

  public PageCache cache() {
    return cache;
  }

  /** Headers up to this size are kept with the decoded state; larger ones go to the page cache. */
  private static final int SMALL_HEADER = 4096;

  /**
   * The decoded header of a found module. A small one (native headers are a few hundred bytes)
   * is kept with its decoded state, as one is needed per module of every event; a larger one
   * lives in the bounded page cache under a key no page uses.
   */
  @SuppressWarnings("unchecked")
  public <H> H header(ModuleRef ref, ModuleState state, Function<byte[], H> decoder) {
    if (state.getHeader() == null) {
      return null;
    }
    Decoded d = decoded.get(ref);
    boolean current = d != null && d.state == state;
    if (current && d.header != null) {
      return (H) d.header;
    }
    java.nio.ByteBuffer b = state.getHeader().duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    if (bytes.length > SMALL_HEADER) {
      return cache.get(
          new PageCache.Key(ref + "#header", state.getGeneration(), 0L), bytes, decoder);
    }
    H h = decoder.apply(bytes);
    if (current) {
      d.header = h;
    }
    return h;
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

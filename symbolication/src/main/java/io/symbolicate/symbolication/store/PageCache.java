package io.symbolicate.symbolication.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.symbolicate.symbols.table.HeapSized;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Decoded pages, bounded by an estimate of their size in bytes, shared by all stream threads of
 * an instance: a page is decoded once and then served from memory.
 */
public final class PageCache {
  /** Key: module reference, generation and the page's first key. */
  public record Key(String module, long generation, long firstKey) {}

  private record Entry(Object page, int weight) {}

  private final Cache<Key, Entry> cache;
  private final long maxBytes;
  // changes whenever an entry leaves the cache: a reader's own memo of pages it got from here
  // is good only while this stays the same (see SymbolStore)
  private final AtomicLong removals = new AtomicLong();
  private final LongAdder memoHits = new LongAdder();

  public PageCache(long maxBytes) {
    this.maxBytes = maxBytes;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((Key k, Entry e) -> e.weight())
            // bookkeeping on the reading thread: handing it to the common pool for every few
            // hundred
            // reads costs more in wake-ups than the work itself
            .executor(Runnable::run)
            // synchronous, inside the eviction: no reader sees the entry gone and the stamp
            // unchanged
            .evictionListener(
                (Key k, Entry e, com.github.benmanes.caffeine.cache.RemovalCause c) ->
                    removals.incrementAndGet())
            .recordStats()
            .build();
  }

  /**
   * The decoded page, decoding {@code encoded} on a miss. It weighs what the page says it holds
   * ({@link HeapSized}), else three times its encoded size.
   */
  @SuppressWarnings("unchecked")
  public <P> P get(Key key, byte[] encoded, Function<byte[], P> decoder) {
    return (P) cache.get(key, k -> entry(decoder.apply(encoded), encoded)).page();
  }

  /** What a decoded page weighs: what it says it holds ({@link HeapSized}), else three times its encoded size. */
  private static Entry entry(Object page, byte[] encoded) {
    long weight = page instanceof HeapSized h ? h.heapBytes() : 64L + 3L * encoded.length;
    return new Entry(page, (int) Math.min(Integer.MAX_VALUE, Math.max(64, weight)));
  }

  /**
   * The page after {@link #getIfPresent} missed and the caller read {@code encoded} from the
   * store: decoded and cached without counting the lookup twice (the miss is already counted).
   */
  @SuppressWarnings("unchecked")
  public <P> P decodeIfAbsent(Key key, byte[] encoded, Function<byte[], P> decoder) {
    // the map view's putIfAbsent records no stats (computeIfAbsent would count a second miss);
    // two threads missing the same page at once may both decode it, the first one is kept
    Entry e = entry(decoder.apply(encoded), encoded);
    Entry prior = cache.asMap().putIfAbsent(key, e);
    return (P) (prior != null ? prior : e).page();
  }

  /** A cached page without touching the store, or null. */
  @SuppressWarnings("unchecked")
  public <P> P getIfPresent(Key key) {
    Entry e = cache.getIfPresent(key);
    return e == null ? null : (P) e.page();
  }

  /**
   * Changes whenever a page leaves the cache. A reader may keep its own references to pages it
   * got from here, and use them without asking again, for as long as this stays the same: then
   * every page it holds is still in the cache, and the memory bound holds. (Only Caffeine's own
   * evictions move it: a method that removes or replaces entries must move it too.)
   */
  public long removalStamp() {
    return removals.get();
  }

  /** Counts {@code n} lookups that a reader answered from its memo (they are hits of this cache). */
  public void recordMemoHits(long n) {
    memoHits.add(n);
  }

  /** Lookups a reader answers from its memo, without this cache's bookkeeping: counted in {@link #hits}. */
  public long memoHits() {
    return memoHits.sum();
  }

  public long hits() {
    return cache.stats().hitCount() + memoHits.sum();
  }

  public long misses() {
    return cache.stats().missCount();
  }

  public long estimatedSize() {
    return cache.estimatedSize();
  }

  public long evictions() {
    return cache.stats().evictionCount();
  }

  /** Estimated bytes held (the weights of the entries). */
  public long weightedBytes() {
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
  }

  public long maxBytes() {
    return maxBytes;
  }
}

package io.symbolicate.symbolication.store;

/**
 * What a symbol lookup reports: one lookup in one cache layer. The stream's metrics sink extends
 * it; callers without metrics (the API's requests, tests) use {@link #NONE}. Called from many
 * threads at once: implementations are thread-safe and cheap.
 */
public interface StoreMetrics {
  /** Records nothing. */
  StoreMetrics NONE = new StoreMetrics() {};

  /** One lookup in a cache layer of the symbol store. */
  default void cacheLookup(CacheLayer layer, boolean hit) {}
}

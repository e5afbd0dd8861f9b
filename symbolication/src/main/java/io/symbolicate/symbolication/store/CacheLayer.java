package io.symbolicate.symbolication.store;

/**
 * The layers a symbol lookup goes through, nearest first; the {@code layer} tag of
 * {@code symbolicate_cache_lookups_total}.
 */
public enum CacheLayer {
  /** Decoded module states reused by a task for a short while instead of re-read from RocksDB. */
  MODULE_STATE("module_state"),
  /** Decoded pages (and table headers) in memory, shared by the instance ({@code PageCache}). */
  PAGE_CACHE("page_cache"),
  /** Encoded pages read from the RocksDB global store after a page-cache miss (a miss: not there). */
  ROCKSDB("rocksdb");

  private final String tag;

  CacheLayer(String tag) {
    this.tag = tag;
  }

  public String tag() {
    return tag;
  }
}

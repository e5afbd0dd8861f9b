package io.symbolicate.app.metrics;

import io.symbolicate.symbolication.store.PageCache;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Readiness without Kafka ({@code serve}): UP while the local table store is open. */
public final class LocalStoreHealth implements Health {
  private final BooleanSupplier storeOpen;
  private final PageCache cache;

  /** @param cache the page cache to report on, or null */
  public LocalStoreHealth(BooleanSupplier storeOpen, PageCache cache) {
    this.storeOpen = storeOpen;
    this.cache = cache;
  }

  @Override
  public Report check() {
    boolean open = storeOpen.getAsBoolean();
    Map<String, Object> store = new LinkedHashMap<>();
    store.put("warm", open);
    store.put("open", open);
    if (cache != null) {
      store.put("page_cache_entries", cache.estimatedSize());
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("streams", "NOT_USED");
    details.put("store", store);
    return new Report(open ? Status.UP : Status.STARTING, details);
  }
}

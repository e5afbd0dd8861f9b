package io.symbolicate.topology.http;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.topology.loader.ModuleFetcher;
import io.symbolicate.topology.store.LocalTableStore;
import io.symbolicate.topology.store.ModuleRef;
import io.symbolicate.topology.store.PageCache;
import io.symbolicate.topology.store.TableReader;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API's symbols without Kafka ({@code serve}): a local RocksDB table cache filled by the
 * loader's own fetch/convert core with bounded concurrency. Requests for a module already being
 * loaded are coalesced; the caching rules are the waiter's ({@code ModuleReadiness}).
 */
public final class LocalApiSymbols implements ApiSymbols {
  private static final Logger log = LoggerFactory.getLogger(LocalApiSymbols.class);

  private final LocalTableStore store;
  private final PageCache cache;
  private final ModuleFetcher fetcher;
  private final ExecutorService workers;
  private final Set<ModuleRef> inFlight = ConcurrentHashMap.newKeySet();
  private final Map<ModuleRef, Download> downloads = new ConcurrentHashMap<>();

  public LocalApiSymbols(LocalTableStore store, PageCache cache, ModuleFetcher fetcher) {
    this.store = store;
    this.cache = cache;
    this.fetcher = fetcher;
    this.workers = Executors.newFixedThreadPool(Math.max(1, fetcher.settings().concurrency()), r -> {
      Thread t = new Thread(r, "api-symbol-loader");
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public TableReader tables() {
    return store;
  }

  @Override
  public PageCache pageCache() {
    return cache;
  }

  @Override
  public void request(ModuleRef ref, RequestReason reason) {
    try {
      fetcher.keys(ref); // never fetch what must not become a key
    } catch (IllegalArgumentException e) {
      return;
    }
    if (!inFlight.add(ref)) {
      return;
    }
    workers.submit(() -> {
      try {
        ModuleState previous = store.state(ref);
        ModuleFetcher.Outcome o = fetcher.load(ref, store, previous);
        if (o.downloadedBytes() > 0) {
          if (downloads.size() > 100_000) {
            downloads.clear();
          }
          downloads.put(ref, new Download(o.downloadedBytes(), o.millis()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        log.error("loading {} failed", ref, e);
      } finally {
        inFlight.remove(ref);
      }
    });
  }

  @Override
  public Download lastDownload(ModuleRef ref) {
    return downloads.get(ref);
  }

  /** Loads queued or running. */
  public int inFlight() {
    return inFlight.size();
  }

  @Override
  public void close() {
    workers.shutdownNow();
    try {
      workers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }
}

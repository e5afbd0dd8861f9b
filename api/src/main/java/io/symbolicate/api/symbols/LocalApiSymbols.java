package io.symbolicate.api.symbols;

import io.symbolicate.api.ApiSymbols;
import io.symbolicate.connectors.loader.ModuleFetcher;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.ModuleRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
  // loads queued or running, each done once its download is recorded
  private final Map<ModuleRef, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();
  private final Map<ModuleRef, Download> downloads = new ConcurrentHashMap<>();
  private final ModuleThrottle touches;
  private final ScheduledExecutorService housekeeping;

  /**
   * @param touchInterval a found module's {@code last_used} is written at most this often; tables
   *     unused for the loader settings' {@code unusedTtl} are evicted by a periodic sweep
   */
  public LocalApiSymbols(
      LocalTableStore store, PageCache cache, ModuleFetcher fetcher, Duration touchInterval) {
    this.store = store;
    this.cache = cache;
    this.fetcher = fetcher;
    this.touches = new ModuleThrottle(touchInterval.toMillis(), 100_000);
    this.housekeeping =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "api-table-sweep");
              t.setDaemon(true);
              return t;
            });
    // as the Kafka loader: sweep every tenth of the TTL, between 1 s and 1 h
    long sweep =
        Math.max(
            1000,
            Math.min(
                Duration.ofHours(1).toMillis(), fetcher.settings().unusedTtl().toMillis() / 10));
    housekeeping.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
    this.workers =
        Executors.newFixedThreadPool(
            Math.max(1, fetcher.settings().concurrency()),
            r -> {
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
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (inFlight.putIfAbsent(ref, done) != null) {
      return;
    }
    workers.submit(
        () -> {
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
            done.complete(null);
          }
        });
  }

  /** Records use on the stored state ({@code last_used}), at most every touch interval. */
  @Override
  public void used(ModuleRef ref) {
    long now = System.currentTimeMillis();
    if (!touches.tryAcquire(ref, now)) {
      return;
    }
    try {
      ModuleState s = store.state(ref);
      if (s != null && s.getStatus() == TableStatus.found) {
        s.setLastUsed(Instant.ofEpochMilli(now));
        store.putState(ref, s);
      }
    } catch (Exception e) {
      log.warn("recording use of {} failed: {}", ref, e.toString());
    }
  }

  /** Evicts found tables unused for longer than {@code cache.unused.ttl.ms} (pages and state). */
  void sweep() {
    long now = System.currentTimeMillis();
    long ttl = fetcher.settings().unusedTtl().toMillis();
    try {
      for (Map.Entry<ModuleRef, ModuleState> e : store.states().entrySet()) {
        ModuleState s = e.getValue();
        if (s.getStatus() != TableStatus.found || inFlight.containsKey(e.getKey())) {
          continue;
        }
        Instant used = s.getLastUsed() != null ? s.getLastUsed() : s.getUpdatedAt();
        if (now - used.toEpochMilli() > ttl) {
          store.evict(e.getKey(), s);
          touches.release(e.getKey());
          fetcher.stats().evicted.incrementAndGet();
          log.info("evicted {} from the table cache (unused since {})", e.getKey(), used);
        }
      }
    } catch (Exception e) {
      log.warn("table cache sweep failed; will retry", e);
    }
  }

  /**
   * The table is in the store before its load has recorded the download: a request that saw it
   * there waits for that too, a little.
   */
  @Override
  public Download lastDownload(ModuleRef ref, long waitMillis) {
    CompletableFuture<Void> loading = inFlight.get(ref);
    if (loading != null && waitMillis > 0) {
      try {
        loading.get(waitMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // a stats figure: answer with what is known
      }
    }
    return downloads.get(ref);
  }

  /** Loads queued or running. */
  public int inFlight() {
    return inFlight.size();
  }

  @Override
  public void close() {
    housekeeping.shutdownNow();
    workers.shutdownNow();
    try {
      workers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }
}

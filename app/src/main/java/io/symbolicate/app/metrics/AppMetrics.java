package io.symbolicate.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.symbolicate.api.Symbolication;
import io.symbolicate.api.collect.CollectorService;
import io.symbolicate.api.collect.SubmitHandler;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.upload.UploadService;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.symbolication.minidump.FileEventSymbolicator;
import io.symbolicate.symbolication.store.CacheLayer;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.topology.metrics.PipelineMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's meters, in one Prometheus registry: JVM basics, Kafka Streams client metrics
 * (with the RocksDB state-store metrics Kafka Streams records), the pipeline's own counters
 * ({@link #pipeline()}), the symbol-store cache layers and the loader. {@link #metricsHandler()}
 * serves the scrape.
 */
public final class AppMetrics implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AppMetrics.class);

  /** Prometheus: {@code symbolicate_cache_lookups_total{layer, result}}. */
  static final String CACHE_LOOKUPS = "symbolicate.cache.lookups";

  static final String CACHE_LOOKUPS_DESCRIPTION =
      "symbol-store lookups by cache layer (nearest first) and result";

  /** Prometheus text format 0.0.4, what every scraper accepts. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final MicrometerPipelineMetrics pipeline;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private ScheduledExecutorService refresher;

  public AppMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    closeables.add(gc);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    pipeline = new MicrometerPipelineMetrics(registry);
  }

  /** The sink to hand to {@code SymbolicationTopology.build}. */
  public PipelineMetrics pipeline() {
    return pipeline;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /**
   * Binds the client's metrics ({@code kafka_stream_*}, {@code kafka_consumer_*}, ...).
   * Kafka Streams adds metrics as tasks and stores appear; they are picked up every
   * {@code refresh}.
   */
  public AppMetrics bindStreams(KafkaStreams streams, Duration refresh) {
    KafkaStreamsMetrics m = new KafkaStreamsMetrics(streams, List.of(), refresher(), refresh);
    m.bindTo(registry);
    closeables.add(m);
    return this;
  }

  private synchronized ScheduledExecutorService refresher() {
    if (refresher == null) {
      refresher =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "metrics-refresh");
                t.setDaemon(true);
                return t;
              });
    }
    return refresher;
  }

  /** The decoded-page cache: lookups (layer {@code page_cache}), evictions, entries, bytes. */
  public AppMetrics bindPageCache(PageCache cache) {
    FunctionCounter.builder(CACHE_LOOKUPS, cache, PageCache::hits)
        .tags("layer", CacheLayer.PAGE_CACHE.tag(), "result", "hit")
        .description(CACHE_LOOKUPS_DESCRIPTION)
        .register(registry);
    FunctionCounter.builder(CACHE_LOOKUPS, cache, PageCache::misses)
        .tags("layer", CacheLayer.PAGE_CACHE.tag(), "result", "miss")
        .description(CACHE_LOOKUPS_DESCRIPTION)
        .register(registry);
    FunctionCounter.builder("symbolicate.page.cache.evictions", cache, PageCache::evictions)
        .description("decoded pages evicted from the page cache")
        .register(registry);
    Gauge.builder("symbolicate.page.cache.entries", cache, PageCache::estimatedSize)
        .description("decoded pages in the page cache")
        .strongReference(true)
        .register(registry);
    Gauge.builder("symbolicate.page.cache.size", cache, PageCache::weightedBytes)
        .baseUnit("bytes")
        .description("estimated bytes held by the page cache")
        .register(registry);
    Gauge.builder("symbolicate.page.cache.max", cache, PageCache::maxBytes)
        .baseUnit("bytes")
        .description("bound of the page cache (page.cache.bytes)")
        .register(registry);
    return this;
  }

  /** The loader's counters (requests, downloads, outcomes, ...) and its in-flight loads. */
  public AppMetrics bindLoader(SymbolLoader loader) {
    bindLoaderStats(loader.stats());
    Gauge.builder("symbolicate.loader.in.flight", loader, SymbolLoader::inFlight)
        .description("loads queued or running")
        .register(registry);
    Gauge.builder("symbolicate.loader.index.loaded", loader, l -> l.indexLoaded() ? 1 : 0)
        .description("1 once the loader has read symbols.index")
        .register(registry);
    return this;
  }

  /**
   * The loader's counters alone, for a fetcher without the Kafka loader around it (the API's
   * {@code serve} mode fills its local store with the same fetch/convert core).
   */
  public AppMetrics bindLoaderStats(SymbolLoader.Stats s) {
    counter(
        "symbolicate.loader.requests", s.requests, "requests and uploads read by the loader", null);
    counter(
        "symbolicate.loader.coalesced",
        s.coalesced,
        "requests answered by a load already running or just finished",
        null);
    counter("symbolicate.loader.rejected", s.rejected, "requests the loader could not read", null);
    counter(
        "symbolicate.loader.uploads.forwarded",
        s.forwarded,
        "uploads handed to the loader that reads the module's requests",
        null);
    counter("symbolicate.loader.downloads", s.downloads, "debug files fetched from a source", null);
    counter(
        "symbolicate.loader.downloaded",
        s.downloadedBytes,
        "bytes of debug files fetched",
        "bytes");
    counter(
        "symbolicate.loader.retries", s.retries, "fetches retried after a transient failure", null);
    counter(
        "symbolicate.loader.evictions",
        s.evicted,
        "tables removed after cache.unused.ttl.ms unused",
        null);
    seconds(
        "symbolicate.loader.load.cpu",
        s.loadCpuMillis,
        "CPU the loads used reading, converting and publishing");
    seconds(
        "symbolicate.loader.paused",
        s.pausedMillis,
        "time the loads slept to leave the cores to the stream threads (loader.cpu.share)");
    String loads = "symbolicate.loader.loads";
    for (var o :
        List.of(
            new Object[] {"found", s.found},
            new Object[] {"missing", s.missing},
            new Object[] {"malformed", s.malformed},
            new Object[] {"failed", s.failed})) {
      FunctionCounter.builder(loads, (AtomicLong) o[1], AtomicLong::get)
          .tag("outcome", (String) o[0])
          .description("finished loads by outcome")
          .register(registry);
    }
    return this;
  }

  /** The HTTP API's admission: requests in flight and requests refused with 503. */
  public AppMetrics bindApi(Symbolication routes) {
    Gauge.builder("symbolicate.api.in.flight", routes, r -> r.inFlight())
        .description("API requests being symbolicated, or their answers written, now")
        .register(registry);
    FunctionCounter.builder("symbolicate.api.refused", routes, r -> r.refused())
        .description("API requests refused with 503 (http.max.in.flight reached)")
        .register(registry);
    Gauge.builder("symbolicate.api.claimed", routes, r -> r.claimedBytes())
        .baseUnit("bytes")
        .description("heap claimed by the API requests in flight (http.max.in.flight.bytes)")
        .register(registry);
    Gauge.builder("symbolicate.api.writing", routes, r -> r.writingBytes())
        .baseUnit("bytes")
        .description("API answers being written to their clients (part of the claimed bytes)")
        .register(registry);
    return this;
  }

  /**
   * The Source Link fetches of {@code POST /symbolicate} (symbolication.source.link.allow): by
   * status, and answers from the cache. Nothing to bind when fetching is off.
   */
  public AppMetrics bindSourceLinks(SourceLinkFetcher fetcher) {
    if (fetcher == null) {
      return this;
    }
    for (String status : SourceLinkFetcher.STATUSES) {
      FunctionCounter.builder("symbolicate.source.link.fetches", fetcher, f -> f.fetches(status))
          .tag("status", status)
          .description(
              "Source Link fetches by status (ok, notfound, noperm: refused without a request,"
                  + " malformed, error)")
          .register(registry);
    }
    FunctionCounter.builder("symbolicate.source.link.cache.hits", fetcher, f -> f.cacheHits())
        .description("Source Link URLs answered from the cache")
        .register(registry);
    return this;
  }

  /** The upload routes (/api/symbols-*): their answers by status. */
  public AppMetrics bindUploads(UploadService uploads) {
    for (int status : UploadService.STATUSES) {
      FunctionCounter.builder("symbolicate.upload.answers", uploads, u -> u.answers(status))
          .tag("status", Integer.toString(status))
          .description("upload requests answered, by HTTP status (429: upload admission)")
          .register(registry);
    }
    return this;
  }

  /** The crash collector (POST /submit): reports in flight, refused, accepted and re-sent by the sweeper. */
  public AppMetrics bindCollector(SubmitHandler endpoint, CollectorService service) {
    Gauge.builder("symbolicate.collector.in.flight", endpoint, e -> e.inFlight())
        .description("crash reports being received and stored now")
        .register(registry);
    FunctionCounter.builder("symbolicate.collector.refused", endpoint, e -> e.refused())
        .description("crash reports refused with 503 (collector admission)")
        .register(registry);
    FunctionCounter.builder("symbolicate.collector.accepted", service, s -> s.accepted())
        .description("crash reports stored and answered with a CrashID")
        .register(registry);
    FunctionCounter.builder("symbolicate.collector.resent", service, s -> s.resent())
        .description(
            "events the pending-marker sweeper wrote again (the broker had not acknowledged them)")
        .register(registry);
    return this;
  }

  /** Dumps and reports carried by reference: the bytes their parked events hold or reserve. */
  public AppMetrics bindFetchedFiles(FileEventSymbolicator step) {
    Gauge.builder("symbolicate.minidump.fetch.held", step, s -> s.heldBytes())
        .baseUnit("bytes")
        .description(
            "bytes of dumps fetched or being fetched for parked events (minidump.fetch.memory.bytes)")
        .register(registry);
    return this;
  }

  private void counter(String name, AtomicLong value, String description, String unit) {
    FunctionCounter.builder(name, value, AtomicLong::get)
        .description(description)
        .baseUnit(unit)
        .register(registry);
  }

  /** A counter in seconds over a total kept in milliseconds. */
  private void seconds(String name, AtomicLong millis, String description) {
    FunctionCounter.builder(name, millis, v -> v.get() / 1000.0)
        .description(description)
        .baseUnit("seconds")
        .register(registry);
  }

  /** {@code symbolicate_ready}: 1 while {@code health} says the instance is ready. */
  public AppMetrics bindHealth(Health health) {
    Gauge.builder("symbolicate.ready", health, h -> h.check().ready() ? 1 : 0)
        .description("1 when the instance is ready (what /health answers 200 for)")
        .strongReference(true)
        .register(registry);
    return this;
  }

  /** The scrape in Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  /** {@code GET /metrics}: the scrape, {@value #CONTENT_TYPE}. */
  public Handler metricsHandler() {
    return new MetricsHandler(this);
  }

  @Override
  public void close() {
    for (AutoCloseable c : closeables) {
      try {
        c.close();
      } catch (Exception e) {
        log.debug("closing a meter binder failed", e);
      }
    }
    if (refresher != null) {
      refresher.shutdownNow();
    }
    registry.close();
  }
}

package io.symbolicate.app.runtime;

import io.symbolicate.api.server.Handler;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.app.metrics.AppMetrics;
import io.symbolicate.app.metrics.Health;
import io.symbolicate.app.metrics.HealthHandler;
import io.symbolicate.app.metrics.MetricsServer;
import io.symbolicate.app.metrics.StoreWarmup;
import io.symbolicate.app.metrics.StreamsHealth;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.connectors.source.S3Source;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.connectors.source.SourceLinkPolicy;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbolication.minidump.AttachmentFetcher;
import io.symbolicate.symbolication.minidump.FileEventSymbolicator;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.config.TopologyConfig;
import io.symbolicate.topology.deadletter.OversizedOutputHandler;
import io.symbolicate.topology.store.StoreNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the topology against a Kafka cluster: checks the cluster is reachable, creates missing
 * topics, and starts Kafka Streams with exactly-once v2 by default.
 */
public final class SymbolicatorApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SymbolicatorApp.class);

  private final AppConfig cfg;
  private final KafkaStreams streams;
  private final SymbolLoader loader;
  private final PageCache pageCache;
  private final AppMetrics metrics;
  private final Health health;
  private final MetricsServer metricsServer;
  private final CountDownLatch stopped = new CountDownLatch(1);
  // System.nanoTime() of the first transition to RUNNING (0 before it)
  private volatile long firstRunningAt;
  private volatile boolean pauseWhenRunning;
  private volatile ApiRuntime.Running api;
  private volatile AnalyticsRuntime analytics;

  private S3DumpFetcher dumps;

  private SymbolicatorApp(
      AppConfig cfg,
      KafkaStreams streams,
      SymbolLoader loader,
      PageCache pageCache,
      AppMetrics metrics,
      Health health,
      MetricsServer metricsServer) {
    this.cfg = cfg;
    this.streams = streams;
    this.loader = loader;
    this.pageCache = pageCache;
    this.metrics = metrics;
    this.health = health;
    this.metricsServer = metricsServer;
  }

  /** Starts the app; throws {@link StartupException} with a clear reason if it cannot. */
  public static SymbolicatorApp start(AppConfig cfg) {
    return create(cfg).startStreams();
  }

  /** Starts the app with a given cache of decoded pages (a benchmark keeps one warm across runs). */
  public static SymbolicatorApp start(AppConfig cfg, PageCache cache) {
    return create(cfg, cache).startStreams();
  }

  /** {@link #create(AppConfig, PageCache)} with a new page cache of {@code page.cache.bytes}. */
  public static SymbolicatorApp create(AppConfig cfg) {
    return create(cfg, new PageCache(cfg.getLong(ConfigKeys.PAGE_CACHE_BYTES)));
  }

  /**
   * Everything but starting: checks the cluster, creates topics, builds the topology, the
   * metrics and (with {@code metrics.port}) their server, which answers /health with 503
   * until {@link #startStreams()} brings the app up.
   */
  public static SymbolicatorApp create(AppConfig cfg, PageCache cache) {
    TopologyConfig tc = cfg.topologyConfig();
    Properties props = KafkaProperties.streams(cfg);
    int metricsPort = cfg.metricsPort();
    Duration metricsRefresh = cfg.getMillis(ConfigKeys.METRICS_REFRESH_MS);
    TopicProvisioner.ensure(cfg, tc.topics(), true);
    AppMetrics metrics = new AppMetrics();
    props.put(OversizedOutputHandler.METRICS, metrics.pipeline());
    S3DumpFetcher dumps = dumpFetcher(cfg);
    var steps =
        SymbolEngines.steps(
            dumps == null ? AttachmentFetcher.NONE : dumps,
            dumpSettings(cfg, tc),
            sourceContextLines(cfg));
    if (steps.get(Platform.native$) instanceof FileEventSymbolicator files) {
      metrics.bindFetchedFiles(files);
    }
    Topology topology = SymbolicationTopology.build(tc, steps, cache, metrics.pipeline());
    SymbolLoader loader =
        cfg.getBoolean(ConfigKeys.LOADER_EMBEDDED) ? LoaderFactory.create(cfg) : null;
    KafkaStreams streams = new KafkaStreams(topology, props);
    StoreWarmup warmup = new StoreWarmup(StoreNames.TABLES);
    streams.setGlobalStateRestoreListener(warmup);
    Health health = new StreamsHealth(streams, warmup, loader, cache);
    metrics
        .bindStreams(streams, metricsRefresh.isZero() ? Duration.ofSeconds(1) : metricsRefresh)
        .bindPageCache(cache)
        .bindHealth(health);
    if (loader != null) {
      metrics.bindLoader(loader);
    }
    MetricsServer server = null;
    if (metricsPort >= 0) {
      try {
        server =
            MetricsServer.start(
                cfg.get(ConfigKeys.METRICS_HOST),
                metricsPort,
                ApiRuntime.routes(
                    ApiRuntime.Parts.operations(
                        metrics.metricsHandler(), new HealthHandler(health))));
      } catch (UncheckedIOException e) {
        streams.close(Duration.ZERO);
        if (loader != null) {
          loader.close();
        }
        metrics.close();
        throw new StartupException(e.getMessage());
      }
      log.info(
          "metrics and health on http://{}:{}/", cfg.get(ConfigKeys.METRICS_HOST), server.port());
    }
    SymbolicatorApp app = new SymbolicatorApp(cfg, streams, loader, cache, metrics, health, server);
    app.dumps = dumps;
    streams.setUncaughtExceptionHandler(
        ex -> {
          if (isCorruptedState(ex)) {
            // expected after a kill under exactly-once: the stores may hold uncommitted data, so
            // they
            // are wiped and restored from their changelogs; nothing is lost
            log.warn(
                "stream thread stopped on task state left dirty by an unclean stop ({}); its stores are"
                    + " restored from their changelogs; replacing the thread",
                ex.getMessage());
          } else {
            log.error("stream thread failed; replacing it", ex);
          }
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    streams.setStateListener(
        (now, before) -> {
          log.info("streams state {} -> {}", before, now);
          warmup.stateChanged(now);
          if (now == KafkaStreams.State.RUNNING && app.firstRunningAt == 0) {
            app.firstRunningAt = System.nanoTime();
            if (app.pauseWhenRunning) {
              // called by the stream thread as it turns RUNNING
              streams.pause();
            }
          }
          if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
            app.stopped.countDown();
          }
        });
    return app;
  }

  /** Whether a stream thread failed on task state that must be wiped and restored. */
  static boolean isCorruptedState(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof TaskCorruptedException) {
        return true;
      }
    }
    return false;
  }

  /** Starts the embedded loader (if any) and the streams client. */
  public SymbolicatorApp startStreams() {
    if (loader != null) {
      loader.start();
    }
    streams.start();
    if (cfg.getBoolean(ConfigKeys.HTTP_ENABLED)) {
      try {
        api =
            ApiRuntime.beside(
                cfg,
                streams,
                pageCache,
                metrics,
                healthHandler(),
                loader == null ? null : loader.stats(),
                cfg.getBoolean(ConfigKeys.ANALYTICS_ENABLED)
                    ? () -> analytics == null ? null : analytics.counts()
                    : null);
      } catch (IOException e) {
        close(Duration.ofSeconds(5));
        throw new StartupException(e.getMessage());
      } catch (RuntimeException e) {
        close(Duration.ofSeconds(5)); // a bad upload or key setting, say
        throw e;
      }
      log.info("HTTP API on {}", api.server().uri());
    } else if (cfg.getBoolean(ConfigKeys.COLLECTOR_ENABLED)) {
      log.warn("collector.enabled has no effect without http.enabled: POST /submit is not served");
    }
    if (cfg.getBoolean(ConfigKeys.ANALYTICS_ENABLED)) {
      analytics =
          AnalyticsRuntime.start(
              cfg, api == null ? null : AnalyticsRuntime.advertised(cfg, api.server().port()));
    }
    return this;
  }

  /** The HTTP API beside the stream (http.enabled), or null. */
  public ApiRuntime.Running api() {
    return api;
  }

  /** The top-crashers aggregation ({@code analytics.enabled}), or null. */
  public AnalyticsRuntime analytics() {
    return analytics;
  }

  public SymbolLoader loader() {
    return loader;
  }

  public PageCache pageCache() {
    return pageCache;
  }

  /** The instance's meters; {@link AppMetrics#metricsHandler()} serves them. */
  public AppMetrics metrics() {
    return metrics;
  }

  /** Readiness, for {@code GET /health} ({@link HealthHandler}). */
  public Health health() {
    return health;
  }

  /** {@code GET /metrics}, to mount on the API server too. */
  public Handler metricsHandler() {
    return metrics.metricsHandler();
  }

  /** {@code GET /health}: 200 when ready, 503 otherwise. */
  public Handler healthHandler() {
    return new HealthHandler(health);
  }

  /** The port of the metrics server, or -1 when {@code metrics.port} is off. */
  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.port();
  }

  public KafkaStreams streams() {
    return streams;
  }

  /**
   * Before {@link #startStreams()}: the client joins, restores its stores and reaches RUNNING,
   * then holds (polling, not processing) until {@code streams().resume()}. Tasks restored before
   * others may already have processed some records by then. (Pausing before the start would also
   * hold the restoration of its stores, so it would never reach RUNNING.) The pipeline benchmark
   * uses it to start its clock on a settled process.
   */
  public SymbolicatorApp pauseWhenRunning() {
    pauseWhenRunning = true;
    return this;
  }

  /** {@link System#nanoTime()} when the client first reached RUNNING, or 0 if it has not yet. */
  public long firstRunningAt() {
    return firstRunningAt;
  }

  /**
   * Waits until the app reaches RUNNING and its state listener has run (so {@link
   * #firstRunningAt()} is set); false on timeout or failure.
   */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      KafkaStreams.State s = streams.state();
      // the client's state turns RUNNING just before its listener is called
      if (s == KafkaStreams.State.RUNNING && firstRunningAt != 0) {
        return true;
      }
      if (s == KafkaStreams.State.ERROR || s == KafkaStreams.State.NOT_RUNNING) {
        return false;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /** Blocks until the streams client stops (error or close). */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  public boolean failed() {
    return streams.state() == KafkaStreams.State.ERROR;
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  /**
   * Closes and leaves the consumer group, so a restarted or remaining instance takes over the
   * partitions at once instead of after the session timeout.
   */
  public void close(Duration timeout) {
    if (api != null) {
      api.close();
    }
    if (analytics != null) {
      analytics.close(timeout);
    }
    if (metricsServer != null) {
      metricsServer.close();
    }
    if (loader != null) {
      loader.close();
    }
    streams.close(
        CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
            .withTimeout(timeout));
    if (dumps != null) {
      dumps.close();
    }
    metrics.close();
  }

  /** The fetcher of dumps carried by reference: S3 with the symbols.s3.* connection, or none without a bucket. */
  static S3DumpFetcher dumpFetcher(AppConfig cfg) {
    // the bucket of references that name none; references name theirs, the collector's always do
    String bucket = cfg.get(ConfigKeys.MINIDUMP_S3_BUCKET);
    if (bucket.isBlank()) {
      bucket = cfg.get(ConfigKeys.COLLECTOR_S3_BUCKET);
    }
    if (bucket.isBlank()) {
      bucket = cfg.get(ConfigKeys.SYMBOLS_S3_BUCKET);
    }
    String endpoint = cfg.get(ConfigKeys.SYMBOLS_S3_ENDPOINT);
    if (bucket.isBlank()) {
      return null; // no bucket anywhere: references are dead letters with a reason
    }
    var client =
        S3Source.client(
            new S3Source.Settings(
                bucket,
                "",
                cfg.get(ConfigKeys.SYMBOLS_S3_REGION),
                endpoint.isBlank() ? null : URI.create(endpoint),
                cfg.getBoolean(ConfigKeys.SYMBOLS_S3_PATH_STYLE),
                cfg.getMillis(ConfigKeys.SYMBOLS_FETCH_TIMEOUT_MS)));
    return new S3DumpFetcher(
        client, bucket, Math.max(1, cfg.getInt(ConfigKeys.MINIDUMP_FETCH_THREADS)));
  }

  /** {@code symbolication.source.context.lines}, refused when negative. */
  static int sourceContextLines(AppConfig cfg) {
    int n = cfg.getInt(ConfigKeys.SOURCE_CONTEXT_LINES);
    if (n < 0) {
      throw new IllegalArgumentException(
          ConfigKeys.SOURCE_CONTEXT_LINES.name() + " must be 0 (off) or more, not " + n);
    }
    return n;
  }

  /**
   * The Source Link fetcher of {@code symbolication.source.link.*}, or null when no prefix is
   * allowed (the default: Source Link URLs are reported, never fetched).
   */
  static SourceLinkFetcher sourceLinks(AppConfig cfg) {
    SourceLinkPolicy policy =
        SourceLinkPolicy.parse(
            cfg.get(ConfigKeys.SOURCE_LINK_ALLOW),
            cfg.getBoolean(ConfigKeys.SOURCE_LINK_ALLOW_PRIVATE));
    if (!policy.enabled()) {
      return null;
    }
    return new SourceLinkFetcher(
        new SourceLinkFetcher.Settings(
            policy,
            cfg.getLong(ConfigKeys.SOURCE_LINK_MAX_FILE_BYTES),
            cfg.getMillis(ConfigKeys.SOURCE_LINK_TIMEOUT_MS),
            cfg.getInt(ConfigKeys.SOURCE_LINK_MAX_FILES_PER_EVENT),
            cfg.getLong(ConfigKeys.CACHE_MISSING_RETRY_MS),
            cfg.getLong(ConfigKeys.CACHE_MALFORMED_RETRY_MS),
            cfg.getLong(ConfigKeys.CACHE_FAILED_RETRY_MS),
            cfg.getLong(ConfigKeys.SOURCE_LINK_CACHE_BYTES)));
  }

  static FileEventSymbolicator.Settings dumpSettings(AppConfig cfg, TopologyConfig tc) {
    return new FileEventSymbolicator.Settings(
        cfg.getLong(ConfigKeys.MINIDUMP_MAX_BYTES),
        cfg.getLong(ConfigKeys.MINIDUMP_FETCH_MEMORY_BYTES),
        cfg.getMillis(ConfigKeys.MINIDUMP_FETCH_RETRY_MS),
        tc.parking().maxModules(),
        MinidumpProcessor.DEFAULT_MAX_FRAMES);
  }
}

package io.symbolicate.app.runtime;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.topology.deadletter.OversizedOutputHandler;

import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.connectors.loader.CpuBudget;
import io.symbolicate.connectors.loader.LoaderSettings;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.app.metrics.AppMetrics;
import io.symbolicate.app.metrics.Health;
import io.symbolicate.app.metrics.HealthHandler;
import io.symbolicate.app.metrics.MetricsServer;
import io.symbolicate.app.metrics.StoreWarmup;
import io.symbolicate.app.metrics.StreamsHealth;
import io.symbolicate.topology.store.PageCache;
import io.symbolicate.schema.topic.Topics;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.topology.config.TopologyConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
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

  private SymbolicatorApp(AppConfig cfg, KafkaStreams streams, SymbolLoader loader, PageCache pageCache,
      AppMetrics metrics, Health health, MetricsServer metricsServer) {
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
    return create(cfg, new PageCache(cfg.getLong("page.cache.bytes")));
  }

  /**
   * Everything but starting: checks the cluster, creates topics, builds the topology, the
   * metrics and (with {@code metrics.port}) their server, which answers /health with 503
   * until {@link #startStreams()} brings the app up.
   */
  public static SymbolicatorApp create(AppConfig cfg, PageCache cache) {
    TopologyConfig tc = cfg.topologyConfig();
    Properties props = streamsProperties(cfg);
    int metricsPort = cfg.metricsPort();
    Duration metricsRefresh = cfg.getMillis("metrics.refresh.ms");
    checkClusterAndTopics(cfg, tc.topics(), true);
    AppMetrics metrics = new AppMetrics();
    props.put(OversizedOutputHandler.METRICS, metrics.pipeline());
    Topology topology = SymbolicationTopology.build(tc, SymbolEngines.steps(), cache, metrics.pipeline());
    SymbolLoader loader = cfg.getBoolean("loader.embedded") ? createLoader(cfg) : null;
    KafkaStreams streams = new KafkaStreams(topology, props);
    StoreWarmup warmup = new StoreWarmup(Topics.TABLES_STORE);
    streams.setGlobalStateRestoreListener(warmup);
    Health health = new StreamsHealth(streams, warmup, loader, cache);
    metrics.bindStreams(streams, metricsRefresh.isZero() ? Duration.ofSeconds(1) : metricsRefresh)
        .bindPageCache(cache).bindHealth(health);
    if (loader != null) {
      metrics.bindLoader(loader);
    }
    MetricsServer server = null;
    if (metricsPort >= 0) {
      try {
        server = MetricsServer.start(cfg.get("metrics.host"), metricsPort, metrics.metricsHandler(),
            new HealthHandler(health));
      } catch (java.io.UncheckedIOException e) {
        streams.close(Duration.ZERO);
        if (loader != null) {
          loader.close();
        }
        metrics.close();
        throw new StartupException(e.getMessage());
      }
      log.info("metrics and health on http://{}:{}/", cfg.get("metrics.host"), server.port());
    }
    SymbolicatorApp app = new SymbolicatorApp(cfg, streams, loader, cache, metrics, health, server);
    streams.setUncaughtExceptionHandler(ex -> {
      log.error("stream thread failed; replacing it", ex);
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.setStateListener((now, before) -> {
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

  /** Starts the embedded loader (if any) and the streams client. */
  public SymbolicatorApp startStreams() {
    if (loader != null) {
      loader.start();
    }
    streams.start();
    if (cfg.getBoolean("http.enabled")) {
      try {
        api = ApiRuntime.beside(cfg, streams, pageCache, metrics, healthHandler());
      } catch (java.io.IOException e) {
        close(Duration.ofSeconds(5));
        throw new StartupException(e.getMessage());
      }
      log.info("HTTP API on {}", api.server().uri());
    }
    return this;
  }

  /** Starts a loader with the configured sources (also used by {@code symbolicator loader}). */
  public static SymbolLoader startLoader(AppConfig cfg) {
    return createLoader(cfg).start();
  }

  /** A loader with the configured sources, not started. */
  public static SymbolLoader createLoader(AppConfig cfg) {
    TopicNames t = cfg.topicNames();
    return new SymbolLoader(cfg.bootstrapServers(), securityOverrides(cfg), cfg.get("application.id") + "-loader",
        new SymbolLoader.Topics(t.requests(), t.uploads(), t.tables(), t.index()), sources(cfg),
        SymbolEngines.converters(), SymbolEngines.locators(), loaderSettings(cfg));
  }

  /** The configured symbol sources; with none, every module is reported missing. */
  public static SourceChain sources(AppConfig cfg) {
    SourceChain sources = SymbolSources.fromConfig(cfg);
    if (sources == null) {
      log.warn("no symbol source configured (symbols.s3.bucket, symbols.dir, symbols.http.url): "
          + "every module will be reported missing");
      sources = new SourceChain(java.util.List.of(new io.symbolicate.connectors.source.SymbolSource() {
        @Override
        public String name() {
          return "none";
        }

        @Override
        public io.symbolicate.connectors.source.FetchResult fetch(String key) {
          return new io.symbolicate.connectors.source.FetchResult.NotFound("no symbol source configured");
        }
      }));
    }
    return sources;
  }

  /** The loader's behaviour and the caching rules, from the configuration. */
  public static LoaderSettings loaderSettings(AppConfig cfg) {
    return new LoaderSettings(cfg.getInt("loader.concurrency"), cfg.getInt("loader.attempts"),
        cfg.getMillis("loader.backoff.ms"), cfg.getMillis("cache.missing.retry.ms"),
        cfg.getMillis("cache.malformed.retry.ms"), cfg.getMillis("cache.failed.retry.ms"),
        cfg.getMillis("cache.unused.ttl.ms"), cfg.getLong("symbols.max.file.bytes"),
        LoaderSettings.defaults().coalesceWindow(), cpuBudget(cfg), cfg.getBoolean("loader.warmup"));
  }

  /** loader.cpu.share and loader.cpu.share.idle; an idle share below the busy one is raised to it. */
  static CpuBudget cpuBudget(AppConfig cfg) {
    double busy = cfg.getPositiveDouble("loader.cpu.share");
    return new CpuBudget(busy, Math.max(busy, cfg.getPositiveDouble("loader.cpu.share.idle")));
  }

  /** The cluster's security settings, for clients the app creates itself (loader, API). */
  public static Map<String, String> securityOverrides(AppConfig cfg) {
    Map<String, String> clientOverrides = new java.util.HashMap<>();
    cfg.streamsOverrides().forEach((k, v) -> {
      if (k.startsWith("security.") || k.startsWith("ssl.") || k.startsWith("sasl.")
          || k.startsWith(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
        clientOverrides.put(k, v);
      }
    });
    return clientOverrides;
  }

  /** The HTTP API beside the stream (http.enabled), or null. */
  public ApiRuntime.Running api() {
    return api;
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

  /** {@code GET /metrics}, to mount on any JDK {@code HttpServer} (e.g. the API server). */
  public com.sun.net.httpserver.HttpHandler metricsHandler() {
    return metrics.metricsHandler();
  }

  /** {@code GET /health}: 200 when ready, 503 otherwise. */
  public com.sun.net.httpserver.HttpHandler healthHandler() {
    return new HealthHandler(health);
  }

  /** The port of the metrics server, or -1 when {@code metrics.port} is off. */
  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.port();
  }

  /** The main consumer's {@code max.partition.fetch.bytes} (see {@link #streamsProperties}). */
  static final int MAIN_FETCH_BYTES = 8 << 20;

  /** The output producer's codec and batch size (see {@link #streamsProperties}; the JMH benchmarks use them too). */
  public static final String OUTPUT_COMPRESSION = "lz4";
  public static final int OUTPUT_BATCH_BYTES = 256 * 1024;

  public static Properties streamsProperties(AppConfig cfg) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, cfg.get("application.id"));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, cfg.get("processing.guarantee"));
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, cfg.getInt("num.stream.threads"));
    p.put(StreamsConfig.STATE_DIR_CONFIG, cfg.get("state.dir"));
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    // a symbolicated event too large for the output topic is dead-lettered, not a stopped partition
    p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, OversizedOutputHandler.class);
    p.put(OversizedOutputHandler.DLQ_TOPIC, cfg.get("topic.dlq"));
    p.put(OversizedOutputHandler.MAX_BYTES, cfg.topologyConfig().maxOutputBytes());
    // the changelogs of parked events hold whole events: as large as the outputs may be, not the
    // broker's 1 MB default (max.event.bytes may be raised above it)
    p.put(StreamsConfig.topicPrefix("max.message.bytes"), cfg.getInt("dlq.max.message.bytes"));
    // a dead letter carries the original record plus its reason, so it may exceed 1 MB
    p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), cfg.getInt("dlq.max.message.bytes"));
    // symbolicated events are several KB of repetitive names: batches of a whole commit interval
    // and lz4 cost the broker and every consumer a fraction of the per-batch and per-byte work
    p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), OUTPUT_BATCH_BYTES);
    p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), OUTPUT_COMPRESSION);
    // every task reads one partition (no joins to align in time), so there is nothing to idle
    // for; and Kafka Streams 4.3 formats a log string per empty partition on every processing
    // check unless idling is disabled (String.format on the stream thread: 1-2 % of its samples)
    p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    // the input is many small events: fetch up to 8 MB per partition (not 1 MB, ~900 events), so
    // the stream thread waits out a fetch round trip once per several thousand events. A broker
    // busy storing the symbolicated output answers fetches late: with 1 MB the symbolicator's
    // stream thread waited 15-24 µs per event for input in the benchmark, 5-15 µs with 8 MB.
    // The main consumer only (the global one reads pages of up to 4 MB anyway); the consumer's
    // own fetch.max.bytes (50 MB) still bounds a response
    p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), MAIN_FETCH_BYTES);
    cfg.streamsOverrides().forEach(p::put);
    return p;
  }

  /**
   * An Admin client's settings: the cluster, {@code startup.timeout.ms} for its calls, and the
   * {@code streams.*} overrides an Admin client takes (security, for one).
   */
  static Properties adminProperties(AppConfig cfg) {
    int timeoutMs = cfg.getInt("startup.timeout.ms");
    Properties ap = clientProperties(cfg, AdminClientConfig.configNames(), StreamsConfig.ADMIN_CLIENT_PREFIX);
    ap.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 5000));
    // the Admin client refuses an API timeout below the request timeout (a user's may be longer)
    long request = Long.parseLong(String.valueOf(ap.get(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)).trim());
    ap.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
        (int) Math.min(Integer.MAX_VALUE, Math.max(timeoutMs, request)));
    return ap;
  }

  /**
   * The settings of a plain client of the app's cluster (the tools' consumers and producers):
   * the {@code streams.*} overrides about the connection that this client takes (security,
   * timeouts; not the app's consumer behaviour such as {@code group.protocol}), the config
   * providers that resolve {@code ${...}} secrets in them, and those given for that kind of
   * client alone ({@code streams.consumer.*}, {@code streams.producer.*}, {@code streams.admin.*},
   * which win).
   */
  static Properties clientProperties(AppConfig cfg, Set<String> names, String clientPrefix) {
    Properties p = new Properties();
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    Map<String, String> overrides = cfg.streamsOverrides();
    overrides.forEach((k, v) -> {
      if (names.contains(k) && AdminClientConfig.configNames().contains(k)
          || k.startsWith(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
        p.put(k, v);
      }
    });
    overrides.forEach((k, v) -> {
      if (k.startsWith(clientPrefix) && names.contains(k.substring(clientPrefix.length()))) {
        p.put(k.substring(clientPrefix.length()), v);
      }
    });
    return p;
  }

  /**
   * Reaches the cluster and creates the missing topics (unless {@code topics.create=false}).
   * {@code writesEvents}: the caller is the stream app, whose output and dead-letter topics, if
   * they exist already, must take records of {@code dlq.max.message.bytes}.
   */
  public static void checkClusterAndTopics(AppConfig cfg, TopicNames topics, boolean writesEvents) {
    int timeoutMs = cfg.getInt("startup.timeout.ms");
    Properties ap = adminProperties(cfg);
    try (Admin admin = Admin.create(ap)) {
      Set<String> existing;
      try {
        existing = admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        throw new StartupException("cannot reach Kafka at " + cfg.bootstrapServers() + " within "
            + timeoutMs + " ms" + (e instanceof ExecutionException ? ": " + e.getCause().getMessage() : ""));
      }
      List<NewTopic> missing = new ArrayList<>();
      int partitions = cfg.getInt("topics.partitions");
      Optional<Short> rf = cfg.getInt("topics.replication.factor") < 0
          ? Optional.empty() : Optional.of((short) cfg.getInt("topics.replication.factor"));
      for (String t : topics.all()) {
        if (!existing.contains(t)) {
          NewTopic nt = new NewTopic(t, Optional.of(partitions), rf);
          Map<String, String> tc = new java.util.HashMap<>();
          if (t.equals(topics.dlq()) || t.equals(topics.symbolicated())) {
            // a dead letter carries the original record plus its reason; a symbolicated event
            // carries the raw event plus every frame's names: either may exceed 1 MB
            tc.put("max.message.bytes", cfg.get("dlq.max.message.bytes"));
          }
          if (topics.compacted().contains(t)) {
            tc.put("cleanup.policy", "compact");
          }
          if (t.equals(topics.tables())) {
            tc.put("max.message.bytes", String.valueOf(4 << 20));
          }
          nt.configs(tc);
          missing.add(nt);
        }
      }
      if (writesEvents) {
        checkRecordLimits(admin, cfg, Stream.of(topics.symbolicated(), topics.dlq())
            .filter(existing::contains).distinct().toList(), timeoutMs);
      }
      if (missing.isEmpty()) {
        return;
      }
      if (!cfg.getBoolean("topics.create")) {
        throw new StartupException("missing topics " + missing.stream().map(NewTopic::name).toList()
            + " and topics.create=false");
      }
      log.info("creating topics {}", missing.stream().map(NewTopic::name).toList());
      try {
        admin.createTopics(missing).all().get(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
          throw new StartupException("cannot create topics: " + e.getCause().getMessage());
        }
      } catch (TimeoutException e) {
        throw new StartupException("timed out creating topics " + missing);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartupException("interrupted while starting");
    }
  }

  /**
   * An output or dead letter that its topic refuses dooms the exactly-once transaction, and after
   * the restart the same record fails again: the partition stops for good. The app's own limit on
   * what it writes there is {@code dlq.max.message.bytes}, so existing topics must take that much.
   * (Topics the app creates get it.) If the configs cannot be read (no DescribeConfigs right), it
   * says so and goes on.
   */
  private static void checkRecordLimits(Admin admin, AppConfig cfg, List<String> names, int timeoutMs)
      throws InterruptedException {
    if (names.isEmpty()) {
      return;
    }
    int needed = cfg.getInt("dlq.max.message.bytes");
    Map<ConfigResource, Config> configs;
    try {
      configs = admin.describeConfigs(names.stream()
          .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList())
          .all().get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      log.warn("cannot read max.message.bytes of {} ({}); they must take records of dlq.max.message.bytes={}",
          names, e instanceof ExecutionException ? e.getCause().getMessage() : "timed out", needed);
      return;
    }
    for (String name : names) {
      Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name));
      ConfigEntry limit = c == null ? null : c.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
      if (limit == null || limit.value() == null) {
        continue;
      }
      long takes = Long.parseLong(limit.value());
      if (takes < needed) {
        throw new StartupException("topic " + name + " takes records of at most " + takes
            + " bytes (max.message.bytes) but dlq.max.message.bytes is " + needed + ": an output or dead letter "
            + "between the two would fail its transaction again and again. Raise the topic's max.message.bytes "
            + "to at least " + needed + ", or set dlq.max.message.bytes to at most " + takes);
      }
    }
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
    if (metricsServer != null) {
      metricsServer.close();
    }
    if (loader != null) {
      loader.close();
    }
    streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
        .withTimeout(timeout));
    metrics.close();
  }

  /** The app could not start; the message says why, for the user. */
  public static final class StartupException extends RuntimeException {
    public StartupException(String message) {
      super(message);
    }
  }
}

package io.symbolicate.app.runtime;

import io.symbolicate.analytics.query.StreamsCounts;
import io.symbolicate.api.ApiServer;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.ApiSymbols;
import io.symbolicate.api.CorsPolicy;
import io.symbolicate.api.Symbolication;
import io.symbolicate.api.analytics.CrashQueries;
import io.symbolicate.api.analytics.SignatureHandler;
import io.symbolicate.api.analytics.SignaturePartHandler;
import io.symbolicate.api.analytics.TopCrashersHandler;
import io.symbolicate.api.analytics.TopCrashersPartHandler;
import io.symbolicate.api.apple.AppleCrashReportHandler;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.collect.SubmitHandler;
import io.symbolicate.api.js.JsApiHandler;
import io.symbolicate.api.jvm.JvmApiHandler;
import io.symbolicate.api.minidump.MinidumpHandler;
import io.symbolicate.api.nativecode.MozillaV4Handler;
import io.symbolicate.api.nativecode.MozillaV5Handler;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.api.server.ServerLimits;
import io.symbolicate.api.stacktraces.SymbolicateHandler;
import io.symbolicate.api.status.StatusAssetHandler;
import io.symbolicate.api.status.StatusJsonHandler;
import io.symbolicate.api.status.StatusPageHandler;
import io.symbolicate.api.status.StatusSource;
import io.symbolicate.api.status.TopCrashersClient;
import io.symbolicate.api.symbols.KafkaApiSymbols;
import io.symbolicate.api.symbols.LocalApiSymbols;
import io.symbolicate.api.symbols.LocalTableStore;
import io.symbolicate.api.upload.BreakpadUploadHandler;
import io.symbolicate.api.upload.DebugFileUploadHandler;
import io.symbolicate.api.upload.JsFormat;
import io.symbolicate.api.upload.JsUploadHandler;
import io.symbolicate.api.upload.ProguardUploadHandler;
import io.symbolicate.api.upload.SymbfileFormat;
import io.symbolicate.api.upload.SymbfileUploadHandler;
import io.symbolicate.api.upload.SymbolPathUploadHandler;
import io.symbolicate.api.upload.UploadService;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.app.metrics.AppMetrics;
import io.symbolicate.app.metrics.Health;
import io.symbolicate.app.metrics.HealthHandler;
import io.symbolicate.app.metrics.LocalStoreHealth;
import io.symbolicate.app.metrics.MetricsServer;
import io.symbolicate.app.status.MeterStatusSource;
import io.symbolicate.app.status.MissingModulesTracker;
import io.symbolicate.connectors.loader.ModuleFetcher;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.topology.store.GlobalTablesQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.LoggerFactory;

/** Starts the HTTP API from the configuration: on its own ({@code serve}) or beside the streams app. */
public final class ApiRuntime {
  private ApiRuntime() {}

  /** The HTTP server's timeouts, threads, HTTP/2 and TLS from the {@code http.*} keys. */
  public static ServerLimits serverLimits(AppConfig cfg) {
    String keystore = cfg.get(ConfigKeys.HTTP_TLS_KEYSTORE_PATH);
    try {
      ServerLimits.Tls tls = null;
      if (!keystore.isBlank()) {
        if (!Files.isReadable(Path.of(keystore))) {
          throw new AppConfig.ConfigException("http.tls.keystore.path: cannot read " + keystore);
        }
        tls =
            new ServerLimits.Tls(Path.of(keystore), cfg.get(ConfigKeys.HTTP_TLS_KEYSTORE_PASSWORD));
      }
      return new ServerLimits(
          cfg.getMillis(ConfigKeys.HTTP_IDLE_TIMEOUT_MS),
          cfg.getMillis(ConfigKeys.HTTP_HEADER_TIMEOUT_MS),
          cfg.getMillis(ConfigKeys.HTTP_BODY_TIMEOUT_MS),
          cfg.getLong(ConfigKeys.HTTP_BODY_MIN_RATE_BYTES),
          cfg.getInt(ConfigKeys.HTTP_MAX_THREADS),
          Boolean.parseBoolean(cfg.get(ConfigKeys.HTTP_H2C).trim()),
          tls,
          cfg.getInt(ConfigKeys.HTTP_MAX_CONNECTIONS),
          cfg.getInt(ConfigKeys.HTTP_MAX_CONNECTIONS_PER_ADDRESS));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException(e.getMessage());
    }
  }

  /**
   * A running API: the server, the routes it serves, the symbols and the symbolication handlers'
   * admission behind them, the status page's source, the upload routes' and collector's resources.
   */
  public record Running(
      ApiServer server,
      RouteTable routes,
      ApiSymbols symbols,
      Symbolication symbolication,
      MeterStatusSource status,
      AutoCloseable uploads)
      implements AutoCloseable {
    @Override
    public void close() {
      server.close();
      status.close();
      try {
        uploads.close();
      } catch (Exception e) {
        LoggerFactory.getLogger(ApiRuntime.class)
            .warn("closing the upload routes or the collector failed: {}", e.toString());
      }
      symbols.close();
    }
  }

  /** Who may read which scope on the symbolication endpoints: {@code api.keys}, {@code api.anonymous.scopes}. */
  static ScopeAccess access(AppConfig cfg) {
    try {
      return new ScopeAccess(
          UploadRuntime.keys(cfg),
          ScopeAccess.parseAnonymousScopes(cfg.get(ConfigKeys.API_ANONYMOUS_SCOPES)));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException("api.anonymous.scopes: " + e.getMessage());
    }
  }

  public static ApiSettings settings(AppConfig cfg) {
    int retryAfter = cfg.getInt(ConfigKeys.HTTP_RETRY_AFTER_SECONDS);
    if (retryAfter < 0) {
      throw new AppConfig.ConfigException("http.retry.after.seconds must not be negative");
    }
    // a request waiting for symbols does no I/O: the server's idle timeout would close its
    // connection before the answer if the wait came near it
    Duration wait = cfg.getMillis(ConfigKeys.HTTP_REQUEST_TIMEOUT_MS);
    long idle = cfg.getMillis(ConfigKeys.HTTP_IDLE_TIMEOUT_MS).toMillis();
    if (wait.toMillis() > idle - 10_000) {
      throw new AppConfig.ConfigException(
          "http.request.timeout.ms ("
              + wait.toMillis()
              + ") must be at least 10 s "
              + "below http.idle.timeout.ms ("
              + idle
              + "): raise that, or wait less");
    }
    try {
      return new ApiSettings(
          cfg.get(ConfigKeys.HTTP_HOST),
          cfg.getInt(ConfigKeys.HTTP_PORT),
          cfg.getInt(ConfigKeys.HTTP_MAX_IN_FLIGHT),
          cfg.getLong(ConfigKeys.HTTP_MAX_BODY_BYTES),
          cfg.getInt(ConfigKeys.HTTP_MAX_FRAMES),
          wait,
          retryAfter,
          cfg.getLong(ConfigKeys.HTTP_MAX_IN_FLIGHT_BYTES),
          cfg.getInt(ConfigKeys.HTTP_MAX_MODULES),
          CorsPolicy.parse(cfg.get(ConfigKeys.HTTP_CORS_ORIGINS)));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException(e.getMessage());
    }
  }

  /**
   * What a process serves over HTTP, each part null when it is off here.
   *
   * @param symbolication the symbolication endpoints ({@code serve}, {@code run} with
   *     {@code http.enabled})
   * @param uploads the symbol upload routes ({@code upload.enabled}), taking {@code uploadKeys}
   * @param uploadKeys the keys of the upload routes ({@code api.keys})
   * @param collector {@code POST /submit} ({@code collector.enabled})
   * @param topCrashers the top crashers and signatures ({@code aggregate}, {@code run} with
   *     {@code analytics.enabled}): elsewhere the routes are absent (404), which the status page
   *     reads as "not enabled"
   * @param status the status page
   * @param metrics {@code GET /metrics}
   * @param health {@code GET /health}
   */
  public record Parts(
      Symbolication symbolication,
      UploadService uploads,
      ApiKeys uploadKeys,
      SubmitHandler collector,
      CrashQueries topCrashers,
      StatusSource status,
      Handler metrics,
      Handler health) {

    /** {@code /metrics} and {@code /health} alone (the metrics server of {@code metrics.port}). */
    public static Parts operations(Handler metrics, Handler health) {
      return new Parts(null, null, null, null, null, null, metrics, health);
    }

    /** The symbolication endpoints alone. */
    public static Parts symbolication(Symbolication s) {
      return new Parts(s, null, null, null, null, null, null, null);
    }

    public Parts withHealth(Handler h) {
      return new Parts(
          symbolication, uploads, uploadKeys, collector, topCrashers, status, metrics, h);
    }
  }

  /**
   * The route table: every route of {@link Route} that {@code parts} serves, with its handler
   * (docs/http-api.md); the API server and the metrics server serve what it gives. The only place
   * a route is bound; the symbolication endpoints' frame limit is the server's, checked as they
   * parse.
   */
  public static RouteTable routes(Parts parts) {
    RouteTable.Builder t = RouteTable.builder();
    Symbolication s = parts.symbolication();
    if (s != null) {
      t.add(Route.SYMBOLICATE_V5, new MozillaV5Handler(s))
          .add(Route.SYMBOLICATE_V4, new MozillaV4Handler(s))
          .add(Route.ROOT, new MozillaV4Handler(s))
          .add(Route.SYMBOLICATE, new SymbolicateHandler(s))
          .add(Route.SYMBOLICATE_JS, new JsApiHandler(s))
          .add(Route.SYMBOLICATE_JVM, new JvmApiHandler(s))
          .add(Route.APPLE_CRASH_REPORT, new AppleCrashReportHandler(s))
          .add(Route.MINIDUMP, new MinidumpHandler(s));
    }
    UploadService uploads = parts.uploads();
    if (uploads != null) {
      ApiKeys keys = parts.uploadKeys();
      t.add(Route.SYMBOLS_RANGES, new SymbfileUploadHandler(SymbfileFormat.RANGES, keys, uploads))
          .add(
              Route.SYMBOLS_RETURNPADS,
              new SymbfileUploadHandler(SymbfileFormat.RETURN_PADS, keys, uploads))
          .add(Route.SYMBOLS_BREAKPAD, new BreakpadUploadHandler(keys, uploads))
          .add(Route.SYMBOLS_SOURCEMAP, new JsUploadHandler(JsFormat.Kind.SOURCEMAP, keys, uploads))
          .add(Route.SYMBOLS_MINIFIED, new JsUploadHandler(JsFormat.Kind.MINIFIED, keys, uploads))
          .add(Route.SYMBOLS_PROGUARD, new ProguardUploadHandler(keys, uploads))
          .add(Route.SYMBOLS_DEBUGFILE, new DebugFileUploadHandler(keys, uploads))
          .add(Route.SYMBOLS_PATH, new SymbolPathUploadHandler(keys, uploads));
    }
    if (parts.collector() != null) {
      t.add(Route.SUBMIT, parts.collector());
    }
    CrashQueries queries = parts.topCrashers();
    if (queries != null) {
      t.add(Route.TOP_CRASHERS, new TopCrashersHandler(queries, Clock.systemUTC()))
          .add(Route.SIGNATURE, new SignatureHandler(queries))
          .add(Route.TOP_CRASHERS_PART, new TopCrashersPartHandler(queries))
          .add(Route.SIGNATURE_PART, new SignaturePartHandler(queries));
    }
    StatusSource status = parts.status();
    if (status != null) {
      t.add(Route.STATUS, new StatusPageHandler(status))
          .add(Route.STATUS_JSON, new StatusJsonHandler(status))
          .add(
              Route.STATUS_JS,
              new StatusAssetHandler("status.js", "text/javascript; charset=utf-8"))
          .add(Route.STATUS_CSS, new StatusAssetHandler("status.css", "text/css; charset=utf-8"));
    }
    if (parts.metrics() != null) {
      t.add(Route.METRICS, parts.metrics());
    }
    if (parts.health() != null) {
      t.add(Route.HEALTH, parts.health());
    }
    return t.build();
  }

  /**
   * The status page's numbers: the instance's meters, the loads of {@code loads} (null: no loader
   * here), the stream's figures and {@code symbols.missing} when the streams app runs beside
   * ({@code cluster}: {@code run}, not {@code serve}), and the top crashers of
   * {@code status.top.crashers.url} or, by default, of this server once it listens.
   */
  static MeterStatusSource status(
      AppConfig cfg,
      AppMetrics metrics,
      SymbolLoader.Stats loads,
      boolean cluster,
      AtomicReference<URI> self) {
    String url = cfg.get(ConfigKeys.STATUS_TOP_CRASHERS_URL).trim();
    URI topCrashers;
    try {
      topCrashers = url.isEmpty() ? null : URI.create(url.endsWith("/") ? url : url + "/");
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException(
          "status.top.crashers.url is not a URL: " + e.getMessage());
    }
    if (topCrashers != null
        && (topCrashers.getScheme() == null || !topCrashers.getScheme().startsWith("http"))) {
      throw new AppConfig.ConfigException(
          "status.top.crashers.url must be an http(s) URL, not " + url);
    }
    MissingModulesTracker missing =
        cluster
            ? new MissingModulesTracker(
                    KafkaProperties.client(
                        cfg, ConsumerConfig.configNames(), StreamsConfig.CONSUMER_PREFIX),
                    cfg.topicNames().missing())
                .start()
            : null;
    return new MeterStatusSource(
        metrics.registry(),
        cluster,
        loads,
        missing,
        new TopCrashersClient(topCrashers != null ? () -> topCrashers : self::get));
  }

  /** The server's root as seen from this process (a wildcard bind is reached on loopback). */
  static URI selfUri(ApiServer server) {
    InetSocketAddress a = server.address();
    String host =
        a.getAddress() == null || a.getAddress().isAnyLocalAddress()
            ? "127.0.0.1"
            : a.getAddress() instanceof Inet6Address
                ? "[" + a.getAddress().getHostAddress() + "]"
                : a.getAddress().getHostAddress();
    return URI.create("http://" + host + ":" + a.getPort() + "/");
  }

  /** {@code aggregate}: the top-crasher routes and /health only, no symbolication. */
  public static ApiServer analyticsOnly(
      AppConfig cfg, Supplier<StreamsCounts> counts, Handler health) throws IOException {
    ApiSettings settings = settings(cfg);
    RouteTable routes =
        routes(new Parts(null, null, null, null, new CrashQueries(counts), null, null, health));
    try {
      return ApiServer.start(settings, routes, serverLimits(cfg));
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "cannot serve the API on "
              + settings.host()
              + ":"
              + settings.port()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * {@code serve}: no Kafka. Tables are cached on local disk ({@code http.cache.dir}), loaded by
   * the loader's fetch/convert core from the configured sources with its concurrency and rules.
   */
  public static Running serve(AppConfig cfg) throws IOException {
    ApiSettings settings = settings(cfg);
    ServerLimits limits = serverLimits(cfg);
    ModuleFetcher fetcher =
        new ModuleFetcher(
            LoaderFactory.sources(cfg),
            SymbolEngines.converters(),
            LoaderFactory.locators(cfg),
            LoaderFactory.loaderSettings(cfg),
            new SymbolLoader.Stats());
    LocalTableStore store = new LocalTableStore(Path.of(cfg.get(ConfigKeys.HTTP_CACHE_DIR)));
    PageCache cache = new PageCache(cfg.getLong(ConfigKeys.PAGE_CACHE_BYTES));
    LocalApiSymbols symbols =
        new LocalApiSymbols(
            store, cache, fetcher, cfg.getMillis(ConfigKeys.PARK_TOUCH_INTERVAL_MS));
    Health health = new LocalStoreHealth(store::isOpen, cache);
    AppMetrics metrics =
        new AppMetrics().bindPageCache(cache).bindLoaderStats(fetcher.stats()).bindHealth(health);
    // no Kafka: an upload makes the local loader load the module again
    UploadService uploads;
    try {
      uploads = UploadRuntime.service(cfg, ref -> symbols.request(ref, RequestReason.upload));
    } catch (RuntimeException e) {
      symbols.close();
      throw e;
    }
    // /health and /metrics also on metrics.port: their own small server and threads, so that
    // probes never queue behind request traffic
    MetricsServer probes = null;
    if (cfg.metricsPort() >= 0) {
      try {
        probes =
            MetricsServer.start(
                cfg.get(ConfigKeys.METRICS_HOST),
                cfg.metricsPort(),
                routes(Parts.operations(metrics.metricsHandler(), new HealthHandler(health))));
      } catch (UncheckedIOException e) {
        if (uploads != null) {
          uploads.close();
        }
        symbols.close();
        throw new IOException(e.getMessage(), e);
      }
      LoggerFactory.getLogger(ApiRuntime.class)
          .info(
              "metrics and health also on http://{}:{}/",
              cfg.get(ConfigKeys.METRICS_HOST),
              probes.port());
    }
    MetricsServer probesToClose = probes;
    AutoCloseable closing =
        () -> {
          if (probesToClose != null) {
            probesToClose.close();
          }
          if (uploads != null) {
            uploads.close();
          }
        };
    return start(
        cfg,
        symbols,
        settings,
        metrics,
        new HealthHandler(health),
        null,
        fetcher.stats(),
        false,
        limits,
        uploads,
        closing);
  }

  /**
   * {@code run}: reads the streams app's global store and shares its page cache; modules not
   * loaded yet are requested on {@code symbols.requests}.
   */
  public static Running beside(
      AppConfig cfg,
      KafkaStreams streams,
      PageCache cache,
      AppMetrics metrics,
      Handler health,
      SymbolLoader.Stats loads)
      throws IOException {
    return beside(cfg, streams, cache, metrics, health, loads, null);
  }

  /** As above, with the top crashers of {@code counts} (null while the aggregation is not running). */
  public static Running beside(
      AppConfig cfg,
      KafkaStreams streams,
      PageCache cache,
      AppMetrics metrics,
      Handler health,
      SymbolLoader.Stats loads,
      Supplier<StreamsCounts> counts)
      throws IOException {
    ApiSettings settings = settings(cfg);
    ServerLimits limits = serverLimits(cfg);
    KafkaApiSymbols symbols =
        new KafkaApiSymbols(
            new GlobalTablesQuery(streams),
            cache,
            new KafkaProducer<>(
                requestProducerProperties(cfg),
                new ByteArraySerializer(),
                new ByteArraySerializer()),
            cfg.topicNames().requests(),
            cfg.getMillis(ConfigKeys.PARK_REQUEST_RETRY_MS),
            cfg.getMillis(ConfigKeys.PARK_TOUCH_INTERVAL_MS));
    if (!cfg.getBoolean(ConfigKeys.UPLOAD_ENABLED)) {
      return start(
          cfg, symbols, settings, metrics, health, counts, loads, true, limits, null, () -> {});
    }
    KafkaProducer<byte[], byte[]> announcements =
        new KafkaProducer<>(
            requestProducerProperties(cfg), new ByteArraySerializer(), new ByteArraySerializer());
    UploadService uploads;
    try {
      uploads =
          UploadRuntime.service(
              cfg, UploadRuntime.kafka(announcements, cfg.topicNames().uploads()));
    } catch (RuntimeException e) {
      announcements.close();
      symbols.close();
      throw e;
    }
    return start(
        cfg,
        symbols,
        settings,
        metrics,
        health,
        counts,
        loads,
        true,
        limits,
        uploads,
        () -> {
          uploads.close();
          announcements.close(Duration.ofSeconds(5));
        });
  }

  /** How long a send to {@code symbols.requests} may block (the producer's default is 60 s). */
  static final long REQUEST_MAX_BLOCK_MS = 2_000;

  /**
   * The producer of the API's module requests. Its sends block at most
   * {@link #REQUEST_MAX_BLOCK_MS} on an unreachable broker or a full buffer, then fail (the
   * module is asked for again later), so its one sender thread keeps up once the broker is back
   * and closing the API never waits a minute.
   */
  static Properties requestProducerProperties(AppConfig cfg) {
    Properties p = new Properties();
    KafkaProperties.security(cfg).forEach(p::put);
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, REQUEST_MAX_BLOCK_MS);
    return p;
  }

  private static Running start(
      AppConfig cfg,
      ApiSymbols symbols,
      ApiSettings settings,
      AppMetrics metrics,
      Handler health,
      Supplier<StreamsCounts> counts,
      SymbolLoader.Stats loads,
      boolean cluster,
      ServerLimits limits,
      UploadService uploads,
      AutoCloseable closeUploads)
      throws IOException {
    AtomicReference<URI> self = new AtomicReference<>();
    MeterStatusSource status;
    CollectorRuntime.Collector collector;
    ScopeAccess access;
    try {
      access = access(cfg);
      collector = CollectorRuntime.start(cfg);
    } catch (RuntimeException e) {
      closeQuietly(closeUploads);
      symbols.close();
      throw e;
    }
    if (collector != null) {
      metrics.bindCollector(collector.endpoint(), collector.service());
    }
    if (uploads != null) {
      metrics.bindUploads(uploads);
    }
    // the upload routes' and the collector's resources, closed with the server
    AutoCloseable closeRoutes =
        collector == null
            ? closeUploads
            : () -> {
              closeQuietly(closeUploads);
              collector.close();
            };
    try {
      status = status(cfg, metrics, loads, cluster, self);
    } catch (RuntimeException e) {
      closeQuietly(closeRoutes);
      symbols.close();
      throw e;
    }
    Symbolication symbolication =
        new Symbolication(
                new ApiSymbolicator(
                    SymbolEngines.apiSteps(SymbolicatorApp.sourceContextLines(cfg)), symbols),
                settings)
            .withAccess(access)
            .withSourceContextLines(SymbolicatorApp.sourceContextLines(cfg))
            .withSourceLinks(SymbolicatorApp.sourceLinks(cfg));
    metrics.bindApi(symbolication).bindSourceLinks(symbolication.sourceLinks());
    RouteTable routes =
        routes(
            new Parts(
                symbolication,
                uploads,
                uploads == null ? null : UploadRuntime.keys(cfg),
                collector == null ? null : collector.endpoint(),
                counts == null ? null : new CrashQueries(counts),
                status,
                metrics.metricsHandler(),
                health));
    try {
      ApiServer server = ApiServer.start(settings, routes, limits);
      self.set(selfUri(server));
      return new Running(server, routes, symbols, symbolication, status, closeRoutes);
    } catch (IOException | RuntimeException e) {
      status.close();
      closeQuietly(closeRoutes);
      symbols.close();
      throw new IOException(
          "cannot serve the API on "
              + settings.host()
              + ":"
              + settings.port()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // the start's failure is the one to report
    }
  }
}

package io.symbolicate.app.metrics;

import static io.symbolicate.app.metrics.Meters.value;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.upload.DirectoryUploadStore;
import io.symbolicate.api.upload.UploadLimits;
import io.symbolicate.api.upload.UploadService;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.app.runtime.SymbolEngines;
import io.symbolicate.connectors.loader.LoaderSettings;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.connectors.source.SourceLinkPolicy;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.config.TopologyConfig;
import io.symbolicate.topology.store.StoreNames;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry's own meters, the scrape and the two handlers over a real JDK HTTP server. */
class AppMetricsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final AppMetrics metrics = new AppMetrics();
  private MetricsServer server;

  @TempDir Path stateDir;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
    metrics.close();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void serve(Health health) {
    server =
        MetricsServer.start(
            "127.0.0.1",
            0,
            ApiRuntime.routes(
                ApiRuntime.Parts.operations(metrics.metricsHandler(), new HealthHandler(health))));
  }

  @Test
  void pageCacheLookupsAreCountedUnderThePageCacheLayer() {
    PageCache cache = new PageCache(1 << 20);
    metrics.bindPageCache(cache);
    PageCache.Key k = new PageCache.Key("m", 1, 0);
    assertThat(cache.<String>getIfPresent(k)).isNull();
    String decoded = cache.decodeIfAbsent(k, new byte[] {'a'}, b -> new String(b));
    assertThat(decoded).isEqualTo("a");
    assertThat(cache.<String>getIfPresent(k)).isEqualTo("a");
    String again = cache.get(k, new byte[] {'b'}, b -> new String(b));
    assertThat(again).as("cached, not decoded again").isEqualTo("a");
    var r = metrics.registry();
    assertThat(value(r, "symbolicate.cache.lookups", "layer", "page_cache", "result", "miss"))
        .isEqualTo(1);
    assertThat(value(r, "symbolicate.cache.lookups", "layer", "page_cache", "result", "hit"))
        .isEqualTo(2);
    assertThat(value(r, "symbolicate.page.cache.entries")).isEqualTo(1);
    assertThat(value(r, "symbolicate.page.cache.size")).isEqualTo(64 + 3);
    assertThat(value(r, "symbolicate.page.cache.max")).isEqualTo(1 << 20);
    // the other layers share the metric name, so one query sees them all
    assertThat(metrics.scrape())
        .contains("symbolicate_cache_lookups_total{layer=\"page_cache\",result=\"hit\"} 2.0")
        .contains("symbolicate_cache_lookups_total{layer=\"rocksdb\",result=\"miss\"} 0.0")
        .contains("symbolicate_cache_lookups_total{layer=\"module_state\",result=\"hit\"} 0.0");
  }

  @Test
  void uploadAnswersAreCountedByStatus() {
    UploadService uploads =
        new UploadService(
            new DirectoryUploadStore(stateDir.resolve("symbols")),
            new DirectoryUploadStore(stateDir.resolve("staging")),
            m -> {},
            UploadLimits.defaults());
    try {
      metrics.bindUploads(uploads);
      uploads.answered(200);
      uploads.answered(429);
      uploads.answered(429);
      var r = metrics.registry();
      assertThat(value(r, "symbolicate.upload.answers", "status", "200")).isEqualTo(1.0);
      assertThat(value(r, "symbolicate.upload.answers", "status", "429")).isEqualTo(2.0);
      assertThat(value(r, "symbolicate.upload.answers", "status", "500")).isEqualTo(0.0);
      assertThat(metrics.scrape()).contains("symbolicate_upload_answers_total{status=\"429\"} 2.0");
    } finally {
      uploads.close();
    }
  }

  @Test
  void sourceLinkFetchesAreCountedByStatus() throws Exception {
    SourceLinkFetcher fetcher =
        new SourceLinkFetcher(
            new SourceLinkFetcher.Settings(
                SourceLinkPolicy.parse("https://sources.example.com/", false),
                1000,
                Duration.ofSeconds(5),
                4,
                60_000,
                120_000,
                10_000,
                1 << 20));
    metrics.bindSourceLinks(fetcher).bindSourceLinks(null);
    // no allowed prefix matches: refused without a request, counted as noperm
    fetcher.fetch("https://elsewhere.example.com/a.cs").get();
    fetcher.fetch("https://elsewhere.example.com/b.cs").get();
    var r = metrics.registry();
    assertThat(value(r, "symbolicate.source.link.fetches", "status", "noperm")).isEqualTo(2.0);
    assertThat(value(r, "symbolicate.source.link.fetches", "status", "ok")).isEqualTo(0.0);
    assertThat(metrics.scrape())
        .contains("symbolicate_source_link_fetches_total{status=\"noperm\"} 2.0")
        .contains("symbolicate_source_link_cache_hits_total 0.0");
  }

  @Test
  void theLoaderCountersAreExposedAsTheyMove() {
    SymbolSource none =
        new SymbolSource() {
          @Override
          public String name() {
            return "none";
          }

          @Override
          public FetchResult fetch(String key) {
            return new FetchResult.NotFound("test");
          }
        };
    // never started: no broker is contacted
    SymbolLoader loader =
        new SymbolLoader(
            "127.0.0.1:1",
            Map.of(),
            "g",
            new TopicNames("raw", "out", "dlq", "r", "t", "i", "u", "missing"),
            new SourceChain(List.of(none)),
            Map.of(),
            Map.of(),
            LoaderSettings.defaults());
    try {
      metrics.bindLoader(loader);
      var r = metrics.registry();
      assertThat(value(r, "symbolicate.loader.downloads")).isZero();
      loader.stats().downloads.addAndGet(3);
      loader.stats().downloadedBytes.addAndGet(4096);
      loader.stats().found.incrementAndGet();
      loader.stats().missing.addAndGet(2);
      loader.stats().coalesced.addAndGet(5);
      loader.stats().evicted.incrementAndGet();
      loader.stats().loadCpuMillis.addAndGet(1500);
      loader.stats().pausedMillis.addAndGet(13_500);
      assertThat(value(r, "symbolicate.loader.downloads")).isEqualTo(3);
      assertThat(value(r, "symbolicate.loader.load.cpu")).isEqualTo(1.5);
      assertThat(value(r, "symbolicate.loader.paused")).isEqualTo(13.5);
      assertThat(value(r, "symbolicate.loader.loads", "outcome", "found")).isEqualTo(1);
      assertThat(value(r, "symbolicate.loader.loads", "outcome", "missing")).isEqualTo(2);
      assertThat(value(r, "symbolicate.loader.loads", "outcome", "failed")).isZero();
      assertThat(value(r, "symbolicate.loader.in.flight")).isZero();
      assertThat(value(r, "symbolicate.loader.index.loaded")).isZero();
      assertThat(metrics.scrape())
          .contains("symbolicate_loader_downloaded_bytes_total 4096.0")
          .contains("symbolicate_loader_coalesced_total 5.0")
          .contains("symbolicate_loader_evictions_total 1.0");
    } finally {
      loader.close();
    }
  }

  @Test
  void aLoaderWhoseThreadDiedMakesHealthDown() throws Exception {
    // no broker at this address and a short API timeout: reading symbols.index fails, and the
    // loader's poll thread ends on that error
    SymbolLoader loader =
        new SymbolLoader(
            "127.0.0.1:1",
            Map.of("default.api.timeout.ms", "300"),
            "g",
            new TopicNames("raw", "out", "dlq", "r", "t", "i", "u", "missing"),
            new SourceChain(List.of(new FileSystemSource(stateDir))),
            Map.of(),
            Map.of(),
            LoaderSettings.defaults());
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "health-loader-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    try (KafkaStreams streams =
        new KafkaStreams(
            SymbolicationTopology.build(TopologyConfig.defaults(), SymbolEngines.steps()), p)) {
      Health health =
          new StreamsHealth(
              streams, new StoreWarmup(StoreNames.TABLES), loader, new PageCache(1 << 20));
      assertThat(loader.failed()).isFalse(); // not started yet
      assertThat(health.check().status()).isEqualTo(Health.Status.STARTING);
      loader.start();
      long until = System.currentTimeMillis() + 20_000;
      while (!loader.failed() && System.currentTimeMillis() < until) {
        Thread.sleep(50);
      }
      assertThat(loader.failed()).isTrue();
      serve(health);
      HttpResponse<String> r = send("GET", "/health");
      assertThat(r.statusCode()).isEqualTo(503);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("status").asText()).isEqualTo("DOWN");
      assertThat(body.get("loader").get("failed").asBoolean()).isTrue();
      assertThat(body.get("loader").get("index_loaded").asBoolean()).isFalse();
    } finally {
      loader.close();
    }
    assertThat(loader.failed()).as("a closed loader is stopped, not failed").isFalse();
  }

  @Test
  void metricsAreServedInPrometheusTextFormatWithJvmBasics() throws Exception {
    serve(() -> new Health.Report(Health.Status.UP, Map.of()));
    metrics.pipeline().eventIn();
    HttpResponse<String> r = send("GET", "/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(r.body())
        .contains("# TYPE symbolicate_events_in_total counter")
        .contains("symbolicate_events_in_total 1.0")
        .contains("symbolicate_frames_total{platform=\"native\",status=\"symbolicated\"} 0.0")
        .contains("symbolicate_modules_total{platform=\"javascript\",status=\"found\"} 0.0")
        .contains("jvm_memory_used_bytes{")
        .contains("jvm_threads_live_threads")
        .contains("jvm_gc_");
    assertThat(send("HEAD", "/metrics").statusCode()).isEqualTo(200);
    HttpResponse<String> post = send("POST", "/metrics");
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.body()).contains("not allowed");
    assertThat(send("GET", "/metricsx").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/nothing").statusCode()).isEqualTo(404);
  }

  @Test
  void streamsHealthIsStartingWith503UntilTheClientRuns() throws Exception {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "health-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    PageCache cache = new PageCache(1 << 20);
    try (KafkaStreams streams =
        new KafkaStreams(
            SymbolicationTopology.build(TopologyConfig.defaults(), SymbolEngines.steps()), p)) {
      StoreWarmup warmup = new StoreWarmup(StoreNames.TABLES);
      Health health = new StreamsHealth(streams, warmup, null, cache);
      metrics.bindHealth(health);
      serve(health);
      HttpResponse<String> r = send("GET", "/health");
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("status").asText()).isEqualTo("STARTING");
      assertThat(body.get("streams").asText()).isEqualTo("CREATED");
      assertThat(body.get("store").get("warm").asBoolean()).isFalse();
      assertThat(body.get("loader").get("embedded").asBoolean()).isFalse();
      assertThat(value(metrics.registry(), "symbolicate.ready")).isZero();

      // the store's restoration ending makes it warm, but the client is still not running
      var tp = new TopicPartition("symbols.tables", 0);
      warmup.onRestoreStart(tp, StoreNames.TABLES, 0, 10);
      warmup.onBatchRestored(tp, StoreNames.TABLES, 10, 10);
      warmup.onRestoreStart(tp, "some-other-store", 0, 99);
      assertThat(warmup.warm()).isFalse();
      warmup.onRestoreEnd(tp, StoreNames.TABLES, 10);
      body = JSON.readTree(send("GET", "/health").body());
      assertThat(body.get("store").get("warm").asBoolean()).isTrue();
      assertThat(body.get("store").get("restored_records").asLong()).isEqualTo(10);
      assertThat(body.get("status").asText()).isEqualTo("STARTING");
    }
  }

  @Test
  void localStoreHealthIsUpWhileTheStoreIsOpen() throws Exception {
    AtomicBoolean open = new AtomicBoolean(false);
    serve(new LocalStoreHealth(open::get, new PageCache(1024)));
    HttpResponse<String> r = send("GET", "/health");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(JSON.readTree(r.body()).get("status").asText()).isEqualTo("STARTING");
    open.set(true);
    r = send("GET", "/health");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.get("status").asText()).isEqualTo("UP");
    assertThat(body.get("store").get("open").asBoolean()).isTrue();
    assertThat(send("DELETE", "/health").statusCode()).isEqualTo(405);
  }
}

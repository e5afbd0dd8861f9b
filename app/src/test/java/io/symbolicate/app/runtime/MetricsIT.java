package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics and /health of the running app, on the real broker with the real loader (symbols
 * from a directory) and RocksDB: 503 before the streams start, then Kafka Streams, RocksDB and
 * our own meters with the counts of what actually came out, and 200 UP.
 */
class MetricsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmbeddedKafka kafka;
  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path stateDir;
  @TempDir Path symbolsDir;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .GET()
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The value of one sample line of the scrape, e.g. {@code name{a="b"}}; NaN when absent. */
  private static double sample(String scrape, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  @Test
  void servesStreamsRocksDbAndPipelineMetricsAndReportsReadiness() throws Exception {
    Path sym = symbolsDir.resolve(SymbolStoreIT.APP_KEY);
    Files.createDirectories(sym.getParent());
    try (InputStream in = MetricsIT.class.getResourceAsStream("/demo/crashy.sym")) {
      Files.copy(in, sym);
    }
    String p = "metrics";
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", p + "-app")
            .set("state.dir", stateDir.toString())
            .set("topics.partitions", "1")
            .set("streams.commit.interval.ms", "100")
            .set("symbols.dir", symbolsDir.toString())
            .set("metrics.port", "0")
            .set("metrics.refresh.ms", "300");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, p + "." + t);
    }

    try (SymbolicatorApp app = SymbolicatorApp.create(cfg)) {
      int port = app.metricsPort();
      assertThat(port).isPositive();
      HttpResponse<String> before = get(port, "/health");
      assertThat(before.statusCode()).isEqualTo(503);
      JsonNode b = JSON.readTree(before.body());
      assertThat(b.get("status").asText()).isEqualTo("STARTING");
      assertThat(b.get("streams").asText()).isEqualTo("CREATED");
      assertThat(b.get("loader").get("index_loaded").asBoolean()).isFalse();

      app.startStreams();
      assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (var producer =
          new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
        producer.send(
            new ProducerRecord<>(
                cfg.get("topic.raw"),
                WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("n-1"))));
        producer.send(
            new ProducerRecord<>(
                cfg.get("topic.raw"),
                WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("n-2"))));
        producer.send(new ProducerRecord<>(cfg.get("topic.raw"), SampleEvents.undecodableBytes()));
      }
      Map<String, SymbolicatedEvent> out = readOutput(cfg, 2);
      assertThat(out).containsOnlyKeys("n-1", "n-2");

      // what the stream wrote, tallied by status, is what the counters say
      Map<FrameStatus, Integer> tally = new EnumMap<>(FrameStatus.class);
      int found = 0;
      for (SymbolicatedEvent e : out.values()) {
        for (SymbolicatedFrame f : e.getStacks().get(0).getFrames()) {
          tally.merge(f.getStatus(), 1, Integer::sum);
        }
        for (ModuleResult m : e.getModules()) {
          found += m.getStatus() == ModuleStatus.found ? 1 : 0;
        }
      }
      assertThat(tally.get(FrameStatus.symbolicated))
          .as("the loader delivered crashy's table")
          .isPositive();
      assertThat(found).isEqualTo(2);

      String scrape = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() < deadline) {
        HttpResponse<String> r = get(port, "/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
            .hasValue("text/plain; version=0.0.4; charset=utf-8");
        scrape = r.body();
        // task and store metrics appear once the refresh picked up what RUNNING created
        if (scrape.contains("kafka_stream_task_")
            && scrape.contains("rocksdb_state_id=\"symbol-tables\"")) {
          break;
        }
        Thread.sleep(200);
      }
      for (FrameStatus s : FrameStatus.values()) {
        assertThat(
                sample(
                    scrape,
                    "symbolicate_frames_total{platform=\"native\",status=\"" + s.name() + "\"}"))
            .as(s.name())
            .isEqualTo(tally.getOrDefault(s, 0).doubleValue());
      }
      assertThat(sample(scrape, "symbolicate_modules_total{platform=\"native\",status=\"found\"}"))
          .isEqualTo(2.0);
      assertThat(sample(scrape, "symbolicate_events_in_total")).isEqualTo(3.0);
      assertThat(sample(scrape, "symbolicate_events_out_total{platform=\"native\"}"))
          .isEqualTo(2.0);
      assertThat(
              sample(scrape, "symbolicate_events_dlq_total{reason=\"undecodable\"}")
                  + sample(scrape, "symbolicate_events_dlq_total{reason=\"invalid_json\"}"))
          .isEqualTo(1.0);
      assertThat(sample(scrape, "symbolicate_loader_downloads_total")).isGreaterThanOrEqualTo(1.0);
      assertThat(sample(scrape, "symbolicate_loader_loads_total{outcome=\"found\"}"))
          .isGreaterThanOrEqualTo(1.0);
      // present under their Prometheus names (their values depend on how long the small load ran)
      assertThat(sample(scrape, "symbolicate_loader_load_cpu_seconds_total")).isNotNaN();
      assertThat(sample(scrape, "symbolicate_loader_paused_seconds_total")).isNotNaN();
      assertThat(sample(scrape, "symbolicate_loader_downloaded_bytes_total"))
          .isGreaterThanOrEqualTo((double) Files.size(sym));
      assertThat(
              sample(scrape, "symbolicate_cache_lookups_total{layer=\"rocksdb\",result=\"hit\"}"))
          .isPositive();
      assertThat(sample(scrape, "symbolicate_ready")).isEqualTo(1.0);
      assertThat(scrape)
          .contains("kafka_stream_thread_process_total")
          .contains("kafka_consumer_")
          .contains("jvm_memory_used_bytes");
      // RocksDB properties of the global symbol store are recorded at the default INFO level
      Matcher keys =
          Pattern.compile(
                  "(?m)^kafka_stream_state_estimate_num_keys\\{[^}]*"
                      + "rocksdb_state_id=\"symbol-tables\"[^}]*} (\\S+)$")
              .matcher(scrape);
      assertThat(keys.find()).as("RocksDB metrics of the global store").isTrue();
      assertThat(Double.parseDouble(keys.group(1)))
          .as("pages and state of crashy's table")
          .isPositive();

      HttpResponse<String> health = get(port, "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      JsonNode h = JSON.readTree(health.body());
      assertThat(h.get("status").asText()).isEqualTo("UP");
      assertThat(h.get("streams").asText()).isEqualTo("RUNNING");
      assertThat(h.get("store").get("warm").asBoolean()).isTrue();
      assertThat(h.get("loader").get("index_loaded").asBoolean()).isTrue();
    }
  }

  private static Map<String, SymbolicatedEvent> readOutput(AppConfig cfg, int n) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "metrics-reader");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    Map<String, SymbolicatedEvent> out = new HashMap<>();
    try (var consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(cfg.get("topic.symbolicated")));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (out.size() < n && System.nanoTime() < deadline) {
        for (var r : consumer.poll(Duration.ofMillis(200))) {
          SymbolicatedEvent e =
              WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
          out.put(e.getEvent().getEventId(), e);
        }
      }
    }
    return out;
  }
}

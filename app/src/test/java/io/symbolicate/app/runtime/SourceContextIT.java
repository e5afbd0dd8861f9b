package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
 * Source context end to end, on the real broker and the real S3 server (`run` with uploads):
 * Symbolicator's dSYM and its source bundle uploaded through the debug-file route, then a native
 * event whose frame is the one of Symbolicator's {@code source_candidates} snapshot comes out
 * with its function, file, line and the snapshot's context lines.
 */
class SourceContextIT {
  static final String KEY = "source-context-key";
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final String DEBUG_ID = "7F883FCDC55336D0A809B0150F09500B0";

  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  @TempDir static Path s3Dir;
  @TempDir Path state;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
    s3 = EmbeddedS3.startOnDirectory(s3Dir);
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    kafka.close();
  }

  private AppConfig cfg(String bucket) {
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", bucket + "-app")
            .set("state.dir", state.toString())
            .set("topics.partitions", "1")
            .set("streams.commit.interval.ms", "100")
            .set("loader.warmup", "false")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("upload.enabled", "true")
            .set("api.keys", ApiKeys.hash(KEY) + "=global:upload")
            .set("park.request.retry.ms", "1000");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, bucket + "." + t);
    }
    cfg.set("symbols.s3.bucket", bucket)
        .set("symbols.s3.endpoint", s3.endpoint().toString())
        .set("symbols.s3.path-style", "true");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    return cfg;
  }

  private HttpResponse<String> put(URI base, String path, byte[] body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Authorization", "APIKey " + KEY)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void aNativeEventWhoseModuleHasASourceBundleComesOutWithContext() throws Exception {
    JsonNode want =
        Snapshots.read(
                SYMBOLICATOR.resolve(
                    "snapshots/integration__symbolication__source_candidates.snap"))
            .get("stacktraces")
            .get(0)
            .get("frames")
            .get(0);
    String bucket = "src" + System.nanoTime() % 100000;
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(bucket));
    }
    byte[] dsym =
        Files.readAllBytes(SYMBOLICATOR.resolve("symbols/7f/883fcdc55336d0a809b0150f09500b.debug"));
    byte[] bundle =
        Files.readAllBytes(
            SYMBOLICATOR.resolve("symbols/7f/883fcdc55336d0a809b0150f09500b.src.zip"));
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg(bucket))) {
      URI api = app.api().server().uri();
      String dir = "/api/symbols/sentry_example/" + DEBUG_ID + "/";
      // the bundle first: the debug file's upload then loads the module with its sources (the
      // other order loads it twice, and an event in between comes out without context)
      HttpResponse<String> b = put(api, dir + "sentry_example.src.zip", bundle);
      assertThat(b.statusCode()).as(b.body()).isEqualTo(200);
      HttpResponse<String> d = put(api, dir + "sentry_example", dsym);
      assertThat(d.statusCode()).as(d.body()).isEqualTo(200);
      try (var client = s3.client()) {
        assertThat(
                client
                    .getObjectAsBytes(
                        x ->
                            x.bucket(bucket)
                                .key("sentry_example/" + DEBUG_ID + "/sentry_example.src.zip"))
                    .asByteArray())
            .isEqualTo(bundle);
      }

      CrashEvent e = SampleEvents.nativeEvent("src-ctx-1");
      e.getNative$()
          .setModules(
              List.of(
                  NativeModule.newBuilder()
                      .setType("macho")
                      .setDebugFile("sentry_example")
                      .setDebugId(DEBUG_ID)
                      .build()));
      long address = Long.decode(want.get("instruction_addr").asText());
      e.getNative$()
          .getThreads()
          .get(0)
          .setFrames(
              List.of(
                  NativeFrame.newBuilder()
                      .setModuleIndex(0)
                      .setModuleOffset(address)
                      .setTrust("context")
                      .build()));
      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (var producer =
          new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
        producer
            .send(new ProducerRecord<>(bucket + ".raw", WireSerdes.crashEvent().encode(e)))
            .get();
      }
      SymbolicatedEvent s = null;
      Properties cp = new Properties();
      cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      cp.put(ConsumerConfig.GROUP_ID_CONFIG, bucket + "-reader");
      cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      try (var consumer =
          new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        consumer.subscribe(List.of(bucket + ".symbolicated"));
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (s == null && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            s = WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
          }
        }
      }
      assertThat(s).as("the event came out").isNotNull();
      assertThat(s.getModules().get(0).getStatus())
          .as(String.valueOf(s.getModules().get(0).getMessage()))
          .isEqualTo(ModuleStatus.found);
      SymbolicatedFrame f = s.getStacks().get(0).getFrames().get(0);
      assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
      assertThat(f.getFunction().toString()).isEqualTo(want.get("function").asText());
      assertThat(f.getFile().toString()).isEqualTo(want.get("abs_path").asText());
      assertThat(f.getLine()).isEqualTo(want.get("lineno").asInt());
      assertThat(f.getPreContext().stream().map(CharSequence::toString).toList())
          .isEqualTo(strings(want.get("pre_context")));
      assertThat(String.valueOf(f.getContextLine())).isEqualTo(want.get("context_line").asText());
      assertThat(f.getPostContext().stream().map(CharSequence::toString).toList())
          .isEqualTo(strings(want.get("post_context")));
    }
  }
}

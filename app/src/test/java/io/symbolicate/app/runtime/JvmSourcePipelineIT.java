package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
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
 * A JVM event with source context end to end, on the real broker and the real S3 server ({@code
 * run} with the upload API): a ProGuard mapping and a JVM source bundle (as {@code sentry-cli
 * debug-files bundle-jvm} writes it) uploaded through the upload API are stored in S3, announced
 * and loaded; an event naming both ({@code proguard} and {@code source} modules) comes out with
 * its frames retraced and the bundle file's own lines around them.
 */
class JvmSourcePipelineIT {
  static final String KEY = "jvm-src-upload-key";
  static final String MAPPING_ID = "0f6a1b2c-3d4e-4f50-8a61-72839405a6b7";
  static final String BUNDLE_ID = "d832c2fb-c545-425b-b673-613a133586be";

  static final String[] CHECKOUT = {
    "package io.example",
    "",
    "class Checkout {",
    "    fun pay() {",
    "        Helper().charge()",
    "    }",
    "",
    "    class Helper {",
    "        fun charge() {",
    "            error(\"declined\")",
    "        }",
    "    }",
    "}"
  };

  static final String MAPPING =
      "io.example.Checkout -> a.a:\n"
          + "# {\"id\":\"sourceFile\",\"fileName\":\"Checkout.kt\"}\n"
          + "    1:1:void pay():5:5 -> a\n"
          + "io.example.Checkout$Helper -> a.b:\n"
          + "# {\"id\":\"sourceFile\",\"fileName\":\"Checkout.kt\"}\n"
          + "    3:3:void charge():10:10 -> b\n";

  static final String EVENT =
      """
      {"event_id": "%s", "platform": "jvm", "jvm": {
        "modules": [{"type": "proguard", "uuid": "%s"}, {"type": "source", "uuid": "%s"}],
        "exceptions": [{"type": "a", "module": "io.example", "frames": [
          {"module": "a.b", "function": "b", "lineno": 3, "filename": "SourceFile"},
          {"module": "a.a", "function": "a", "lineno": 1, "filename": "SourceFile"}]}]}}
      """;

  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  @TempDir static Path s3Dir;
  @TempDir Path state;

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

  private AppConfig cfg(String p) {
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(p));
    }
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", p + "-app")
            .set("state.dir", state.toString())
            .set("topics.partitions", "1")
            .set("streams.commit.interval.ms", "100")
            .set("loader.warmup", "false")
            .set("loader.backoff.ms", "100")
            .set("loader.attempts", "3")
            .set("park.request.retry.ms", "1000")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("upload.enabled", "true")
            .set("api.keys", ApiKeys.hash(KEY) + "=global:upload");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, p + "." + t);
    }
    cfg.set("symbols.s3.bucket", p)
        .set("symbols.s3.endpoint", s3.endpoint().toString())
        .set("symbols.s3.path-style", "true")
        .set("symbols.fetch.timeout.ms", "5000");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    return cfg;
  }

  static byte[] bundle() throws Exception {
    String zipPath = "files/_/_/io/example/Checkout.jvm";
    String manifest =
        "{\"org\":\"o\",\"project\":\"p\",\"debug_id\":\""
            + BUNDLE_ID
            + "\",\"files\":{\""
            + zipPath
            + "\":{\"url\":\"~/io/example/Checkout.jvm\"}}}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(String.join("\n", CHECKOUT).getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private static HttpResponse<String> post(URI api, String route, byte[] body, String... headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(api.resolve(route))
            .header("Authorization", "APIKey " + KEY)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void send(AppConfig cfg, String eventId) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(
          new ProducerRecord<>(
              cfg.get("topic.raw"),
              EVENT.formatted(eventId, MAPPING_ID, BUNDLE_ID).getBytes(StandardCharsets.UTF_8)));
    }
  }

  static List<String> lines(int from, int to) {
    return Arrays.asList(CHECKOUT).subList(from - 1, to);
  }

  @Test
  void anUploadedBundleGivesRetracedFramesTheirLines() throws Exception {
    AppConfig cfg = cfg("jvmsrc" + System.nanoTime() % 100000);
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      URI api = app.api().server().uri();
      HttpResponse<String> up =
          post(
              api,
              "/api/symbols-proguard",
              MAPPING.getBytes(StandardCharsets.UTF_8),
              "UUID",
              MAPPING_ID);
      assertThat(up.statusCode()).as(up.body()).isEqualTo(200);
      up = post(api, "/api/symbols-debugfile", bundle());
      assertThat(up.statusCode()).as(up.body()).isEqualTo(200);

      // the uploads' announcements load both: a new event finds them
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      SymbolicatedEvent out = null;
      for (int n = 0; System.nanoTime() < deadline; n++) {
        String id = "jvm-src-" + n;
        send(cfg, id);
        assertThat(reader.until(() -> reader.events.containsKey(id), Duration.ofSeconds(60)))
            .isTrue();
        out = reader.events.get(id);
        if (out.getModules().stream().allMatch(m -> m.getStatus() == ModuleStatus.found)) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(out.getModules())
          .as(out.getModules().toString())
          .allSatisfy(m -> assertThat(m.getStatus()).isEqualTo(ModuleStatus.found));
      List<SymbolicatedFrame> frames = out.getStacks().get(0).getFrames();
      assertThat(frames).hasSize(2);
      SymbolicatedFrame charge = frames.get(0);
      assertThat(charge.getStatus()).isEqualTo(FrameStatus.symbolicated);
      assertThat(charge.getClassName()).isEqualTo("io.example.Checkout$Helper");
      assertThat(charge.getLine()).isEqualTo(10);
      assertThat(charge.getPreContext().stream().map(CharSequence::toString).toList())
          .isEqualTo(lines(5, 9));
      assertThat(String.valueOf(charge.getContextLine())).isEqualTo(CHECKOUT[9]);
      assertThat(charge.getPostContext().stream().map(CharSequence::toString).toList())
          .isEqualTo(lines(11, 13));
      SymbolicatedFrame pay = frames.get(1);
      assertThat(pay.getClassName()).isEqualTo("io.example.Checkout");
      assertThat(String.valueOf(pay.getContextLine())).isEqualTo(CHECKOUT[4]);
      assertThat(pay.getPreContext().stream().map(CharSequence::toString).toList())
          .isEqualTo(lines(1, 4));
      assertThat(app.loader().failed()).isFalse();
    }
  }

  /** Reads the output until {@code done} holds. */
  private static final class Reader implements AutoCloseable {
    final Map<String, SymbolicatedEvent> events = new HashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;

    Reader(AppConfig cfg) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, cfg.get("application.id") + "-reader");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(List.of(cfg.get("topic.symbolicated")));
    }

    boolean until(BooleanSupplier done, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!done.getAsBoolean() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          SymbolicatedEvent e =
              WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
          events.put(e.getEvent().getEventId(), e);
        }
      }
      return done.getAsBoolean();
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}

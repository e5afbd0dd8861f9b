package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * A .NET event end to end, on the real broker and the real S3 server ({@code run} with the
 * upload API): Symbolicator's integration request as a JSON event comes out with its frames
 * {@code missing_symbols} while the Portable PDB is not there; once the PDB is uploaded through
 * the upload API (stored in S3, announced, loaded as a .NET table), the same event comes out
 * with the file and lines of Symbolicator's snapshot.
 */
class DotnetPipelineIT {
  static final String KEY = "dotnet-upload-key";
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final String PDB =
      "symbols/integration.pdb/0C1033F78632492E91C6C314B72E1920ffffffff/integration.pdb";
  static final String ID = "0C1033F78632492E91C6C314B72E1920E60B819D";

  /** Symbolicator's test_dotnet_integration request, as our JSON event. */
  static final String EVENT =
      """
      {"event_id": "%s", "platform": "native", "native": {
        "modules": [{"type": "pe_dotnet", "debug_file": "integration.pdb",
                     "debug_id": "0c1033f78632492e91c6c314b72e1920e60b819d"}],
        "threads": [{"frames": [
          {"instruction_addr": 10, "function_id": 6, "addr_mode": "rel:0"},
          {"instruction_addr": 6, "function_id": 5, "addr_mode": "rel:0"},
          {"instruction_addr": 0, "function_id": 3, "addr_mode": "rel:0"},
          {"instruction_addr": 0, "function_id": 2, "addr_mode": "rel:0"},
          {"instruction_addr": 45, "function_id": 1, "addr_mode": "rel:0"}]}]}}
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

  private static void send(AppConfig cfg, String eventId) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(
          new ProducerRecord<>(
              cfg.get("topic.raw"), EVENT.formatted(eventId).getBytes(StandardCharsets.UTF_8)));
    }
  }

  /** The line numbers of the snapshot's frames, in order. */
  static List<Integer> snapshotLines() throws Exception {
    String snap =
        Files.readString(
            SYMBOLICATOR.resolve("snapshots/integration__symbolication__dotnet_integration.snap"));
    List<Integer> lines = new ArrayList<>();
    Matcher m = Pattern.compile("\n        lineno: (\\d+)").matcher(snap);
    while (m.find()) {
      lines.add(Integer.parseInt(m.group(1)));
    }
    return lines;
  }

  @Test
  void aDotnetEventIsSymbolicatedOnceItsPortablePdbIsUploaded() throws Exception {
    AppConfig cfg = cfg("dotnet" + System.nanoTime() % 100000);
    List<Integer> expected = snapshotLines();
    assertThat(expected).hasSize(5);
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      send(cfg, "before-upload");
      assertThat(
              reader.until(
                  () -> reader.events.containsKey("before-upload"), Duration.ofSeconds(120)))
          .isTrue();
      SymbolicatedEvent before = reader.events.get("before-upload");
      assertThat(before.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.missing);
      assertThat(before.getMissingSymbols()).containsExactly("integration.pdb/" + ID);
      assertThat(before.getStacks().get(0).getFrames())
          .extracting(SymbolicatedFrame::getStatus)
          .containsOnly(FrameStatus.missing_symbols);

      URI api = app.api().server().uri();
      HttpResponse<String> up =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          api.resolve("/api/symbols/integration.pdb/" + ID + "/integration.pdb"))
                      .header("Authorization", "APIKey " + KEY)
                      .PUT(
                          HttpRequest.BodyPublishers.ofByteArray(
                              Files.readAllBytes(SYMBOLICATOR.resolve(PDB))))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(up.statusCode()).as(up.body()).isEqualTo(200);

      // the upload's announcement replaces the negative answer: a new event finds the table
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      SymbolicatedEvent after = null;
      for (int n = 0; System.nanoTime() < deadline; n++) {
        String id = "after-upload-" + n;
        send(cfg, id);
        assertThat(reader.until(() -> reader.events.containsKey(id), Duration.ofSeconds(60)))
            .isTrue();
        after = reader.events.get(id);
        if (after.getModules().get(0).getStatus() == ModuleStatus.found) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(after.getModules().get(0).getStatus())
          .as(String.valueOf(after.getModules().get(0).getMessage()))
          .isEqualTo(ModuleStatus.found);
      List<SymbolicatedFrame> frames = after.getStacks().get(0).getFrames();
      assertThat(frames).extracting(SymbolicatedFrame::getLine).containsExactlyElementsOf(expected);
      assertThat(frames)
          .allSatisfy(
              f -> {
                assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
                assertThat(f.getFile().toString())
                    .isEqualTo("/Users/swatinem/Coding/sentry-dotnet/samples/foo/Program.cs");
                assertThat(f.getLang()).isEqualTo("csharp");
              });
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

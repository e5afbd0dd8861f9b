package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.testing.SharedFixtures;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The symbfile upload API end to end, on the real broker and the real S3 server: two `run`
 * instances with the API and uploads enabled share one bucket; a symbfile sent in three parts
 * over both is assembled into the loader's layout and announced on symbols.uploads, and a
 * native event naming that FileID comes out of the topology symbolicated with the peer's inline
 * chain. A wrong key, a missing part (swept after the expiry), a corrupt part and an oversized
 * part each get their documented answer and leave nothing in the bucket.
 */
class SymbolUploadIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String KEY = "upload-key-for-the-it";
  static final Path TESTDATA =
      SharedFixtures.fixtures("symbfile")
          .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata");

  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  @TempDir static Path s3Dir;
  @TempDir Path stateA;
  @TempDir Path stateB;
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

  private AppConfig cfg(String bucket, Path state) {
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", bucket + "-app")
            .set("state.dir", state.toString())
            .set("topics.partitions", "2")
            .set("streams.commit.interval.ms", "100")
            .set("loader.warmup", "false")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("upload.enabled", "true")
            .set("api.keys", ApiKeys.hash(KEY) + "=global:upload")
            .set("upload.max.part.bytes", "200")
            .set("upload.incomplete.expiry.ms", "3000");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, bucket + "." + t);
    }
    cfg.set("symbols.s3.bucket", bucket)
        .set("symbols.s3.endpoint", s3.endpoint().toString())
        .set("symbols.s3.path-style", "true")
        .set("symbols.fetch.timeout.ms", "2000")
        .set("loader.backoff.ms", "100")
        .set("loader.attempts", "3")
        .set("park.request.retry.ms", "1000");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    return cfg;
  }

  private List<String> bucketKeys(String bucket) {
    try (var client = s3.client()) {
      return client.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream()
          .map(S3Object::key)
          .toList();
    }
  }

  private HttpResponse<String> part(
      URI base, FileId id, int part, int parts, byte[] body, String key) throws Exception {
    return http.send(
        HttpRequest.newBuilder(base.resolve("/api/symbols-ranges"))
            .header("FileID", id.toBase64())
            .header("FilePart", Integer.toString(part))
            .header("FileParts", Integer.toString(parts))
            .header("Authorization", "APIKey " + key)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void assertAnswer(HttpResponse<String> r, int status, String code)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode j = JSON.readTree(r.body());
    assertThat(j.get("status").asInt()).isEqualTo(status);
    assertThat(j.get("success").asBoolean()).isEqualTo(status == 200);
    if (code != null) {
      assertThat(j.get("error").get("Code").asText()).isEqualTo(code);
      assertThat(j.get("uuid").asText()).matches("[0-9a-f-]{36}");
    }
  }

  @Test
  void aSymbfileUploadedInPartsToTwoInstancesSymbolicatesAnEventNamingItsFileId() throws Exception {
    String bucket = "upl" + System.nanoTime() % 100000;
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(bucket));
    }
    byte[] ranges = Files.readAllBytes(TESTDATA.resolve("inline-no-tco.ranges.symbfile"));
    FileId id = FileId.of(TESTDATA.resolve("inline-no-tco")); // the executable's own FileID
    try (SymbolicatorApp a = SymbolicatorApp.start(cfg(bucket, stateA));
        SymbolicatorApp b = SymbolicatorApp.start(cfg(bucket, stateB))) {
      URI ua = a.api().server().uri();
      URI ub = b.api().server().uri();
      int c1 = ranges.length / 3;
      int c2 = 2 * ranges.length / 3;
      byte[][] parts = {
        Arrays.copyOfRange(ranges, 0, c1),
        Arrays.copyOfRange(ranges, c1, c2),
        Arrays.copyOfRange(ranges, c2, ranges.length)
      };

      // refusals first: nothing of them may stay
      assertAnswer(part(ua, id, 0, 3, parts[0], "not-our-key"), 403, "1002");
      assertAnswer(part(ub, id, 0, 1, new byte[201], KEY), 413, "1004");
      FileId corrupt = FileId.of(new byte[] {7});
      assertAnswer(part(ua, corrupt, 0, 2, parts[0], KEY), 200, null);
      assertAnswer(
          part(ub, corrupt, 1, 2, Arrays.copyOfRange(ranges, c1, ranges.length - 3), KEY),
          400,
          "1006");
      FileId incomplete = FileId.of(new byte[] {8});
      assertAnswer(part(ua, incomplete, 0, 3, parts[0], KEY), 200, null);
      assertAnswer(part(ub, incomplete, 2, 3, parts[2], KEY), 200, null);
      assertThat(bucketKeys(bucket))
          .as("the incomplete file's parts wait in staging")
          .hasSize(2)
          .allMatch(
              k ->
                  k.startsWith(
                      "upload-staging/global/symbfile-ranges." + incomplete.toBase64() + "/"));

      // the real upload: out of order over both instances, part 1 sent twice
      assertAnswer(part(ub, id, 2, 3, parts[2], KEY), 200, null);
      assertAnswer(part(ua, id, 1, 3, parts[1], KEY), 200, null);
      assertAnswer(part(ub, id, 1, 3, parts[1], KEY), 200, null);
      assertAnswer(part(ub, id, 0, 3, parts[0], KEY), 200, null);
      try (var client = s3.client()) {
        assertThat(
                client
                    .getObjectAsBytes(x -> x.bucket(bucket).key(SymbfileKeys.ranges("global", id)))
                    .asByteArray())
            .isEqualTo(ranges);
      }

      // a native event naming the FileID, its frame an ELF virtual address
      CrashEvent e = SampleEvents.nativeEvent("elastic-1");
      e.getNative$()
          .setModules(List.of(NativeModule.newBuilder().setFileId(id.toBase64()).build()));
      e.getNative$()
          .getThreads()
          .get(0)
          .setFrames(
              List.of(
                  NativeFrame.newBuilder()
                      .setModuleIndex(0)
                      .setModuleOffset(0x650L)
                      .setTrust("context")
                      .build()));
      Map<String, SymbolicatedEvent> out = new HashMap<>();
      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (var producer =
          new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
        producer
            .send(new ProducerRecord<>(bucket + ".raw", WireSerdes.crashEvent().encode(e)))
            .get();
      }
      Properties cp = new Properties();
      cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      cp.put(ConsumerConfig.GROUP_ID_CONFIG, bucket + "-reader");
      cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      try (var consumer =
          new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        consumer.subscribe(List.of(bucket + ".symbolicated"));
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!out.containsKey("elastic-1") && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            SymbolicatedEvent s =
                WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
            out.put(s.getEvent().getEventId(), s);
          }
        }
      }
      SymbolicatedEvent s = out.get("elastic-1");
      assertThat(s).as("the event came out").isNotNull();
      assertThat(s.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
      assertThat(s.getModules().get(0).getKey()).isEqualTo(SymbfileKeys.moduleKey(id));
      List<SymbolicatedFrame> frames = s.getStacks().get(0).getFrames();
      assertThat(frames)
          .extracting(f -> String.valueOf(f.getFunction()))
          .containsExactly("d_inline", "c_inline", "b_inline", "a_inline", "main");

      // the incomplete file is swept after upload.incomplete.expiry.ms (3 s; sweeps every second)
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (bucketKeys(bucket).size() > 1 && System.nanoTime() < deadline) {
        Thread.sleep(250);
      }
      assertThat(bucketKeys(bucket))
          .as("only the uploaded file; no part, nothing of the refused uploads")
          .containsExactly(SymbfileKeys.ranges("global", id));
    }
  }
}

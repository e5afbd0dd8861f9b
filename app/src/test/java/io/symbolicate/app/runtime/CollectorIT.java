package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.collect.CollectorService;
import io.symbolicate.api.collect.CrashIds;
import io.symbolicate.api.collect.MultipartBody;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import io.symbolicate.testkit.ChildProcessKafka;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The collector on the real broker and S3 server. Breakpad's own upload tool, which no one here
 * wrote, submits a generated dump to {@code run}'s {@code /submit}; the event on the raw topic
 * names the object, whose SHA-256 is the dump's. With the broker down, a report is still accepted
 * (its dump and pending event stored) and its event arrives once the broker is back.
 */
class CollectorIT {
  static final String KEY = "collector-it-key";
  static final String BUCKET = "crash-dumps";
  static final Pattern CRASH_ID = Pattern.compile("CrashID=bp-(" + CrashIds.FORMAT.pattern() + ")");

  @TempDir Path state;
  @TempDir Path s3Dir;
  @TempDir Path symbols;

  /** The generated corpus beside ../shared (GeneratedCorpusTest's), with Breakpad's tools. */
  static Path corpus() {
    return GeneratedCorpus.minidump();
  }

  private AppConfig cfg(String bootstrap, EmbeddedS3 s3, String app) {
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", bootstrap)
            .set("application.id", app)
            .set("state.dir", state.toString())
            .set("topics.partitions", "1")
            .set("streams.commit.interval.ms", "100")
            .set("loader.warmup", "false")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("collector.enabled", "true")
            .set("collector.s3.bucket", BUCKET)
            .set("api.keys", ApiKeys.hash(KEY) + "=acme:submit")
            .set("symbols.s3.endpoint", s3.endpoint().toString())
            .set("symbols.s3.path-style", "true")
            .set("symbols.fetch.timeout.ms", "5000");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, app + "." + t);
    }
    return cfg;
  }

  static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  /** The raw events keyed {@code crashId}, as they arrive within {@code timeout}. */
  static List<CrashEvent> events(
      String bootstrap, String topic, String crashId, Duration timeout, int atLeast) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "collector-it-" + System.nanoTime());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<CrashEvent> out = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (out.size() < atLeast && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (crashId.equals(new String(r.key(), StandardCharsets.UTF_8))) {
            out.add(WireSerdes.crashEvent().deserializer().deserialize(topic, r.value()));
          }
        }
      }
    }
    return out;
  }

  @Test
  void breakpadsOwnMinidumpUploadSubmitsADumpWhoseEventNamesTheStoredObject() throws Exception {
    Path dir = corpus();
    Path tool = dir.resolve("tools").resolve("minidump_upload");
    GeneratedCorpus.need(Files.isExecutable(tool), "Breakpad's minidump_upload " + tool);
    Path dump;
    try (Stream<Path> s = Files.list(dir)) {
      dump = s.filter(f -> f.toString().endsWith(".dmp")).sorted().findFirst().orElse(null);
    }
    GeneratedCorpus.need(dump != null, "a generated .dmp in " + dir);
    byte[] bytes = Files.readAllBytes(dump);
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(s3Dir)) {
      try (var client = s3.client()) {
        client.createBucket(b -> b.bucket(BUCKET));
      }
      AppConfig cfg = cfg(kafka.bootstrapServers(), s3, "collector-run");
      try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
        URI submit = app.api().server().uri().resolve("/submit?api_key=" + KEY);
        // the tool's own usage: minidump_upload -p <product> -v <version> <minidump> <upload-URL>
        Process p =
            new ProcessBuilder(
                    tool.toString(),
                    "-p",
                    "TestProd",
                    "-v",
                    "1.2.3",
                    dump.toString(),
                    submit.toString())
                .redirectErrorStream(true)
                .start();
        String out;
        try (InputStream in = p.getInputStream()) {
          out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("Successfully sent the minidump file");
        Matcher m = CRASH_ID.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        String crashId = m.group(1);

        List<CrashEvent> got =
            events(
                kafka.bootstrapServers(), "collector-run.raw", crashId, Duration.ofSeconds(60), 1);
        assertThat(got).hasSize(1);
        CrashEvent e = got.get(0);
        assertThat(e.getEventId()).isEqualTo(crashId);
        assertThat(e.getPlatform()).isEqualTo(Platform.native$);
        assertThat(e.getScope()).as("the key's scope").isEqualTo("acme");
        assertThat(e.getRelease()).as("Breakpad's prod and ver").isEqualTo("TestProd@1.2.3");
        assertThat(e.getAttributes())
            .containsEntry("prod", "TestProd")
            .containsEntry("ver", "1.2.3")
            .containsEntry("collector.dumps", CollectorService.MAIN_DUMP);
        var ref = e.getNative$().getMinidump();
        assertThat(ref.getBucket()).isEqualTo(BUCKET);
        assertThat(ref.getKey())
            .matches("dumps/\\d{4}-\\d{2}-\\d{2}/" + crashId + "/upload_file_minidump\\.dmp");
        assertThat(ref.getSize()).isEqualTo(bytes.length);
        assertThat(ref.getSha256()).isEqualTo(sha256(bytes));
        try (var client = s3.client()) {
          byte[] stored =
              client.getObjectAsBytes(b -> b.bucket(BUCKET).key(ref.getKey())).asByteArray();
          assertThat(sha256(stored)).as("the object in S3 is the dump").isEqualTo(sha256(bytes));
          List<String> keys =
              client.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream()
                  .map(S3Object::key)
                  .toList();
          assertThat(keys)
              .as("no pending marker once the broker acknowledged")
              .containsExactly(ref.getKey());
        }
      }
    }
  }

  @Test
  void withTheBrokerDownAReportIsAcceptedAndItsEventArrivesOnceTheBrokerIsBack() throws Exception {
    try (ChildProcessKafka kafka = ChildProcessKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(s3Dir)) {
      try (var client = s3.client()) {
        client.createBucket(b -> b.bucket(BUCKET));
      }
      kafka.createTopics(1, "collector-serve.raw");
      AppConfig cfg =
          cfg(kafka.bootstrapServers(), s3, "collector-serve")
              .set("symbols.dir", symbols.toString())
              .set("symbols.sources", "dir")
              .set("collector.send.wait.ms", "500")
              .set("collector.pending.resend.ms", "2000")
              .set("collector.sweep.interval.ms", "1000");
      try (ApiRuntime.Running api = ApiRuntime.serve(cfg)) {
        URI submit = api.server().uri().resolve("/submit");
        kafka.stop(Duration.ofSeconds(30)); // its exit code is SIGTERM's
        byte[] main = new byte[200_000];
        new Random(3).nextBytes(main);
        byte[] body =
            new MultipartBody()
                .field("ProductName", "Firefox")
                .field("Version", "120.0")
                .file(CollectorService.MAIN_DUMP, "a.dmp", main)
                .build();
        HttpResponse<String> r =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                    HttpRequest.newBuilder(submit)
                        .header("Content-Type", MultipartBody.contentType())
                        .header("Content-Encoding", "gzip")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(MultipartBody.gzip(body)))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Matcher m = CRASH_ID.matcher(r.body());
        assertThat(m.find()).isTrue();
        String crashId = m.group(1);
        try (var client = s3.client()) {
          assertThat(
                  client
                      .listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix("dumps/pending/"))
                      .contents())
              .as("the event is pending while the broker is down")
              .extracting(S3Object::key)
              .containsExactly("dumps/pending/" + crashId);
        }
        Thread.sleep(3000); // the sweeper tries, and fails, while the broker is away
        kafka.restart();

        List<CrashEvent> got =
            events(
                kafka.bootstrapServers(),
                "collector-serve.raw",
                crashId,
                Duration.ofSeconds(90),
                1);
        assertThat(got).as("the event arrived after the broker came back").isNotEmpty();
        assertThat(got)
            .allSatisfy(
                e -> {
                  assertThat(e.getEventId()).isEqualTo(crashId);
                  assertThat(e.getRelease()).isEqualTo("Firefox@120.0");
                  assertThat(e.getScope()).isEqualTo("global");
                });
        assertThat(got.get(0).getNative$().getMinidump().getSha256()).isEqualTo(sha256(main));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int pending;
        do {
          try (var client = s3.client()) {
            pending =
                client
                    .listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix("dumps/pending/"))
                    .contents()
                    .stream()
                    .toList()
                    .size();
          }
          if (pending > 0) {
            Thread.sleep(250);
          }
        } while (pending > 0 && System.nanoTime() < deadline);
        assertThat(pending).as("the pending marker is deleted once acknowledged").isZero();
        try (var client = s3.client()) {
          byte[] stored =
              client
                  .getObjectAsBytes(
                      b -> b.bucket(BUCKET).key(got.get(0).getNative$().getMinidump().getKey()))
                  .asByteArray();
          assertThat(stored).isEqualTo(main);
        }
      }
    }
  }
}

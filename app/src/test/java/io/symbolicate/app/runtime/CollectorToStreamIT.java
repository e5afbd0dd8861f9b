package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.collect.MultipartBody;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.testing.GeneratedCorpus;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * A crash reporter's dump from the collector to the symbolicated output, on the real broker and
 * S3 server with the real loader: Breakpad's own {@code minidump_upload} submits every generated
 * dump, then 200 reports go through {@code POST /submit} from 4 clients; every crash id comes out
 * exactly once, with the frames the engine's CLI walk gives for its dump. Needs the generated
 * corpus (skipped with a message without it, as CollectorIT).
 */
class CollectorToStreamIT {
  @TempDir Path state;
  @TempDir Path s3Dir;

  private static final String SYMBOLS = "e2e-symbols";

  private AppConfig cfg(String bootstrap, EmbeddedS3 s3) {
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", bootstrap)
            .set("application.id", "e2e")
            .set("state.dir", state.toString())
            .set("topics.partitions", "2")
            .set("streams.commit.interval.ms", "100")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("collector.enabled", "true")
            .set("collector.s3.bucket", CollectorIT.BUCKET)
            .set("api.keys", ApiKeys.hash(CollectorIT.KEY) + "=global:submit")
            .set("symbols.s3.bucket", SYMBOLS)
            .set("symbols.s3.endpoint", s3.endpoint().toString())
            .set("symbols.s3.path-style", "true")
            .set("symbols.fetch.timeout.ms", "5000")
            .set("park.check.interval.ms", "100");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, "e2e." + t);
    }
    return cfg;
  }

  @Test
  void reportsFromTheCollectorComeOutSymbolicatedOnceEachWithTheCliWalksFrames() throws Exception {
    Path dir = CollectorIT.corpus();
    Path tool = dir.resolve("tools").resolve("minidump_upload");
    GeneratedCorpus.need(
        Files.isExecutable(tool) && Files.isRegularFile(dir.resolve("cases.json")),
        "generated corpus with Breakpad's minidump_upload " + dir);
    List<MinidumpPipelineIT.Case> cases = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.toString().endsWith(".dmp"))
          .sorted()
          .forEach(
              p ->
                  cases.add(
                      new MinidumpPipelineIT.Case(
                          p.getFileName().toString(), p, dir.resolve("symbols"))));
    }
    Map<String, List<String>> expected = new HashMap<>();
    for (MinidumpPipelineIT.Case c : cases) {
      expected.put(c.name(), MinidumpPipelineIT.cliFrames(c));
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(s3Dir)) {
      try (var client = s3.client();
          Stream<Path> files = Files.walk(dir.resolve("symbols"))) {
        client.createBucket(b -> b.bucket(CollectorIT.BUCKET));
        client.createBucket(b -> b.bucket(SYMBOLS));
        for (Path f : files.filter(p -> p.toString().endsWith(".sym")).toList()) {
          String key = dir.resolve("symbols").relativize(f).toString();
          client.putObject(b -> b.bucket(SYMBOLS).key(key), RequestBody.fromFile(f));
        }
      }
      AppConfig cfg = cfg(kafka.bootstrapServers(), s3);
      Map<String, String> dumpOf = new HashMap<>(); // crash id -> case
      try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
        URI submit = app.api().server().uri().resolve("/submit?api_key=" + CollectorIT.KEY);
        // Breakpad's own client, once per dump
        for (MinidumpPipelineIT.Case c : cases) {
          Process p =
              new ProcessBuilder(
                      tool.toString(),
                      "-p",
                      "E2E",
                      "-v",
                      "1.0",
                      c.dump().toString(),
                      submit.toString())
                  .redirectErrorStream(true)
                  .start();
          String out;
          try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          }
          assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
          Matcher m = CollectorIT.CRASH_ID.matcher(out);
          assertThat(m.find()).as(out).isTrue();
          dumpOf.put(m.group(1), c.name());
        }
        // 200 reports from 4 clients, as Crashpad's uploader posts them
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<String[]>> posted = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
          MinidumpPipelineIT.Case c = cases.get(i % cases.size());
          posted.add(
              clients.submit(
                  () -> {
                    byte[] body =
                        new MultipartBody()
                            .field("ProductName", "E2E")
                            .field("Version", "2.0")
                            .file("upload_file_minidump", c.name(), Files.readAllBytes(c.dump()))
                            .build();
                    HttpResponse<String> r =
                        http.send(
                            HttpRequest.newBuilder(submit)
                                .header("Content-Type", MultipartBody.contentType())
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                            HttpResponse.BodyHandlers.ofString());
                    Matcher m = CollectorIT.CRASH_ID.matcher(r.body());
                    return new String[] {
                      m.find() ? m.group(1) : "status " + r.statusCode() + ": " + r.body(), c.name()
                    };
                  }));
        }
        for (Future<String[]> f : posted) {
          String[] idAndCase = f.get(120, TimeUnit.SECONDS);
          assertThat(idAndCase[0]).doesNotStartWith("status");
          dumpOf.put(idAndCase[0], idAndCase[1]);
        }
        clients.shutdown();
        assertThat(dumpOf).hasSize(cases.size() + 200);

        Map<String, Integer> seen = new HashMap<>();
        Map<String, SymbolicatedEvent> events = new HashMap<>();
        List<DeadLetter> dead = new ArrayList<>();
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "e2e-reader");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (var consumer =
            new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
          consumer.subscribe(List.of("e2e.symbolicated", "e2e.dlq"));
          long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
          long quietUntil = Long.MAX_VALUE;
          while (System.nanoTime() < Math.min(deadline, quietUntil)) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
              if (r.topic().equals("e2e.dlq")) {
                dead.add(WireSerdes.deadLetter().deserializer().deserialize(r.topic(), r.value()));
              } else {
                SymbolicatedEvent e =
                    WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
                events.put(e.getEvent().getEventId(), e);
                seen.merge(e.getEvent().getEventId(), 1, Integer::sum);
              }
            }
            if (events.size() >= dumpOf.size() && quietUntil == Long.MAX_VALUE) {
              quietUntil =
                  System.nanoTime() + Duration.ofSeconds(3).toNanos(); // a late duplicate counts
            }
          }
        }
        assertThat(dead).as("dead letters").isEmpty();
        assertThat(seen.keySet()).isEqualTo(dumpOf.keySet());
        assertThat(seen.values()).allMatch(n -> n == 1);
        for (var e : dumpOf.entrySet()) {
          assertThat(MinidumpPipelineIT.frames(events.get(e.getKey())))
              .as(e.getKey() + " " + e.getValue())
              .isEqualTo(expected.get(e.getValue()));
        }
      }
    }
  }
}

package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.dotnet.EmbeddedSource;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * A .NET event end to end, on the real broker and the real S3 server ({@code run} with the
 * upload API): Symbolicator's integration request as a JSON event comes out with its frames
 * {@code missing_symbols} while the Portable PDB is not there; once the PDB is uploaded through
 * the upload API (stored in S3, announced, loaded as a .NET table), the same event comes out
 * with the file and lines of Symbolicator's snapshot. And a source bundle uploaded beside a
 * Portable PDB that embeds no sources gives the frames their context lines.
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
    sendJson(cfg, EVENT.formatted(eventId));
  }

  private static void sendJson(AppConfig cfg, String json) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(
          new ProducerRecord<>(cfg.get("topic.raw"), json.getBytes(StandardCharsets.UTF_8)));
    }
  }

  private static HttpResponse<String> put(URI api, String path, byte[] body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(api.resolve("/api/symbols/" + path))
                .header("Authorization", "APIKey " + KEY)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
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

  static final String EMBEDDED_PDB =
      "symbols/portable-embedded.pdb/B6919861510C48879994943F64F70C37ffffffff/"
          + "portable-embedded.pdb";
  static final String EMBEDDED_ID = "B6919861510C48879994943F64F70C37870B9EF9";

  /** Symbolicator's test_dotnet_embedded_sources request, as our JSON event. */
  static final String EMBEDDED_EVENT =
      """
      {"event_id": "%s", "platform": "native", "native": {
        "modules": [{"type": "pe_dotnet", "debug_file": "portable-embedded.pdb",
                     "debug_id": "b6919861-510c-4887-9994-943f64f70c37-870b9ef9"}],
        "threads": [{"frames": [
          {"instruction_addr": "0x2f", "function_id": "0x5", "addr_mode": "rel:0"}]}]}}
      """;

  /**
   * A source bundle uploaded beside a Portable PDB that embeds no sources: Symbolicator's {@code
   * portable-embedded.pdb} with its embedded-source records made unknown (as {@code
   * DotnetSourceBundleTest} does), uploaded through the upload API, and a bundle of the file it
   * embedded uploaded beside it: the frame of Symbolicator's {@code dotnet_embedded_sources}
   * snapshot comes out of the stream with the snapshot's line and context lines.
   */
  @Test
  void aSourceBundleUploadedBesideAPortablePdbGivesItsFramesContext() throws Exception {
    JsonNode want =
        Snapshots.read(
                SYMBOLICATOR.resolve(
                    "snapshots/integration__symbolication__dotnet_embedded_sources.snap"))
            .get("stacktraces")
            .get(0)
            .get("frames")
            .get(0);
    String path = want.get("abs_path").asText();
    byte[] original = Files.readAllBytes(SYMBOLICATOR.resolve(EMBEDDED_PDB));
    byte[] contents = null;
    for (EmbeddedSource e : PortablePdb.parse(original).embeddedSources()) {
      if (e.path().equals(path)) {
        contents = e.contents();
      }
    }
    assertThat(contents).isNotNull();
    byte[] stripped = original.clone();
    byte[] kind = {
      0x1b,
      0x57,
      (byte) 0x8a,
      0x0e,
      0x26,
      0x69,
      0x6e,
      0x46,
      (byte) 0xb4,
      (byte) 0xad,
      (byte) 0x8a,
      (byte) 0xb0,
      0x46,
      0x11,
      (byte) 0xf5,
      (byte) 0xfe
    };
    int at = Collections.indexOfSubList(asList(stripped), asList(kind));
    assertThat(at).isPositive();
    stripped[at] ^= 0x55;
    assertThat(PortablePdb.parse(stripped).embeddedSources()).isEmpty();
    String zipPath = "files/" + path.replace('\\', '/').replace(":", "");
    String manifest =
        "{\"files\": {\""
            + zipPath
            + "\": {\"type\": \"source\", \"path\": \""
            + path.replace("\\", "\\\\")
            + "\"}}, \"debug_id\": \"b6919861-510c-4887-9994-943f64f70c37-870b9ef9\","
            + " \"object_name\": \"portable-embedded.pdb\"}";
    ByteArrayOutputStream bundle = new ByteArrayOutputStream();
    bundle.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(bundle)) {
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(contents);
    }

    AppConfig cfg = cfg("dnsrc" + System.nanoTime() % 100000);
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      URI api = app.api().server().uri();
      String folder = "portable-embedded.pdb/" + EMBEDDED_ID + "/";
      HttpResponse<String> up = put(api, folder + "portable-embedded.pdb", stripped);
      assertThat(up.statusCode()).as(up.body()).isEqualTo(200);
      up = put(api, folder + "portable-embedded.src.zip", bundle.toByteArray());
      assertThat(up.statusCode()).as(up.body()).isEqualTo(200);

      // the bundle's announcement builds the table again: a new event finds its sources
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      SymbolicatedFrame f = null;
      for (int n = 0; System.nanoTime() < deadline; n++) {
        String id = "with-bundle-" + n;
        sendJson(cfg, EMBEDDED_EVENT.formatted(id));
        assertThat(reader.until(() -> reader.events.containsKey(id), Duration.ofSeconds(60)))
            .isTrue();
        f = reader.events.get(id).getStacks().get(0).getFrames().get(0);
        if (f.getContextLine() != null) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(f.getStatus())
          .as(String.valueOf(f.getMessage()))
          .isEqualTo(FrameStatus.symbolicated);
      assertThat(f.getFile().toString()).isEqualTo(path);
      assertThat(f.getLine()).isEqualTo(want.get("lineno").asInt());
      List<String> pre = new ArrayList<>();
      want.get("pre_context").forEach(x -> pre.add(x.asText()));
      assertThat(f.getPreContext().stream().map(CharSequence::toString).toList()).isEqualTo(pre);
      assertThat(String.valueOf(f.getContextLine())).isEqualTo(want.get("context_line").asText());
      assertThat(f.getPostContext()).isEmpty();
      assertThat(app.loader().failed()).isFalse();
    }
  }

  private static List<Byte> asList(byte[] b) {
    List<Byte> out = new ArrayList<>(b.length);
    for (byte x : b) {
      out.add(x);
    }
    return out;
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

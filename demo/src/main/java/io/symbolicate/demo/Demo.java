package io.symbolicate.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.reprocess.ModuleReprocessing;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.testkit.events.SampleSymbols;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The self-contained demo of the whole product, on an in-process KRaft broker and S3 server with
 * the real app ({@code run} with its HTTP API, upload routes, collector and top-crashers
 * aggregation): symbols uploaded over HTTP with a key, a minidump posted to {@code /submit}, an
 * Apple crash report, JavaScript and JVM events, hostile inputs, then what came out (with each
 * event's signature), the top crashers, a late upload and the reprocessing it allows, and the
 * status page. docs/demo.md describes each step.
 */
public final class Demo {
  /** The demo's API key (its SHA-256 is in {@code api.keys}): not a secret, it is printed. */
  public static final String KEY = "demo-key-not-a-secret";

  static final String SYMBOLS_BUCKET = "symbols";
  static final String DUMPS_BUCKET = "dumps";
  static final String PRODUCT = "Crashy";
  static final String VERSION = "1.0";
  private static final Pattern CRASH_ID = Pattern.compile("CrashID=bp-([0-9a-f-]{36})");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One record the demo writes to {@code crash-events.raw}, with a label for the summary. */
  public record Input(String label, byte[] value) {}

  /** One file sent to an upload route, and the answer. */
  public record Upload(String route, String file, int status, String body) {}

  /** One line of the top crashers. */
  public record Crasher(String signature, long count, double share) {}

  /**
   * What came out. {@code crashId}: the id {@code /submit} answered (null if it refused the
   * report), {@code dumpKey} where the collector stored the dump; {@code events} and {@code
   * deadLetters}: every record of {@code inputs} and the submitted crash, once; {@code
   * reprocessed}: the outputs of the events reprocessed once the late module's symbols were
   * uploaded ({@code reprocessedExpected} of them were written back); {@code topCrashersTotal}
   * and {@code topCrashers}: the aggregation's answer; {@code statusPage}: its HTTP status.
   */
  public record Result(
      URI api,
      List<Upload> uploads,
      String crashId,
      String dumpKey,
      List<Input> inputs,
      List<SymbolicatedEvent> events,
      List<DeadLetter> deadLetters,
      long topCrashersTotal,
      List<Crasher> topCrashers,
      Upload lateUpload,
      List<SymbolicatedEvent> reprocessed,
      long reprocessedExpected,
      int statusPage,
      JsonNode status,
      Duration elapsed) {

    /** Records that should come out: every input, and the submitted crash. */
    public int expectedOutputs() {
      return inputs.size() + (crashId == null ? 0 : 1);
    }

    /**
     * Every upload accepted, the crash submitted, every record out once, and every reprocessed
     * event out again.
     */
    public boolean complete() {
      return crashId != null
          && uploads.stream().allMatch(u -> u.status() == 200)
          && events.size() + deadLetters.size() == expectedOutputs()
          && reprocessedExpected > 0
          && reprocessed.size() == reprocessedExpected;
    }
  }

  private Demo() {}

  /** The records written to {@code crash-events.raw}, crash times set to {@code now}. */
  public static List<Input> inputs(Instant now) {
    List<Input> in = new ArrayList<>();
    in.add(avro("native event (Avro)", SampleEvents.nativeEvent("demo-native-1"), now));
    in.add(new Input("Apple crash report (JSON)", appleEventJson("demo-apple-1", now)));
    in.add(avro("JavaScript event (Avro)", SampleEvents.jsEvent("demo-js-1"), now));
    in.add(avro("JVM event (Avro)", SampleEvents.jvmEvent("demo-jvm-1"), now));
    in.add(
        new Input(
            "native event (JSON)",
            SampleEvents.nativeEventJson("demo-native-json")
                .replace("2026-11-22T10:00:00Z", now.toString())
                .getBytes(StandardCharsets.UTF_8)));
    in.add(new Input("random bytes", SampleEvents.undecodableBytes()));
    in.add(new Input("truncated JSON", SampleEvents.invalidJson()));
    in.add(new Input("JSON without event_id", SampleEvents.missingEventIdJson()));
    in.add(new Input("unknown platform", SampleEvents.unknownPlatformJson("demo-cobol")));
    in.add(avro("event with 50,000 frames", SampleEvents.hugeEvent("demo-huge", 50_000), now));
    return in;
  }

  private static Input avro(String label, CrashEvent e, Instant now) {
    return new Input(
        label, WireSerdes.crashEvent().encode(CrashEvent.newBuilder(e).setReceivedAt(now).build()));
  }

  /** A native event carrying the demo's Apple crash report inline, as JSON input. */
  static byte[] appleEventJson(String id, Instant now) {
    ObjectNode e = JSON.createObjectNode();
    e.put("event_id", id).put("platform", "native").put("received_at", now.toString());
    e.put("release", PRODUCT + "@" + VERSION);
    e.putObject("native")
        .putObject("apple_crash_report")
        .put("text", new String(resource("/demo/crashy.crash"), StandardCharsets.UTF_8));
    try {
      return JSON.writeValueAsBytes(e);
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  /** {@link #run(PrintStream, Duration, int, Consumer)} on any free port, closing at once. */
  public static Result run(PrintStream progress, Duration timeout) throws Exception {
    return run(progress, timeout, 0, r -> {});
  }

  /**
   * Runs every step, printing what it does to {@code progress}; {@code whileUp} gets the result
   * while everything still runs (the command prints the summary there, and waits with
   * {@code --keep-running}), then everything stops.
   */
  public static Result run(
      PrintStream progress, Duration timeout, int port, Consumer<Result> whileUp) throws Exception {
    long t0 = System.nanoTime();
    Path stateDir = Files.createTempDirectory("symbolicator-demo-state");
    try {
      progress.println(
          "▸ "
              + at(t0)
              + "1. starting an in-process Kafka broker (KRaft) and S3-compatible server…");
      // both at once: on a busy machine two starting threads get more of it than one
      CompletableFuture<EmbeddedS3> s3Start =
          CompletableFuture.supplyAsync(EmbeddedS3::startInMemory);
      try (EmbeddedS3 s3 = afterStart(s3Start);
          EmbeddedKafka kafka = EmbeddedKafka.start();
          S3Client client = s3.client()) {
        client.createBucket(b -> b.bucket(SYMBOLS_BUCKET));
        client.createBucket(b -> b.bucket(DUMPS_BUCKET));
        progress.println(
            "  "
                + at(t0)
                + "broker "
                + kafka.bootstrapServers()
                + "; S3 "
                + s3.endpoint()
                + ", buckets '"
                + SYMBOLS_BUCKET
                + "' and '"
                + DUMPS_BUCKET
                + "' (both empty)");
        // the loader and the collector take credentials from the default AWS chain
        System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
        AppConfig cfg = config(kafka.bootstrapServers(), s3.endpoint(), stateDir, port);
        progress.println(
            "  starting the app: stream (exactly-once v2), HTTP API, upload routes, collector,"
                + " top-crashers aggregation…");
        try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
          progress.println("  " + at(t0) + "app started; waiting for the stream to run…");
          if (!app.awaitRunning(timeout)) {
            throw new IllegalStateException("the stream app did not start within " + timeout);
          }
          URI api = URI.create(app.api().server().uri().toString().replaceFirst("/?$", "/"));
          progress.println(
              "  " + at(t0) + "HTTP API on " + api + " (key for uploads and /submit: " + KEY + ")");
          Steps steps =
              new Steps(t0, progress, timeout, cfg, kafka.bootstrapServers(), client, api);
          Result r = steps.run();
          whileUp.accept(r);
          return r;
        }
      }
    } finally {
      deleteRecursively(stateDir);
    }
  }

  /** The started S3 server, its start's failure thrown as it was. */
  private static EmbeddedS3 afterStart(CompletableFuture<EmbeddedS3> start) throws Exception {
    try {
      return start.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : e;
    }
  }

  static AppConfig config(String bootstrap, URI s3, Path stateDir, int port) {
    return AppConfig.defaults()
        .set(ConfigKeys.SYMBOLS_S3_BUCKET, SYMBOLS_BUCKET)
        .set(ConfigKeys.SYMBOLS_S3_ENDPOINT, s3.toString())
        .set(ConfigKeys.SYMBOLS_S3_PATH_STYLE, "true")
        .set(ConfigKeys.BOOTSTRAP_SERVERS, bootstrap)
        .set(ConfigKeys.APPLICATION_ID, "symbolicator-demo")
        .set(ConfigKeys.STATE_DIR, stateDir.toString())
        .set(ConfigKeys.TOPICS_PARTITIONS, "1")
        .set("streams.commit.interval.ms", "100")
        .set("park.check.interval.ms", "100")
        .set("http.enabled", "true")
        .set("http.host", "127.0.0.1")
        .set("http.port", Integer.toString(port))
        .set("upload.enabled", "true")
        .set("collector.enabled", "true")
        .set("collector.s3.bucket", DUMPS_BUCKET)
        .set("analytics.enabled", "true")
        .set("api.keys", ApiKeys.hash(KEY) + "=global:upload+submit");
  }

  /** The steps after start-up, against the running app. */
  private static final class Steps {
    private final PrintStream progress;
    private final Duration timeout;
    private final AppConfig cfg;
    private final String bootstrap;
    private final S3Client s3;
    private final URI api;
    private final DemoHttp http;
    private final long t0;

    Steps(
        long t0,
        PrintStream progress,
        Duration timeout,
        AppConfig cfg,
        String bootstrap,
        S3Client s3,
        URI api) {
      this.progress = progress;
      this.timeout = timeout;
      this.cfg = cfg;
      this.bootstrap = bootstrap;
      this.s3 = s3;
      this.api = api;
      this.http = new DemoHttp(api, KEY, timeout);
      this.t0 = t0;
    }

    Result run() throws Exception {
      long deadline = System.nanoTime() + timeout.toNanos();
      List<Upload> uploads = uploadSymbols();

      progress.println(
          "▸ " + at(t0) + "3. a crash reporter posts a minidump to " + api.resolve("submit") + "…");
      DemoHttp.Reply submitted = http.submit(PRODUCT, VERSION, DemoDump.bytes());
      Matcher m = CRASH_ID.matcher(submitted.body());
      String crashId = m.find() ? m.group(1) : null;
      String dumpKey = null;
      if (crashId == null) {
        progress.println("  refused: " + submitted.status() + " " + submitted.body().strip());
      } else {
        dumpKey = storedDump(crashId);
        progress.println(
            "  answered CrashID=bp-"
                + crashId
                + "; dump stored at s3://"
                + DUMPS_BUCKET
                + "/"
                + dumpKey);
      }

      Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      List<Input> inputs = inputs(now);
      progress.println(
          "▸ "
              + at(t0)
              + "4. a producer writes "
              + inputs.size()
              + " records to "
              + cfg.get(ConfigKeys.TOPIC_RAW)
              + ": native, Apple, JavaScript and JVM events, and 5 bad ones…");
      produce(inputs);
      int expected = inputs.size() + (crashId == null ? 0 : 1);
      List<SymbolicatedEvent> events = new ArrayList<>();
      List<DeadLetter> dead = new ArrayList<>();
      collect(expected, events, dead, deadline);
      progress.println(
          "  "
              + events.size()
              + " symbolicated on "
              + cfg.get(ConfigKeys.TOPIC_SYMBOLICATED)
              + ", "
              + dead.size()
              + " dead letters on "
              + cfg.get(ConfigKeys.TOPIC_DLQ)
              + " (of "
              + expected
              + ")");

      progress.println(
          "▸ "
              + at(t0)
              + "5. top crashers: "
              + api.resolve("api/top-crashers?since=24h&limit=5")
              + " …");
      JsonNode top = topCrashers(events.size(), deadline);
      long total = top == null ? 0 : top.path("total").asLong();
      List<Crasher> crashers = new ArrayList<>();
      if (top != null) {
        for (JsonNode c : top.path("crashers")) {
          crashers.add(
              new Crasher(
                  c.path("signature").asText(),
                  c.path("count").asLong(),
                  c.path("share").asDouble()));
        }
      }
      progress.println("  " + total + " crashes counted under " + crashers.size() + " signatures");

      Reprocessing late = reprocessLateModule(deadline);

      progress.println("▸ " + at(t0) + "7. the status page: " + api.resolve("status") + " …");
      int statusPage = http.get("status").status();
      DemoHttp.Reply statusJson = http.get("status.json");
      JsonNode status = statusJson.ok() ? JSON.readTree(statusJson.body()) : null;
      progress.println(
          "  GET /status answered "
              + statusPage
              + "; its figures as JSON: "
              + api.resolve("status.json"));
      progress.println("▸ " + at(t0) + "done; what came out:");
      return new Result(
          api,
          uploads,
          crashId,
          dumpKey,
          inputs,
          events,
          dead,
          total,
          crashers,
          late.upload(),
          late.events(),
          late.expected(),
          statusPage,
          status,
          Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Step 2: every sample symbol file through its upload route, with the key. */
    private List<Upload> uploadSymbols() throws Exception {
      progress.println(
          "▸ " + at(t0) + "2. uploading symbols through the upload API (Authorization: APIKey …)…");
      // at once, as a build's upload step would send them
      List<CompletableFuture<Upload>> sent = new ArrayList<>();
      for (SampleSymbols.Upload u : SampleSymbols.uploads()) {
        sent.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return upload(u);
                  } catch (Exception e) {
                    return new Upload(route(u), u.key(), 0, e.toString());
                  }
                }));
      }
      List<Upload> out = new ArrayList<>();
      for (CompletableFuture<Upload> f : sent) {
        out.add(f.join());
      }
      return out;
    }

    /** The route a sample file goes to, with the header naming its module. */
    private Upload upload(SampleSymbols.Upload u) throws Exception {
      String[] parts = u.key().split("/");
      String route = route(u).substring(1);
      Map<String, String> headers =
          switch (route) {
            case "api/symbols-sourcemap" -> Map.of("DebugID", parts[2]);
            case "api/symbols-proguard" -> Map.of("UUID", parts[2]);
            default -> Map.of(); // a .sym is placed by its MODULE line
          };
      DemoHttp.Reply r = http.upload(route, headers, u.body());
      String file = parts[parts.length - 1];
      progress.printf(
          "  POST /%-22s %-14s %6d bytes → %d%s%n",
          route,
          file,
          u.body().length,
          r.status(),
          r.ok() ? " (stored in s3://" + SYMBOLS_BUCKET + ", announced)" : " " + r.body().strip());
      return new Upload("/" + route, file, r.status(), r.body().strip());
    }

    /** The upload route of a sample file, by its layout key. */
    private static String route(SampleSymbols.Upload u) {
      if (u.key().startsWith("js/debug-id/")) {
        return "/api/symbols-sourcemap";
      }
      return u.key().startsWith("jvm/proguard/")
          ? "/api/symbols-proguard"
          : "/api/symbols-breakpad";
    }

    /** Where the collector stored the crash's main dump. */
    private String storedDump(String crashId) {
      return s3.listObjectsV2(b -> b.bucket(DUMPS_BUCKET)).contents().stream()
          .map(o -> o.key())
          .filter(k -> k.contains(crashId) && k.endsWith("upload_file_minidump.dmp"))
          .findFirst()
          .orElse(null);
    }

    private void produce(List<Input> inputs) throws Exception {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
        for (Input in : inputs) {
          producer
              .send(
                  new ProducerRecord<>(
                      cfg.get(ConfigKeys.TOPIC_RAW),
                      in.label().getBytes(StandardCharsets.UTF_8),
                      in.value()))
              .get();
        }
      }
    }

    private void collect(
        int expected, List<SymbolicatedEvent> events, List<DeadLetter> dead, long deadline)
        throws IOException {
      String dlq = cfg.get(ConfigKeys.TOPIC_DLQ);
      try (KafkaConsumer<byte[], byte[]> consumer = reader("symbolicator-demo-reader")) {
        consumer.subscribe(List.of(cfg.get(ConfigKeys.TOPIC_SYMBOLICATED), dlq));
        while (events.size() + dead.size() < expected && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            if (r.topic().equals(dlq)) {
              dead.add(WireSerdes.deadLetter().decode(r.value()));
            } else {
              events.add(WireSerdes.symbolicatedEvent().decode(r.value()));
            }
          }
        }
      }
    }

    /** The aggregation's answer once it counted {@code expected} crashes (or the last one). */
    private JsonNode topCrashers(int expected, long deadline) throws Exception {
      JsonNode last = null;
      while (System.nanoTime() < deadline) {
        DemoHttp.Reply r = http.get("api/top-crashers?since=24h&limit=5");
        if (r.ok()) {
          last = JSON.readTree(r.body());
          if (last.path("total").asLong() >= expected) {
            return last;
          }
        }
        Thread.sleep(200);
      }
      return last;
    }

    private record Reprocessing(Upload upload, List<SymbolicatedEvent> events, long expected) {}

    /**
     * Step 6: libc's symbols arrive late, through the upload route (which announces them on
     * {@code symbols.uploads}); once the loader has them, exactly the events that missed the
     * module are reprocessed (what {@code ./symbolicator reprocess} does).
     */
    private Reprocessing reprocessLateModule(long deadline) throws Exception {
      String module = SampleSymbols.LATE_MODULE;
      progress.println(
          "▸ "
              + at(t0)
              + "6. late symbols: libc.so.6 was missing above; uploading it now, then reprocessing…");
      Upload up = upload(SampleSymbols.lateUpload());
      ModuleReprocessing.Selection sel =
          ModuleReprocessing.Selection.of(
              module, ModuleReprocessing.Selection.MENDABLE, null, null);
      ModuleReprocessing reprocessing = new ModuleReprocessing(cfg, s -> {});
      while (!Boolean.TRUE.equals(reprocessing.loaded(sel)) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      ModuleReprocessing.Result r = reprocessing.run(sel, false);
      progress.println(
          "  ./symbolicator reprocess --module '"
              + module
              + "': "
              + r.written()
              + " event(s) written back to "
              + cfg.get(ConfigKeys.TOPIC_RAW));
      List<SymbolicatedEvent> again = new ArrayList<>();
      try (KafkaConsumer<byte[], byte[]> consumer = reader("symbolicator-demo-reprocessed")) {
        consumer.subscribe(List.of(cfg.get(ConfigKeys.TOPIC_SYMBOLICATED)));
        while (again.size() < r.written() && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
            SymbolicatedEvent e = WireSerdes.symbolicatedEvent().decode(rec.value());
            if (e.getReprocessed()) {
              again.add(e);
            }
          }
        }
      }
      return new Reprocessing(up, again, r.written());
    }

    /** A consumer of committed outputs from the start, in a group of its own. */
    private KafkaConsumer<byte[], byte[]> reader(String group) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      return new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
  }

  /** The time since the demo started, as the step lines show it. */
  static String at(long t0) {
    return String.format(Locale.ROOT, "[%4.1f s] ", (System.nanoTime() - t0) / 1e9);
  }

  static byte[] resource(String name) {
    try (InputStream in = Demo.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing demo resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // best effort: a temp directory
    }
  }
}

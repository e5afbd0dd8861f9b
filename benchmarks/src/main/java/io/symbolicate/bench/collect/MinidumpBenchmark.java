package io.symbolicate.bench.collect;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.bench.minidump.SyntheticDump;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@code symbolicator bench minidump}: generated dumps uploaded to the collector's {@code POST
 * /submit} on the embedded broker and S3 server. The collector alone ({@code serve}: upload, store
 * the dump in S3, write the event; its accepted rate is the baseline) and the whole path ({@code
 * run} with the collector mounted: the stream fetches each dump, walks it with warm CFI and symbols,
 * and writes it to the output) run side by side, their full-speed phases taking turns; then the
 * whole path paced at a fraction of the baseline's median.
 * Latency runs from an upload's start to its event on the output (read_committed).
 */
public final class MinidumpBenchmark {
  static final Pattern CRASH_ID = Pattern.compile("CrashID=bp-([0-9a-fA-F-]+)");
  static final String SYMBOLS_BUCKET = "mdbench-symbols";
  static final String DUMPS_BUCKET = "mdbench-dumps";
  static final String BOUNDARY = "----mdbench-7d1f0a3c";

  /** The longest a 503 makes an upload wait before it tries again. */
  static final long MAX_RETRY_WAIT_MS = 1000;

  /** {@code overrides}: settings for both apps (as for 'run'), after the benchmark's own. */
  public record Options(
      int dumps,
      int warmupDumps,
      int runs,
      int clients,
      int stackBytes,
      int partitions,
      double pacedFraction,
      Duration maxPhase,
      Map<String, String> overrides) {
    public Options {
      overrides = Map.copyOf(overrides);
    }
  }

  private final Options o;
  private final PrintStream out;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final AtomicLong seeds = new AtomicLong();
  private final AtomicInteger rejected = new AtomicInteger();

  public MinidumpBenchmark(Options o, PrintStream out) {
    this.o = o;
    this.out = out;
  }

  /** One phase's figures: its uploads' start, answer and output times (ns), by crash id. */
  record Phase(long[] latenciesNanos, long windowNanos, int dumps) {
    double rate() {
      return Latencies.rate(dumps, windowNanos);
    }

    double p(double percentile) {
      return Latencies.percentile(latenciesNanos, percentile) / 1e6;
    }

    String line() {
      return String.format(
          "%d dumps in %.1f s: %.1f dumps/s, p50 %.0f ms, p99 %.0f ms, max %.0f ms",
          dumps, windowNanos / 1e9, rate(), p(50), p(99), p(100));
    }
  }

  public void run() throws Exception {
    Path tmp = Files.createTempDirectory("mdbench");
    byte[] sample = SyntheticDump.dump(o.stackBytes());
    out.printf(
        "dumps: SyntheticDump, %d bytes, %d modules, %d frames by CFI; %d clients; load %s%n",
        sample.length, SyntheticDump.MODULES, SyntheticDump.FRAMES, o.clients(), load());
    out.println("starting the embedded broker and S3 server…");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    Files.createDirectories(tmp.resolve("s3"));
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(tmp.resolve("s3"))) {
      uploadSymbols(s3, tmp.resolve("symbols"));
      List<Double> collectorRates = new ArrayList<>();
      AppConfig base = config(kafka, s3, tmp, "mdbench-base");
      // serve creates no topics: without its raw topic every event would wait and go pending
      kafka.createTopics(o.partitions(), base.get("topic.raw"));
      int uploaded = o.warmupDumps() + o.runs() * o.dumps();
      AppConfig full = config(kafka, s3, tmp, "mdbench-full");
      List<Double> fullRates = new ArrayList<>();
      List<Double> pacedP50 = new ArrayList<>();
      List<Double> pacedP99 = new ArrayList<>();
      List<Double> pacedRates = new ArrayList<>();
      double collectorRate;
      double pacedRate;
      // both apps in this JVM at once, their phases taking turns: the collector's code is as warm
      // in the baseline as in the whole path, and the idle app costs each phase alike
      try (ApiRuntime.Running api = ApiRuntime.serve(base);
          SymbolicatorApp app = SymbolicatorApp.start(full);
          Outputs outputs = new Outputs(kafka, full)) {
        URI alone = api.server().uri().resolve("/submit");
        URI submit = app.api().server().uri().resolve("/submit");
        out.printf(
            "collector alone: warm-up %s (not counted)%n",
            collectorOnly(alone, o.warmupDumps()).line());
        out.printf(
            "whole path: warm-up %s (loads the symbols; not counted)%n",
            wholePath(submit, outputs, o.warmupDumps(), 0).line());
        for (int r = 0; r < o.runs(); r++) {
          Phase p = collectorOnly(alone, o.dumps());
          collectorRates.add(p.rate());
          out.printf(
              "run %d: collector alone %s (upload to answer; load %s)%n", r + 1, p.line(), load());
          Phase full1 = wholePath(submit, outputs, o.dumps(), 0);
          fullRates.add(full1.rate());
          out.printf("run %d: whole path, full speed %s (load %s)%n", r + 1, full1.line(), load());
        }
        out.printf(
            "collector alone: %d events written to %s for %d uploads%n",
            records(kafka, base.get("topic.raw")), base.get("topic.raw"), uploaded);
        collectorRate = Latencies.median(collectorRates);
        pacedRate = collectorRate * o.pacedFraction();
        for (int r = 0; r < o.runs(); r++) {
          Phase paced = wholePath(submit, outputs, o.dumps(), pacedRate);
          pacedP50.add(paced.p(50));
          pacedP99.add(paced.p(99));
          pacedRates.add(paced.rate());
          out.printf(
              "run %d: whole path, paced at %.1f dumps/s %s (load %s)%n",
              r + 1, pacedRate, paced.line(), load());
        }
        if (outputs.dead.get() > 0) {
          out.printf("dead letters: %d (first: %s)%n", outputs.dead.get(), outputs.firstDeadLetter);
        }
        if (outputs.duplicates.get() > 0) {
          out.printf("duplicates on the output: %d%n", outputs.duplicates.get());
        }
      }
      double fullRate = Latencies.median(fullRates);
      double p99 = Latencies.median(pacedP99);
      out.printf(
          "%nmedians of %d runs (%d dumps each; 503s retried: %d):%n",
          o.runs(), o.dumps(), rejected.get());
      out.printf(
          "  collector alone %.1f dumps/s; whole path %.1f dumps/s: ratio %.2f (target >= 0.50): %s%n",
          collectorRate,
          fullRate,
          fullRate / collectorRate,
          fullRate >= collectorRate / 2 ? "met" : "not met");
      out.printf(
          "  paced at %.1f dumps/s (%.2f of the collector's): %.1f dumps/s out, upload to output p50 %.0f ms, "
              + "p99 %.0f ms (target < 2000 ms): %s%n",
          pacedRate,
          o.pacedFraction(),
          Latencies.median(pacedRates),
          Latencies.median(pacedP50),
          p99,
          p99 < 2000 ? "met" : "not met");
    } finally {
      deleteTree(tmp);
    }
  }

  private AppConfig config(EmbeddedKafka kafka, EmbeddedS3 s3, Path tmp, String app) {
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", app)
            .set("state.dir", tmp.resolve("state-" + app).toString())
            .set("http.cache.dir", tmp.resolve("cache-" + app).toString())
            .set("topics.partitions", String.valueOf(o.partitions()))
            .set("streams.commit.interval.ms", "100")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("collector.enabled", "true")
            .set("collector.s3.bucket", DUMPS_BUCKET)
            .set("symbols.s3.bucket", SYMBOLS_BUCKET)
            .set("symbols.s3.endpoint", s3.endpoint().toString())
            .set("symbols.s3.path-style", "true");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, app + "." + t);
    }
    o.overrides().forEach(cfg::set);
    return cfg;
  }

  /** The generated modules' .sym files in the symbols bucket, in Breakpad's layout. */
  private static void uploadSymbols(EmbeddedS3 s3, Path dir) throws Exception {
    SyntheticDump.writeTo(dir);
    Path symbols = dir.resolve("symbols");
    try (var client = s3.client();
        Stream<Path> files = Files.walk(symbols)) {
      client.createBucket(b -> b.bucket(SYMBOLS_BUCKET));
      client.createBucket(b -> b.bucket(DUMPS_BUCKET));
      for (Path f : files.filter(p -> p.toString().endsWith(".sym")).toList()) {
        String key = symbols.relativize(f).toString().replace('\\', '/');
        client.putObject(b -> b.bucket(SYMBOLS_BUCKET).key(key), RequestBody.fromFile(f));
      }
    }
  }

  /** {@code n} uploads from the clients as fast as the collector answers; the window ends at the last answer. */
  private Phase collectorOnly(URI submit, int n) throws Exception {
    Map<String, Long> started = new ConcurrentHashMap<>();
    Map<String, Long> answered = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    fullSpeed(submit, n, started, answered);
    long end = answered.values().stream().mapToLong(Long::longValue).max().orElse(start);
    return new Phase(latencies(started, answered), end - start, n);
  }

  /**
   * {@code n} uploads at full speed ({@code rate} 0) or paced at {@code rate} a second, then waits
   * for every one on the output; the window ends at the last output.
   */
  private Phase wholePath(URI submit, Outputs outputs, int n, double rate) throws Exception {
    Map<String, Long> started = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    if (rate > 0) {
      paced(submit, n, rate, started);
    } else {
      fullSpeed(submit, n, started, new ConcurrentHashMap<>());
    }
    long deadline = System.nanoTime() + o.maxPhase().toNanos();
    while (!outputs.arrived.keySet().containsAll(started.keySet())) {
      if (System.nanoTime() > deadline) {
        long missing =
            started.keySet().stream().filter(k -> !outputs.arrived.containsKey(k)).count();
        throw new IllegalStateException(
            missing
                + " of "
                + n
                + " dumps did not come out within "
                + o.maxPhase()
                + " (dead letters: "
                + outputs.dead.get()
                + ", first: "
                + outputs.firstDeadLetter
                + ")");
      }
      Thread.sleep(20);
    }
    Map<String, Long> arrived = new HashMap<>();
    for (String id : started.keySet()) {
      arrived.put(id, outputs.arrived.get(id));
    }
    long end = arrived.values().stream().mapToLong(Long::longValue).max().orElse(start);
    return new Phase(latencies(started, arrived), end - start, n);
  }

  private static long[] latencies(Map<String, Long> from, Map<String, Long> to) {
    return from.entrySet().stream().mapToLong(e -> to.get(e.getKey()) - e.getValue()).toArray();
  }

  private void fullSpeed(URI submit, int n, Map<String, Long> started, Map<String, Long> answered)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(o.clients());
    List<Future<?>> clients = new ArrayList<>();
    for (int c = 0; c < o.clients(); c++) {
      clients.add(
          pool.submit(
              () -> {
                while (next.getAndIncrement() < n) {
                  byte[] body = body();
                  long t = System.nanoTime();
                  String id = upload(submit, body);
                  answered.put(id, System.nanoTime());
                  started.put(id, t);
                }
                return null;
              }));
    }
    await(pool, clients);
  }

  /** Open loop: upload i starts at start + i / rate, its latency counted from then even if a client was late. */
  private void paced(URI submit, int n, double rate, Map<String, Long> started) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(o.clients(), 32));
    List<Future<?>> uploads = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      long at = start + (long) (i * 1e9 / rate);
      long wait = at - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      byte[] body = body();
      uploads.add(
          pool.submit(
              () -> {
                String id = upload(submit, body);
                started.put(id, at);
                return null;
              }));
    }
    await(pool, uploads);
  }

  private void await(ExecutorService pool, List<Future<?>> tasks) throws Exception {
    try {
      for (var f : tasks) {
        f.get(o.maxPhase().toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A report as Breakpad's client sends it, with a dump of distinct bytes and the same walk. */
  private byte[] body() throws IOException {
    byte[] dump = SyntheticDump.dump(o.stackBytes(), seeds.incrementAndGet());
    ByteArrayOutputStream b = new ByteArrayOutputStream(dump.length + 512);
    for (String[] f : new String[][] {{"ProductName", "BenchApp"}, {"Version", "1.0"}}) {
      b.write(
          ("--"
                  + BOUNDARY
                  + "\r\nContent-Disposition: form-data; name=\""
                  + f[0]
                  + "\"\r\n\r\n"
                  + f[1]
                  + "\r\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    b.write(
        ("--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"upload_file_minidump\"; "
                + "filename=\"bench.dmp\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    b.write(dump);
    b.write(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return b.toByteArray();
  }

  /** The crash id the collector answers; a 503 is tried again after its Retry-After (at most a second). */
  private String upload(URI submit, byte[] body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(submit)
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    while (true) {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 503) {
        rejected.incrementAndGet();
        long wait = r.headers().firstValueAsLong("Retry-After").orElse(1) * 1000;
        Thread.sleep(Math.min(MAX_RETRY_WAIT_MS, wait));
        continue;
      }
      Matcher m = CRASH_ID.matcher(r.body());
      if (r.statusCode() != 200 || !m.find()) {
        throw new IllegalStateException(
            "the collector answered " + r.statusCode() + ": " + r.body());
      }
      return m.group(1);
    }
  }

  /** Reads the output and the DLQ (read_committed), noting when each event id first arrives. */
  private static final class Outputs implements AutoCloseable {
    final Map<String, Long> arrived = new ConcurrentHashMap<>();
    final AtomicInteger dead = new AtomicInteger();
    final AtomicInteger duplicates = new AtomicInteger();
    volatile String firstDeadLetter;
    private final Thread thread;
    private volatile boolean closed;

    Outputs(EmbeddedKafka kafka, AppConfig cfg) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, cfg.get("application.id") + "-bench-reader");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      String output = cfg.get("topic.symbolicated");
      String dlq = cfg.get("topic.dlq");
      var consumer =
          new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(List.of(output, dlq));
      thread =
          new Thread(
              () -> {
                try (consumer) {
                  while (!closed) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                      long now = System.nanoTime();
                      if (r.topic().equals(dlq)) {
                        DeadLetter d =
                            WireSerdes.deadLetter()
                                .deserializer()
                                .deserialize(r.topic(), r.value());
                        if (dead.getAndIncrement() == 0) {
                          firstDeadLetter = d.getErrorKind() + ": " + d.getMessage();
                        }
                      } else {
                        String id =
                            WireSerdes.symbolicatedEvent()
                                .deserializer()
                                .deserialize(r.topic(), r.value())
                                .getEvent()
                                .getEventId();
                        if (arrived.putIfAbsent(id, now) != null) {
                          duplicates.incrementAndGet();
                        }
                      }
                    }
                  }
                }
              },
              "bench-counter-outputs");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      closed = true;
      thread.join(10_000);
    }
  }

  /** The records on {@code topic}, by its end offsets. */
  private static long records(EmbeddedKafka kafka, String topic) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind
    }
  }
}

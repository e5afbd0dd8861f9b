package io.symbolicate.bench.collect;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.bench.minidump.SyntheticDump;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * {@code symbolicator bench collector}: issue 43's attack phase. {@code serve} (in a child JVM of
 * its own, {@link ServeChild}, or in this JVM) with
 * the collector (dumps to the embedded S3 server, events to the embedded broker), the upload
 * routes (into a symbols directory) and {@code metrics.port} on; for {@code --seconds} per run:
 * slow over-limit {@code /submit} senders (half announce a length over the limit, half send a
 * chunked body, each trickling a byte every 200 ms), idle connections (nothing sent), concurrent
 * Breakpad uploads in several scopes (the same few modules, so they race), and a few normal
 * crash reporters; {@code /health} on the metrics port sampled every 50 ms. Per run: every
 * normal report's status and p99, {@code /health}'s p99 and max, every 500 seen, and the staging
 * files left once the uploads ended; then the medians and ranges of the runs.
 */
public final class CollectorAttackBenchmark {
  static final String BOUNDARY = "----attack-5c2e9b71";

  /** A report body over this is 413 (the bench's collector limit, 1 MiB). */
  static final long MAX_BODY = 1 << 20;

  /** How long an attacker waits before reconnecting once the server ended its connection. */
  static final long RECONNECT_PAUSE_MS = 200;

  public record Options(
      int runs,
      int warmupRuns,
      Duration phase,
      int reporters,
      int slowSenders,
      int idleConnections,
      int scopes,
      int uploadsPerScope,
      Map<String, String> overrides,
      boolean childServer,
      List<String> serverJvmOptions,
      Path logDir) {
    public Options {
      overrides = Map.copyOf(overrides);
      serverJvmOptions = List.copyOf(serverJvmOptions);
    }
  }

  /** The child's log names: serve-20261203-171500. */
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  /** The figures of one run. */
  record Run(
      int reports,
      Map<Integer, Integer> reportStatuses,
      double reportP99,
      double reportMax,
      int healthSamples,
      double healthP99,
      double healthMax,
      int healthFailures,
      Map<Integer, Integer> uploadStatuses,
      String uploadErrors,
      int errors500,
      int leftover,
      int doneMarks,
      String slowSenders,
      String idle,
      String load) {}

  private final Options o;
  private final PrintStream out;

  /** The uploads' client; the reporters and the health sampler have their own. */
  private final HttpClient http = client();

  /** The last answer other than 200 a normal report got (for the log). */
  private volatile String lastRefusal = "";

  private static HttpClient client() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  public CollectorAttackBenchmark(Options o, PrintStream out) {
    this.o = o;
    this.out = out;
  }

  public void run() throws Exception {
    Path tmp = Files.createTempDirectory("attackbench");
    out.printf(
        "attack: %d reporters beside %d slow over-limit /submit senders, %d idle connections, "
            + "%d uploads at once in each of %d scopes; %d s a run, %d runs; load %s%n",
        o.reporters(),
        o.slowSenders(),
        o.idleConnections(),
        o.uploadsPerScope(),
        o.scopes(),
        o.phase().toSeconds(),
        o.runs(),
        MinidumpBenchmark.load());
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    Files.createDirectories(tmp.resolve("s3"));
    Path symbols = Files.createDirectories(tmp.resolve("symbols"));
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(tmp.resolve("s3"))) {
      try (var c = s3.client()) {
        c.createBucket(b -> b.bucket("attack-dumps"));
      }
      int metricsPort;
      try (ServerSocket s = new ServerSocket(0)) {
        metricsPort = s.getLocalPort();
      }
      StringBuilder keys = new StringBuilder();
      for (int s = 0; s < o.scopes(); s++) {
        keys.append(s == 0 ? "" : ",").append(ApiKeys.hash(key(s))).append("=s").append(s);
        keys.append(":upload");
      }
      // the benchmark's settings, then --set's: in this JVM, or on the child's command line
      Map<String, String> settings = new LinkedHashMap<>();
      settings.put("bootstrap.servers", kafka.bootstrapServers());
      settings.put("state.dir", tmp.resolve("state").toString());
      settings.put("http.cache.dir", tmp.resolve("cache").toString());
      settings.put("http.port", "0");
      settings.put("metrics.port", String.valueOf(metricsPort));
      settings.put("collector.enabled", "true");
      settings.put("collector.s3.bucket", "attack-dumps");
      settings.put("collector.max.body.bytes", String.valueOf(MAX_BODY));
      settings.put("symbols.s3.endpoint", s3.endpoint().toString());
      settings.put("symbols.s3.path-style", "true");
      settings.put("symbols.dir", symbols.toString());
      settings.put("upload.enabled", "true");
      settings.put("api.keys", keys.toString());
      settings.putAll(o.overrides());
      AppConfig cfg = AppConfig.defaults();
      settings.forEach(cfg::set);
      kafka.createTopics(1, cfg.get("topic.raw"));
      List<Run> runs = new ArrayList<>();
      URI health = URI.create("http://127.0.0.1:" + metricsPort + "/health");
      Path staging = symbols.resolve("upload-staging");
      if (o.childServer()) {
        String name = "serve-" + STAMP.format(LocalDateTime.now());
        out.printf(
            "serve in a child JVM (%s), its log %s%n",
            String.join(" ", o.serverJvmOptions()),
            o.logDir().toAbsolutePath().resolve(name + ".log"));
        try (ServeChild child =
            ServeChild.start(name, settings, o.serverJvmOptions(), "info", o.logDir())) {
          out.printf("server %s (pid %d), health %s%n", child.uri(), child.pid(), health);
          phases(child.uri(), health, staging, runs);
          if (!child.isAlive()) {
            throw new IllegalStateException("serve died during the runs: see " + child.log());
          }
        }
      } else {
        try (ApiRuntime.Running api = ApiRuntime.serve(cfg)) {
          out.printf("server %s (in this JVM), health %s%n", api.server().uri(), health);
          phases(api.server().uri(), health, staging, runs);
        }
      }
      summary(runs);
    } finally {
      try (Stream<Path> s = Files.walk(tmp)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The warm-up, then the runs. */
  private void phases(URI base, URI health, Path staging, List<Run> runs) throws Exception {
    // warm-up, not counted: the producer's metadata, the S3 client, the upload path
    for (int i = 0; i < 20; i++) {
      report(http, base.resolve("/submit"), i);
      upload(base, 0, i % 4, new Tally());
    }
    // whole attack runs, not counted: the JIT compiles the server's paths under the attack's mix
    // before the measured runs, as in a server that has been up for a while
    for (int w = 1; w <= o.warmupRuns(); w++) {
      out.printf(
          "warm-up run %d (not counted): %s%n", w, line(attack(base, health, staging, 1000 + w)));
    }
    for (int r = 1; r <= o.runs(); r++) {
      Run run = attack(base, health, staging, r);
      runs.add(run);
      out.printf("run %d: %s%n", r, line(run));
      if (!lastRefusal.isEmpty()) {
        out.printf("  a normal report's last refusal: %s%n", lastRefusal);
      }
    }
  }

  static String key(int scope) {
    return "attack-bench-key-" + scope;
  }

  private Run attack(URI base, URI health, Path staging, int run) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    AtomicInteger errors500 = new AtomicInteger();
    Tally slow = new Tally();
    Tally idle = new Tally();
    for (int i = 0; i < o.slowSenders(); i++) {
      boolean chunked = i % 2 == 1;
      threads.add(start("slow-" + i, () -> slowSender(base, chunked, stop, slow)));
    }
    for (int i = 0; i < o.idleConnections(); i++) {
      threads.add(start("idle-" + i, () -> idleConnection(base, stop, idle)));
    }
    Map<Integer, Integer> uploads = new ConcurrentHashMap<>();
    Tally uploadErrors = new Tally();
    for (int s = 0; s < o.scopes(); s++) {
      for (int i = 0; i < o.uploadsPerScope(); i++) {
        int scope = s;
        int module = i % 4;
        threads.add(
            start(
                "upload-" + s + "-" + i,
                () -> {
                  while (!stop.get()) {
                    int status = upload(base, scope, module, uploadErrors);
                    uploads.merge(status, 1, Integer::sum);
                    if (status == 500) {
                      errors500.incrementAndGet();
                    }
                  }
                }));
      }
    }
    Thread.sleep(2000); // the attackers connected and stuck before the measured clients start
    List<Double> healthMs = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger healthFailures = new AtomicInteger();
    HttpClient healthClient = client();
    Thread sampler =
        start(
            "health",
            () -> {
              while (!stop.get()) {
                long t0 = System.nanoTime();
                int status = get(healthClient, health);
                healthMs.add((System.nanoTime() - t0) / 1e6);
                if (status != 200) {
                  healthFailures.incrementAndGet();
                }
                if (status == 500) {
                  errors500.incrementAndGet();
                }
                pause(50);
              }
            });
    List<Double> reportMs = Collections.synchronizedList(new ArrayList<>());
    Map<Integer, Integer> reports = new ConcurrentHashMap<>();
    AtomicLong seq = new AtomicLong(run * 1_000_000L);
    List<Thread> reporters = new ArrayList<>();
    long end = System.nanoTime() + o.phase().toNanos();
    for (int i = 0; i < o.reporters(); i++) {
      reporters.add(
          start(
              "reporter-" + i,
              () -> {
                HttpClient own = client();
                while (System.nanoTime() < end) {
                  long t0 = System.nanoTime();
                  int status = report(own, base.resolve("/submit"), seq.incrementAndGet());
                  reportMs.add((System.nanoTime() - t0) / 1e6);
                  reports.merge(status, 1, Integer::sum);
                  if (status == 500) {
                    errors500.incrementAndGet();
                  }
                }
              }));
    }
    for (Thread t : reporters) {
      t.join();
    }
    stop.set(true);
    sampler.join();
    for (Thread t : threads) {
      t.join(35_000); // an upload in flight ends; an attacker notices within its read timeout
    }
    int[] left = stagingFiles(staging);
    return new Run(
        reportMs.size(),
        new TreeMap<>(reports),
        percentile(reportMs, 99),
        percentile(reportMs, 100),
        healthMs.size(),
        percentile(healthMs, 99),
        percentile(healthMs, 100),
        healthFailures.get(),
        new TreeMap<>(uploads),
        new TreeMap<>(uploadErrors.answers).toString(),
        errors500.get(),
        left[0],
        left[1],
        slow.toString(),
        idle.toString(),
        MinidumpBenchmark.load());
  }

  /** Parts and claims left in the staging folder, and the done marks (kept until the expiry). */
  private static int[] stagingFiles(Path staging) throws IOException {
    int[] n = new int[2];
    if (!Files.isDirectory(staging)) {
      return n;
    }
    try (Stream<Path> s = Files.walk(staging)) {
      s.filter(Files::isRegularFile)
          .forEach(p -> n[p.getFileName().toString().endsWith(".assembled") ? 1 : 0]++);
    }
    return n;
  }

  /** How the server ended one kind of attacker's connections. */
  static final class Tally {
    final AtomicInteger connections = new AtomicInteger();
    final Map<String, Integer> answers = new ConcurrentHashMap<>();

    void answered(String what) {
      answers.merge(what, 1, Integer::sum);
    }

    @Override
    public String toString() {
      return connections + " connections, ended by " + new TreeMap<>(answers);
    }
  }

  /**
   * Announces a report over the limit (or a chunked one) and trickles a byte every 200 ms until
   * the server answers or closes.
   */
  private void slowSender(URI base, boolean chunked, AtomicBoolean stop, Tally t) {
    while (!stop.get()) {
      try (Socket s = new Socket(base.getHost(), base.getPort())) {
        t.connections.incrementAndGet();
        s.setSoTimeout(200);
        OutputStream os = s.getOutputStream();
        InputStream in = s.getInputStream();
        String head =
            "POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary="
                + BOUNDARY
                + "\r\n"
                + (chunked
                    ? "Transfer-Encoding: chunked\r\n\r\n"
                    : "Content-Length: " + (MAX_BODY * 1000) + "\r\n\r\n");
        os.write(head.getBytes(StandardCharsets.US_ASCII));
        os.flush();
        boolean first = true;
        while (!stop.get()) {
          try {
            t.answered(status(in));
            break;
          } catch (SocketTimeoutException e) {
            // one more byte (a chunk of one byte when chunked)
            String part = first ? "--" + BOUNDARY.substring(0, 1) : "x";
            if (chunked) {
              part = Integer.toHexString(part.length()) + "\r\n" + part + "\r\n";
            }
            os.write(part.getBytes(StandardCharsets.US_ASCII));
            os.flush();
            first = false;
          }
        }
      } catch (IOException e) {
        t.answered("reset");
      }
      pause(RECONNECT_PAUSE_MS);
    }
  }

  /** Connects and sends nothing until the server closes (or the run ends). */
  private void idleConnection(URI base, AtomicBoolean stop, Tally t) {
    while (!stop.get()) {
      try (Socket s = new Socket(base.getHost(), base.getPort())) {
        t.connections.incrementAndGet();
        s.setSoTimeout(500);
        InputStream in = s.getInputStream();
        while (!stop.get()) {
          try {
            t.answered(status(in));
            break;
          } catch (SocketTimeoutException e) {
            // still open
          }
        }
      } catch (IOException e) {
        t.answered("reset");
      }
      pause(RECONNECT_PAUSE_MS);
    }
  }

  /** The status line's code, or "closed". */
  private static String status(InputStream in) throws IOException {
    int b = in.read();
    if (b < 0) {
      return "closed";
    }
    byte[] rest = in.readNBytes(11);
    String line = (char) b + new String(rest, StandardCharsets.US_ASCII);
    return line.length() >= 12 ? line.substring(9, 12) : line;
  }

  private int report(HttpClient client, URI submit, long seed) {
    try {
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(submit)
                  .timeout(Duration.ofSeconds(30))
                  .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                  .POST(HttpRequest.BodyPublishers.ofByteArray(reportBody(seed)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        lastRefusal = r.statusCode() + " " + r.body().strip();
      }
      return r.statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** A report as Breakpad's client sends it, with a small dump (16 KiB of stack). */
  private static byte[] reportBody(long seed) throws IOException {
    byte[] dump = SyntheticDump.dump(16384, seed);
    ByteArrayOutputStream b = new ByteArrayOutputStream(dump.length + 512);
    b.write(
        ("--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"ProductName\"\r\n\r\nAttackBench\r\n"
                + "--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"upload_file_minidump\"; "
                + "filename=\"bench.dmp\"\r\nContent-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    b.write(dump);
    b.write(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return b.toByteArray();
  }

  /** A Breakpad upload of one of a scope's modules (about 20 KB); its status, -1 on I/O error. */
  private int upload(URI base, int scope, int module, Tally errors) {
    // made once: the clients share the server's JVM, and their garbage pauses it too
    byte[] sym = symFiles.computeIfAbsent(scope * 16 + module, k -> symFile(scope, module));
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(base.resolve("/api/symbols-breakpad"))
                  .timeout(Duration.ofSeconds(30))
                  .header("Authorization", "APIKey " + key(scope))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(sym))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 429) {
        pause(100); // as a client told "busy" would
      }
      return r.statusCode();
    } catch (IOException e) {
      errors.answered(e.getClass().getSimpleName() + ": " + e.getMessage());
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private final Map<Integer, byte[]> symFiles = new ConcurrentHashMap<>();

  private static byte[] symFile(int scope, int module) {
    String id = String.format("%08X%024X0", scope, module);
    StringBuilder sym = new StringBuilder("MODULE Linux x86_64 " + id + " attack" + module + "\n");
    for (int i = 0; sym.length() < 20_000; i++) {
      sym.append("PUBLIC ").append(Integer.toHexString(0x1000 + 16 * i)).append(" 0 f");
      sym.append(i).append('\n');
    }
    return sym.toString().getBytes(StandardCharsets.UTF_8);
  }

  private int get(HttpClient client, URI uri) {
    try {
      return client
          .send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static Thread start(String name, Runnable r) {
    Thread t = new Thread(r, "attack-" + name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static double percentile(List<Double> values, double p) {
    double[] v;
    synchronized (values) {
      v = values.stream().mapToDouble(Double::doubleValue).toArray();
    }
    if (v.length == 0) {
      return Double.NaN;
    }
    Arrays.sort(v);
    return v[Math.min(v.length - 1, Math.max(0, (int) Math.ceil(p / 100 * v.length) - 1))];
  }

  private static String line(Run r) {
    return String.format(
        "reports %d %s, p99 %.0f ms, max %.0f ms; /health %d samples, p99 %.1f ms, max %.1f ms,"
            + " %d not 200; uploads %s (no answer: %s); 500s %d; staging files left %d (done marks %d);"
            + " slow senders: %s; idle: %s; load %s",
        r.reports(),
        r.reportStatuses(),
        r.reportP99(),
        r.reportMax(),
        r.healthSamples(),
        r.healthP99(),
        r.healthMax(),
        r.healthFailures(),
        r.uploadStatuses(),
        r.uploadErrors(),
        r.errors500(),
        r.leftover(),
        r.doneMarks(),
        r.slowSenders(),
        r.idle(),
        r.load());
  }

  String lastRefusal() {
    return lastRefusal;
  }

  private void summary(List<Run> runs) {
    out.printf("%nmedians of %d runs (range):%n", runs.size());
    stat(runs, "report p99 ms (target < 1000)", Run::reportP99);
    stat(runs, "/health p99 ms", Run::healthP99);
    stat(runs, "/health max ms (target < 100)", Run::healthMax);
    stat(runs, "500s (target 0)", r -> r.errors500());
    stat(runs, "staging files left (target 0)", r -> r.leftover());
    stat(runs, "uploads without an answer", r -> r.uploadStatuses().getOrDefault(-1, 0));
    long notOk =
        runs.stream()
            .flatMap(r -> r.reportStatuses().entrySet().stream())
            .filter(e -> e.getKey() != 200)
            .mapToLong(Map.Entry::getValue)
            .sum();
    int all = runs.stream().mapToInt(Run::reports).sum();
    out.printf("  normal reports: %d, not 200: %d (target 0)%n", all, notOk);
  }

  private void stat(List<Run> runs, String name, ToDoubleFunction<Run> f) {
    double[] v = runs.stream().mapToDouble(f).sorted().toArray();
    DoubleFunction<String> fmt = x -> String.format("%.1f", x);
    out.printf(
        "  %s: %s (%s-%s)%n",
        name, fmt.apply(v[v.length / 2]), fmt.apply(v[0]), fmt.apply(v[v.length - 1]));
  }
}

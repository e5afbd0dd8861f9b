package io.symbolicate.bench.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Load test of the HTTP API from this process against {@code serve} in a child JVM on loopback:
 * warms the module, fires warm v5 requests of 10 jobs x 50 frames from a bounded number of
 * clients (requests per second, p50/p99 latency), then overloads it with many more clients than
 * it admits and counts the answers (503s expected, no timeouts, server still up). Then the same
 * clients send 1-frame requests for a while beside slow clients ({@link Attackers}: slow headers,
 * slow bodies, idle announced lengths): they should see no 503 and keep their latency. Bounded
 * in request count and time.
 */
public final class ApiLoadTest {
  /** Options; {@code url} targets a running server instead of starting one. */
  public record Options(
      Path sym,
      Path addrs,
      URI url,
      int clients,
      int requests,
      int overloadClients,
      int overloadRequests,
      int maxInFlight,
      Duration maxPhase,
      int slowHeaders,
      int slowBodies,
      int idleLengths,
      Duration attackTime) {

    /** Without attackers. */
    public Options(
        Path sym,
        Path addrs,
        URI url,
        int clients,
        int requests,
        int overloadClients,
        int overloadRequests,
        int maxInFlight,
        Duration maxPhase) {
      this(
          sym,
          addrs,
          url,
          clients,
          requests,
          overloadClients,
          overloadRequests,
          maxInFlight,
          maxPhase,
          0,
          0,
          0,
          Duration.ZERO);
    }
  }

  /** Requests at most in the attack phase (it is bounded by time). */
  static final int ATTACK_PHASE_MAX_REQUESTS = 1_000_000;

  private final Options o;
  private final PrintStream out;

  public ApiLoadTest(Options o, PrintStream out) {
    this.o = o;
    this.out = out;
  }

  public void run() throws Exception {
    String[] module = Files.newBufferedReader(o.sym()).readLine().trim().split(" ");
    String debugId = module[3];
    String debugFile = module[4];
    long[] addrs = addresses();
    out.printf(
        "module %s/%s (%d MB), %d addresses%n",
        debugFile, debugId, Files.size(o.sym()) >> 20, addrs.length);
    Path tmp = Files.createTempDirectory("api-bench");
    Process child = null;
    try {
      URI url = o.url();
      if (url == null) {
        Path dir = tmp.resolve("symbols").resolve(debugFile).resolve(debugId);
        Files.createDirectories(dir);
        Files.createSymbolicLink(
            dir.resolve(debugFile.replaceFirst("\\.pdb$", "") + ".sym"), o.sym().toAbsolutePath());
        child = startServe(tmp);
        url = readUrl(child);
      }
      out.printf("server %s (max in flight %d)%n", url, o.maxInFlight());
      URI v5 = url.resolve("/symbolicate/v5");
      warm(v5, debugFile, debugId, addrs);

      Phase warm = phase(v5, o.clients(), o.requests(), debugFile, debugId, addrs);
      out.printf(
          "warm:     %d clients, %d requests of 10 jobs x 50 frames in %.1f s: %.0f requests/s "
              + "(%.0f frames/s), p50 %.1f ms, p99 %.1f ms; statuses %s%n",
          o.clients(),
          warm.done(),
          warm.seconds(),
          warm.done() / warm.seconds(),
          warm.done() * 500 / warm.seconds(),
          warm.percentile(50),
          warm.percentile(99),
          warm.statuses());

      // baseline in the same run: the same clients with 1 job x 1 frame (HTTP, JSON and admission
      // alone)
      Phase base = phase(v5, o.clients(), o.requests(), debugFile, debugId, addrs, 1, 1);
      out.printf(
          "baseline: %d clients, %d requests of 1 job x 1 frame in %.1f s: %.0f requests/s, p50 %.1f ms, "
              + "p99 %.1f ms; statuses %s%n",
          o.clients(),
          base.done(),
          base.seconds(),
          base.done() / base.seconds(),
          base.percentile(50),
          base.percentile(99),
          base.statuses());
      out.printf(
          "ratio:    a 500-frame request costs %.1fx a 1-frame request at p50 (%.2f ms per extra frame)%n",
          warm.percentile(50) / base.percentile(50),
          (warm.percentile(50) - base.percentile(50)) / 499);

      Phase over = phase(v5, o.overloadClients(), o.overloadRequests(), debugFile, debugId, addrs);
      out.printf(
          "overload: %d clients, %d requests in %.1f s: %s; p50 %.1f ms, p99 %.1f ms%n",
          o.overloadClients(),
          over.done(),
          over.seconds(),
          over.statuses(),
          over.percentile(50),
          over.percentile(99));
      Phase after = phase(v5, 1, 5, debugFile, debugId, addrs);
      out.printf(
          "after:    %s (server still up: %s)%n",
          after.statuses(), after.ok() == 5 && (child == null || child.isAlive()));
      if (o.slowHeaders() + o.slowBodies() + o.idleLengths() > 0) {
        attack(url, v5, debugFile, debugId, addrs, base);
      }
    } finally {
      if (child != null) {
        child.destroy();
        if (!child.waitFor(10, TimeUnit.SECONDS)) {
          child.destroyForcibly();
        }
      }
      try (Stream<Path> s = Files.walk(tmp)) {
        s.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The baseline's clients and requests beside the attackers, for {@code attackTime}. */
  private void attack(URI url, URI v5, String file, String id, long[] addrs, Phase base)
      throws Exception {
    try (Attackers a = new Attackers(url)) {
      a.start(o.slowHeaders(), o.slowBodies(), o.idleLengths());
      Thread.sleep(2000); // all connected and stuck before the normal clients start
      Phase p =
          phase(v5, o.clients(), ATTACK_PHASE_MAX_REQUESTS, file, id, addrs, 1, 1, o.attackTime());
      out.printf(
          "attack:   %d clients beside %d slow-header, %d slow-body and %d idle-length connections for "
              + "%.0f s: %d requests of 1 job x 1 frame, %.0f requests/s, p50 %.1f ms, p99 %.1f ms, max %.1f ms "
              + "(baseline without attackers: p50 %.1f ms, p99 %.1f ms); statuses %s%n",
          o.clients(),
          o.slowHeaders(),
          o.slowBodies(),
          o.idleLengths(),
          p.seconds(),
          p.done(),
          p.done() / p.seconds(),
          p.percentile(50),
          p.percentile(99),
          p.percentile(100),
          base.percentile(50),
          base.percentile(99),
          p.statuses());
      out.printf(
          "attackers: slow headers: %s%n           slow bodies: %s%n           idle lengths: %s%n",
          a.slowHeader, a.slowBody, a.idleLength);
      out.printf(
          "verdict:  p99 %s 100 ms, %d 503s%n", p.percentile(99) < 100 ? "<" : ">=", p.busy());
    }
  }

  private long[] addresses() throws IOException {
    if (o.addrs() != null) {
      try (Stream<String> lines = Files.lines(o.addrs())) {
        return lines
            .limit(200_000)
            .filter(l -> !l.isBlank())
            .mapToLong(l -> Long.parseUnsignedLong(l.trim(), 16))
            .toArray();
      }
    }
    // no address list: the FUNC starts of the file plus a little
    try (Stream<String> lines = Files.lines(o.sym())) {
      return lines
          .filter(l -> l.startsWith("FUNC "))
          .limit(200_000)
          .mapToLong(
              l -> {
                String[] f = l.split(" ");
                return Long.parseUnsignedLong(f[1].equals("m") ? f[2] : f[1], 16) + 1;
              })
          .toArray();
    }
  }

  private Process startServe(Path tmp) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx1g",
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.symbolicate.schema",
                "-Dsymbolicator.log.level=warn",
                "-cp",
                System.getProperty("java.class.path"),
                "io.symbolicate.app.cli.SymbolicatorCli",
                "serve",
                "--symbols-dir",
                tmp.resolve("symbols").toString(),
                "--cache-dir",
                tmp.resolve("cache").toString(),
                "--port",
                "0",
                "--set",
                "http.max.in.flight=" + o.maxInFlight(),
                "--set",
                "http.request.timeout.ms=20000"));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static URI readUrl(Process p) throws IOException {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = r.readLine();
    if (line == null || !line.contains("http://")) {
      throw new IOException("serve did not start: " + line);
    }
    return URI.create(line.substring(line.indexOf("http://")).trim());
  }

  /** Until the module is found (its first load converts the whole file), at most 10 minutes. */
  private void warm(URI v5, String file, String id, long[] addrs) throws Exception {
    HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(10);
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r =
          c.send(request(v5, file, id, addrs, new Random(1)), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        JsonNode found =
            Json.MAPPER.readTree(r.body()).at("/results/0/found_modules/" + file + "~1" + id);
        if (found.asBoolean(false)) {
          out.printf(
              "warm-up:  module loaded and found after %.1f s%n",
              (System.nanoTime() - start) / 1e9);
          return;
        }
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the module was not found within 10 minutes");
  }

  private static HttpRequest request(URI v5, String file, String id, long[] addrs, Random rnd) {
    return request(v5, file, id, addrs, rnd, 10, 50);
  }

  private static HttpRequest request(
      URI v5, String file, String id, long[] addrs, Random rnd, int jobs, int perJob) {
    StringBuilder b = new StringBuilder(12_000).append("{\"jobs\": [");
    for (int j = 0; j < jobs; j++) {
      b.append(j == 0 ? "" : ",")
          .append("{\"memoryMap\": [[\"")
          .append(file)
          .append("\", \"")
          .append(id)
          .append("\"]], \"stacks\": [[");
      for (int f = 0; f < perJob; f++) {
        b.append(f == 0 ? "" : ",")
            .append("[0,")
            .append(addrs[rnd.nextInt(addrs.length)])
            .append(']');
      }
      b.append("]]}");
    }
    b.append("]}");
    return HttpRequest.newBuilder(v5)
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(b.toString()))
        .build();
  }

  /** Latencies (ms) and outcomes of one phase. */
  record Phase(
      double[] latencies,
      int done,
      double seconds,
      int ok,
      int busy,
      int other,
      int timeouts,
      int errors) {
    double percentile(int p) {
      if (latencies.length == 0) {
        return Double.NaN;
      }
      double[] s = latencies.clone();
      Arrays.sort(s);
      return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }

    String statuses() {
      return "200: "
          + ok
          + ", 503: "
          + busy
          + ", other: "
          + other
          + ", timeouts: "
          + timeouts
          + ", errors: "
          + errors;
    }
  }

  private Phase phase(URI v5, int clients, int total, String file, String id, long[] addrs)
      throws Exception {
    return phase(v5, clients, total, file, id, addrs, 10, 50);
  }

  private Phase phase(
      URI v5, int clients, int total, String file, String id, long[] addrs, int jobs, int perJob)
      throws Exception {
    return phase(v5, clients, total, file, id, addrs, jobs, perJob, o.maxPhase());
  }

  private Phase phase(
      URI v5,
      int clients,
      int total,
      String file,
      String id,
      long[] addrs,
      int jobs,
      int perJob,
      Duration maxTime)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger busy = new AtomicInteger();
    AtomicInteger other = new AtomicInteger();
    AtomicInteger timeouts = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    double[] lat = new double[total];
    long stopAt = System.nanoTime() + maxTime.toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    long start = System.nanoTime();
    List<Future<?>> fs = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int seed = c;
      fs.add(
          pool.submit(
              () -> {
                HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                Random rnd = new Random(seed * 7919L + total);
                int i;
                while ((i = next.getAndIncrement()) < total && System.nanoTime() < stopAt) {
                  HttpRequest req = request(v5, file, id, addrs, rnd, jobs, perJob);
                  long t0 = System.nanoTime();
                  try {
                    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                    switch (r.statusCode()) {
                      case 200 -> ok.incrementAndGet();
                      case 503 -> busy.incrementAndGet();
                      default -> other.incrementAndGet();
                    }
                  } catch (HttpTimeoutException e) {
                    timeouts.incrementAndGet();
                  } catch (IOException e) {
                    errors.incrementAndGet();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  }
                  lat[i] = (System.nanoTime() - t0) / 1e6;
                }
                next.getAndAdd(0);
              }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    double secs = (System.nanoTime() - start) / 1e9;
    int done = Math.min(total, ok.get() + busy.get() + other.get() + timeouts.get() + errors.get());
    double[] measured = new double[done];
    int k = 0;
    for (double v : lat) {
      if (v > 0 && k < done) {
        measured[k++] = v;
      }
    }
    return new Phase(
        Arrays.copyOf(measured, k),
        done,
        secs,
        ok.get(),
        busy.get(),
        other.get(),
        timeouts.get(),
        errors.get());
  }
}

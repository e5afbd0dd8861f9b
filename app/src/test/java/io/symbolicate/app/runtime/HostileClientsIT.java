package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.collect.CollectorService;
import io.symbolicate.api.collect.MultipartBody;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash collector and the upload API under hostile clients (issue 43), on the real broker
 * and S3 server: {@code run} with the collector (dumps in S3) and uploads (into a symbols
 * directory). Raw sockets announce huge bodies and trickle bytes, hundreds of connections wait,
 * uploads of one module race in one scope, and keys conflict; every bound is generous for a
 * loaded 2-core machine (seconds), while today's main took the 30 s idle timeout or answered 500.
 */
class HostileClientsIT {
  static final String ACME = "hostile-acme-key";
  static final String OTHER = "hostile-other-key";
  static final String ACME_TOO = "hostile-acme-second-key";
  static final String BUCKET = "hostile-dumps";
  static final int IN_FLIGHT = 4;

  /** What every bounded answer must take less than, on a loaded machine. */
  static final Duration BOUND = Duration.ofSeconds(5);

  @TempDir static Path state;
  @TempDir static Path s3Dir;
  @TempDir static Path symbols;
  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  private static SymbolicatorApp app;
  private static URI base;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
    s3 = EmbeddedS3.startOnDirectory(s3Dir);
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(BUCKET));
    }
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", "hostile")
            .set("state.dir", state.toString())
            .set("topics.partitions", "1")
            .set("streams.commit.interval.ms", "100")
            .set("loader.warmup", "false")
            .set("http.enabled", "true")
            .set("http.port", "0")
            // a short grace and idle timeout make slow clients cost seconds, not half minutes
            .set("http.body.timeout.ms", "2000")
            .set("collector.enabled", "true")
            .set("collector.s3.bucket", BUCKET)
            .set("collector.max.in.flight", String.valueOf(IN_FLIGHT))
            .set("collector.max.body.bytes", String.valueOf(1 << 20))
            // a report is answered within 1 s of its dump being stored, acknowledged or not
            .set("collector.send.wait.ms", "1000")
            .set("upload.enabled", "true")
            .set("upload.max.requests.in.flight", "40")
            .set("symbols.dir", symbols.toString())
            .set(
                "api.keys",
                ApiKeys.hash(ACME)
                    + "=acme:submit+upload,"
                    + ApiKeys.hash(ACME_TOO)
                    + "=acme:submit,"
                    + ApiKeys.hash(OTHER)
                    + "=other:submit")
            .set("symbols.s3.endpoint", s3.endpoint().toString())
            .set("symbols.s3.path-style", "true")
            .set("symbols.fetch.timeout.ms", "5000");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, "hostile." + t);
    }
    app = SymbolicatorApp.start(cfg);
    base = app.api().server().uri();
    // warm up (the producer's first metadata, the S3 client): not what the tests measure
    try {
      HttpResponse<String> r =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .build()
              .send(
                  HttpRequest.newBuilder(base.resolve("/submit"))
                      .header("Content-Type", MultipartBody.contentType())
                      .timeout(Duration.ofSeconds(60))
                      .POST(HttpRequest.BodyPublishers.ofByteArray(report()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("the warm-up report failed", e);
    }
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    if (s3 != null) {
      s3.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  // ---- raw HTTP/1.1 over sockets ----

  /** A connection that sent {@code head} (and maybe some body) and keeps its socket open. */
  static Socket open(String head, byte[] bodyStart) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), base.getPort()), 5000);
    s.setSoTimeout((int) BOUND.toMillis() * 2);
    OutputStream o = s.getOutputStream();
    o.write(head.getBytes(StandardCharsets.ISO_8859_1));
    if (bodyStart != null) {
      o.write(bodyStart);
    }
    o.flush();
    return s;
  }

  static String submitHead(long contentLength, String query, String... headers) {
    StringBuilder b =
        new StringBuilder("POST /submit" + (query == null ? "" : "?" + query) + " HTTP/1.1\r\n");
    b.append("Host: localhost\r\n");
    b.append("Content-Type: ").append(MultipartBody.contentType()).append("\r\n");
    b.append("Content-Length: ").append(contentLength).append("\r\n");
    for (int i = 0; i < headers.length; i += 2) {
      b.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
    }
    return b.append("\r\n").toString();
  }

  /** The status line's code of the answer on {@code s}, or -1 when it closed without one. */
  static int status(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try {
      for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
        line.write(c);
      }
    } catch (SocketException reset) {
      return -1; // closed with unread data: reset
    }
    String l = line.toString(StandardCharsets.ISO_8859_1);
    return l.startsWith("HTTP/1.1 ") ? Integer.parseInt(l.substring(9, 12)) : -1;
  }

  static byte[] report(String... fields) {
    MultipartBody m = new MultipartBody();
    for (int i = 0; i < fields.length; i += 2) {
      m.field(fields[i], fields[i + 1]);
    }
    byte[] dump = new byte[4096];
    new Random(43).nextBytes(dump);
    return m.field("ProductName", "Hostile")
        .field("Version", "1")
        .file(CollectorService.MAIN_DUMP, "x.dmp", dump)
        .build();
  }

  HttpResponse<String> submit(String query, byte[] body, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve("/submit" + (query == null ? "" : "?" + query)))
            .header("Content-Type", MultipartBody.contentType())
            .timeout(BOUND.multipliedBy(2))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Runs {@code call} and asserts it finishes within {@link #BOUND}. */
  static <T> T within(String what, Callable<T> call) throws Exception {
    long t0 = System.nanoTime();
    T v = call.call();
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(took).as(what + " took " + took.toMillis() + " ms").isLessThan(BOUND);
    return v;
  }

  // ---- finding 1: slots held for free ----

  @Test
  void anOverLimitAnnouncedLengthIsRefusedAtOnceAndHoldsNoSlot() throws Exception {
    List<Socket> held = new ArrayList<>();
    try {
      // more senders than slots, each announcing ~1 TB and sending a few bytes
      for (int i = 0; i < 4 * IN_FLIGHT; i++) {
        Socket s = open(submitHead(999_999_999_999L, null), "--xx".getBytes());
        held.add(s);
        assertThat(within("the 413 of sender " + i, () -> status(s))).isEqualTo(413);
      }
      // while all those sockets stay open, a real report goes through
      HttpResponse<String> r = within("a real report", () -> submit(null, report()));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).startsWith("CrashID=bp-");
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void aChunkedBodyIsRefusedOncePastTheLimit() throws Exception {
    try (Socket s =
        open(
            "POST /submit HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                + MultipartBody.contentType()
                + "\r\nTransfer-Encoding: chunked\r\n\r\n",
            null)) {
      OutputStream o = s.getOutputStream();
      // a report whose dump goes on and on: 2 MiB in chunks against the 1 MiB body limit
      byte[] opening =
          ("--"
                  + MultipartBody.BOUNDARY
                  + "\r\nContent-Disposition: form-data; name=\""
                  + CollectorService.MAIN_DUMP
                  + "\"; filename=\"x.dmp\"\r\nContent-Type: application/octet-stream\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      byte[] chunk = new byte[64 << 10];
      try {
        o.write((Integer.toHexString(opening.length) + "\r\n").getBytes());
        o.write(opening);
        o.write("\r\n".getBytes());
        for (int i = 0; i < 32; i++) {
          o.write((Integer.toHexString(chunk.length) + "\r\n").getBytes());
          o.write(chunk);
          o.write("\r\n".getBytes());
        }
        o.flush();
      } catch (IOException closed) {
        // refused before the rest was sent
      }
      int code = within("the chunked refusal", () -> status(s));
      assertThat(code).isIn(413, -1);
    }
    HttpResponse<String> r = within("a real report after it", () -> submit(null, report()));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  // ---- finding 2: threads (and slots) held by slow senders ----

  @Test
  void manySlowConnectionsLeaveHealthAndRealReportsAnswering() throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      byte[] body = report();
      for (int i = 0; i < 250; i++) {
        // half announce far too much and trickle, half announce a report and send nothing
        Socket s =
            i % 2 == 0
                ? open(submitHead(999_999_999_999L, null), new byte[] {'-'})
                : open(submitHead(body.length, null), null);
        slow.add(s);
      }
      for (int round = 0; round < 3; round++) {
        HttpResponse<String> h =
            within(
                "/health",
                () ->
                    http.send(
                        HttpRequest.newBuilder(base.resolve("/health"))
                            .timeout(BOUND.multipliedBy(2))
                            .build(),
                        HttpResponse.BodyHandlers.ofString()));
        assertThat(h.statusCode()).as(h.body()).isIn(200, 503);
        HttpResponse<String> r = within("a real report", () -> submit(null, body));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      }
      // the silent ones are cut off (408) once the body grace is over
      for (int i = 1; i < 20; i += 2) {
        Socket s = slow.get(i);
        assertThat(within("the 408 of a silent sender", () -> status(s))).isIn(408, -1);
      }
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void bodiesThatStallGiveTheirSlotsBack() throws Exception {
    byte[] body = report();
    List<Socket> stalled = new ArrayList<>();
    try {
      // more stalled reports than slots: each sent its first bytes, then nothing
      for (int i = 0; i < IN_FLIGHT + 2; i++) {
        stalled.add(open(submitHead(body.length, null), Arrays.copyOf(body, 200)));
      }
      // a real client retries after a 503 (Retry-After); within the grace and a little more
      // it gets through, instead of after the 30 s idle timeout
      HttpResponse<String> r =
          within(
              "a real report behind stalled ones",
              () -> {
                HttpResponse<String> last;
                do {
                  last = submit(null, body);
                  if (last.statusCode() == 503) {
                    Thread.sleep(250);
                  }
                } while (last.statusCode() == 503);
                return last;
              });
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      for (Socket s : stalled) {
        assertThat(status(s)).isIn(408, 503, -1);
      }
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
  }

  // ---- finding 5: conflicting keys ----

  @Test
  void everyKeyARequestCarriesMustBeValidAndNameOneScope() throws Exception {
    Map<String, String[]> channels =
        Map.of(
            "header", new String[] {"Authorization", "APIKey %s"},
            "api_key", new String[] {"?", "api_key=%s"},
            "sentry_key", new String[] {"?", "sentry_key=%s"},
            "field", new String[] {"field", "%s"});
    List<String> names = List.copyOf(channels.keySet());
    for (String a : names) {
      // a wrong key alone
      assertRefused(send(Map.of(a, "wrong-key")), "forbidden", a + " wrong");
      for (String b : names) {
        if (a.compareTo(b) >= 0) {
          continue;
        }
        String pair = a + " + " + b;
        assertRefused(send(Map.of(a, ACME, b, "wrong-key")), "forbidden", pair + ": b wrong");
        assertRefused(send(Map.of(a, "wrong-key", b, ACME)), "forbidden", pair + ": a wrong");
        assertRefused(send(Map.of(a, ACME, b, OTHER)), "conflicting_keys", pair + ": two scopes");
        HttpResponse<String> ok = send(Map.of(a, ACME, b, ACME_TOO));
        assertThat(ok.statusCode()).as(pair + " one scope: " + ok.body()).isEqualTo(200);
      }
    }
  }

  private HttpResponse<String> send(Map<String, String> keys) throws Exception {
    List<String> query = new ArrayList<>();
    List<String> headers = new ArrayList<>();
    List<String> fields = new ArrayList<>();
    for (Map.Entry<String, String> e : keys.entrySet()) {
      switch (e.getKey()) {
        case "header" -> {
          headers.add("Authorization");
          headers.add("APIKey " + e.getValue());
        }
        case "api_key" -> query.add("api_key=" + e.getValue());
        case "sentry_key" -> query.add("sentry_key=" + e.getValue());
        default -> {
          fields.add("api_key");
          fields.add(e.getValue());
        }
      }
    }
    return submit(
        query.isEmpty() ? null : String.join("&", query),
        report(fields.toArray(String[]::new)),
        headers.toArray(String[]::new));
  }

  private static void assertRefused(HttpResponse<String> r, String code, String what) {
    assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(403);
    assertThat(r.body()).as(what).startsWith("Discarded=" + code + "\n");
  }

  // ---- findings 3 and 4: concurrent uploads, and what failures leave ----

  static final String DEBUG_ID = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";

  static byte[] sym() {
    return ("MODULE Linux x86_64 "
            + DEBUG_ID
            + " hostile\nFILE 0 hostile.c\nFUNC 1000 10 0 main\n1000 10 1 0\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  HttpResponse<String> upload(byte[] body, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve("/api/symbols-breakpad"))
            .header("Authorization", "APIKey " + ACME)
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Parts (and folders) left in the staging area; the marks of stored files may stay. */
  static List<String> staged() throws IOException {
    Path staging = symbols.resolve("upload-staging");
    if (!Files.isDirectory(staging)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(staging)) {
      return s.filter(p -> !p.equals(staging))
          .filter(p -> Files.isDirectory(p) ? !p.getParent().equals(staging) : true)
          .map(p -> staging.relativize(p).toString())
          .filter(k -> !k.endsWith(".assembled"))
          .toList();
    }
  }

  @Test
  void concurrentUploadsOfOneModuleInOneScopeNeverFailAndLeaveNoParts() throws Exception {
    byte[] sym = sym();
    ExecutorService pool = Executors.newFixedThreadPool(20);
    try {
      List<Future<HttpResponse<String>>> single = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        single.add(pool.submit(() -> upload(sym)));
      }
      // ten clients sending both parts of one upload at once
      int half = sym.length / 2;
      byte[] p0 = Arrays.copyOfRange(sym, 0, half);
      byte[] p1 = Arrays.copyOfRange(sym, half, sym.length);
      List<Future<HttpResponse<String>>> parts = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        parts.add(
            pool.submit(
                () -> upload(p0, "UploadID", "same-upload", "FilePart", "0", "FileParts", "2")));
        parts.add(
            pool.submit(
                () -> upload(p1, "UploadID", "same-upload", "FilePart", "1", "FileParts", "2")));
      }
      int ok = 0;
      for (Future<HttpResponse<String>> f : single) {
        HttpResponse<String> r = f.get();
        assertThat(r.statusCode()).as(r.body()).isIn(200, 429);
        ok += r.statusCode() == 200 ? 1 : 0;
      }
      assertThat(ok).as("some single uploads went through").isPositive();
      for (Future<HttpResponse<String>> f : parts) {
        HttpResponse<String> r = f.get();
        assertThat(r.statusCode()).as(r.body()).isIn(200, 429);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(staged()).as("nothing staged after every request answered").isEmpty();
    assertThat(symbols.resolve("scopes/acme/hostile").resolve(DEBUG_ID).resolve("hostile.sym"))
        .exists();
  }

  @Test
  void refusedUploadsLeaveNothingAndDoNotLockTheScopeOut() throws Exception {
    // parts left by refusals would count toward upload.max.files.in.flight until the expiry
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> r = upload("not a symbol file\n".getBytes());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    }
    assertThat(staged()).isEmpty();
    HttpResponse<String> r = upload(sym());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  @Test
  void aZipThatExpandsFarBeyondItsSizeIsRefusedWhileExtracting() throws Exception {
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      z.putNextEntry(new ZipEntry("hostile/" + DEBUG_ID + "/hostile.sym"));
      z.write(sym());
      byte[] line = "PUBLIC 1000 0 padding_padding_padding_padding\n".getBytes();
      byte[] block = new byte[line.length * 20_000];
      for (int i = 0; i < 20_000; i++) {
        System.arraycopy(line, 0, block, i * line.length, line.length);
      }
      for (long written = 0; written < 64L << 20; written += block.length) {
        z.write(block);
      }
      z.closeEntry();
    }
    assertThat(zip.size()).as("a small zip").isLessThan(1 << 20);
    HttpResponse<String> r = upload(zip.toByteArray());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
    assertThat(r.body()).contains("upload.max.expansion.ratio");
    assertThat(staged()).isEmpty();
  }

  // ---- the bench's "uploads with no answer" ----

  /** The status line and headers of the answer on {@code s}, lower-cased, then its body skipped. */
  static String answerHead(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      head.write(c);
    }
    String h = head.toString(StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    Matcher m = Pattern.compile("content-length: (\\d+)").matcher(h);
    if (m.find()) {
      in.readNBytes(Integer.parseInt(m.group(1)));
    }
    return h;
  }

  static String uploadHead(String key, int length) {
    return "POST /api/symbols-breakpad HTTP/1.1\r\nHost: localhost\r\nAuthorization: APIKey "
        + key
        + "\r\nContent-Length: "
        + length
        + "\r\n\r\n";
  }

  @Test
  void anUploadRefusedBeforeItsBodyArrivedSaysTheConnectionCloses() throws Exception {
    // refused (403) before the body was read, the body not sent within the server's wait: the
    // server closes the connection after the answer, which must say so, or a client that reuses
    // the connection gets no answer at all for its next request
    try (Socket s = open(uploadHead("no-such-key", 20_000), null)) {
      String head = within("the 403", () -> answerHead(s));
      assertThat(head).startsWith("http/1.1 403").contains("connection: close");
      assertThat(within("the close", () -> s.getInputStream().read())).isEqualTo(-1);
    }
  }

  @Test
  void anUploadRefusedWhileItsSmallBodyIsOnItsWayIsAnsweredAfterItAndKeepsTheConnection()
      throws Exception {
    // what the bench's uploads met: refused (here 403, there 429) while the client was still
    // writing its body; the server closed at once, the kernel reset the connection under the
    // client's last write, and the JDK client never read the answer ("no answer")
    byte[] body = new byte[20_000];
    Arrays.fill(body, (byte) 'x');
    try (Socket s = open(uploadHead("no-such-key", body.length), Arrays.copyOf(body, 100))) {
      Thread.sleep(200); // the refusal is decided while the rest is on its way
      OutputStream o = s.getOutputStream();
      o.write(body, 100, body.length - 100);
      o.flush();
      String head = within("the 403", () -> answerHead(s));
      assertThat(head).startsWith("http/1.1 403").doesNotContain("connection: close");
      o.write(
          "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      o.flush();
      assertThat(within("the next answer", () -> answerHead(s))).startsWith("http/1.1 200");
    }
  }

  @Test
  void anUploadRefusedAfterItsWholeBodyArrivedKeepsTheConnection() throws Exception {
    byte[] body = new byte[1000];
    Arrays.fill(body, (byte) 'x');
    try (Socket s = open(uploadHead("no-such-key", body.length), body)) {
      String head = within("the 403", () -> answerHead(s));
      assertThat(head).startsWith("http/1.1 403").doesNotContain("connection: close");
      // the same connection answers the next request
      OutputStream o = s.getOutputStream();
      o.write(
          "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      o.flush();
      assertThat(within("the next answer", () -> answerHead(s))).startsWith("http/1.1 200");
    }
  }
}

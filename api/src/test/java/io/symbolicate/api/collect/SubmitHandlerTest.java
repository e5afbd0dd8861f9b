package io.symbolicate.api.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.ApiServer;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.api.server.ServerLimits;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.serde.WireSerdes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /submit} on the real server over an in-memory store and event sink: what is
 * accepted becomes a stored dump and then an event that names it; every hostile body gets its
 * documented status and code and leaves nothing in the store.
 */
class SubmitHandlerTest {
  static final String KEY = "collector-test-key";
  static final String MAIN = CollectorService.MAIN_DUMP;

  final AtomicLong clock = new AtomicLong(1_795_000_000_000L); // 2026-11-18
  final MemoryDumpStore store = new MemoryDumpStore(clock::get);
  final List<Map.Entry<String, byte[]>> sent = new CopyOnWriteArrayList<>();
  final AtomicReference<String> brokerDown = new AtomicReference<>();
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  ApiServer server;
  CollectorService service;

  final EventSink sink =
      (key, value) -> {
        if (brokerDown.get() != null) {
          return CompletableFuture.failedFuture(new IOException(brokerDown.get()));
        }
        sent.add(Map.entry(key, value));
        return CompletableFuture.completedFuture(null);
      };

  URI start(CollectorLimits limits, SubmitKeys keys) throws IOException {
    service = new CollectorService(store, "dumps/", sink, limits, clock::get);
    server =
        ApiServer.start(
            ApiSettings.defaults().withPort(0),
            RouteTable.builder().add(Route.SUBMIT, new SubmitHandler(service, keys)).build());
    return server.uri().resolve(Route.SUBMIT.path());
  }

  URI start() throws IOException {
    return start(CollectorLimits.defaults(), new SubmitKeys(ApiKeys.none(), false));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  HttpResponse<String> post(URI uri, byte[] body, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (headers.length == 0) {
      b.header("Content-Type", MultipartBody.contentType());
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Without Content-Length (chunked), as Crashpad sends. */
  HttpResponse<String> postChunked(URI uri, InputStream body, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> body))
            .header("Content-Type", MultipartBody.contentType());
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static void assertRefused(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.body()).startsWith("Discarded=" + code + "\n");
    assertThat(r.body().split("\n")).as("a reason on the second line").hasSize(2);
    assertThat(r.body().split("\n")[1]).isNotBlank();
  }

  static String crashId(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(r.body()).startsWith("CrashID=bp-").endsWith("\n");
    String id = r.body().substring("CrashID=bp-".length()).strip();
    assertThat(id).matches(CrashIds.FORMAT);
    return id;
  }

  static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  CrashEvent onlyEvent() {
    assertThat(sent).hasSize(1);
    return WireSerdes.crashEvent().deserializer().deserialize("raw", sent.get(0).getValue());
  }

  byte[] dump(int n) {
    byte[] d = new byte[n];
    new Random(n).nextBytes(d);
    d[0] = 'M';
    d[1] = 'D';
    d[2] = 'M';
    d[3] = 'P';
    return d;
  }

  @Test
  void aReportBecomesStoredDumpsAndThenAnEventThatNamesThem() throws Exception {
    URI uri = start();
    byte[] main = dump(50_000);
    byte[] browser = dump(7_000);
    byte[] body =
        new MultipartBody()
            .field("ProductName", "Firefox")
            .field("Version", "120.0.1")
            .field("ReleaseChannel", "release")
            .field("BuildID", "20231201000000")
            .file(MAIN, "a.dmp", main)
            .file("upload_file_minidump_browser", "b.dmp", browser)
            .build();
    String id = crashId(post(uri, body));
    assertThat(id).endsWith("0261118"); // accepted, 2026-11-18 (UTC) as yymmdd
    String mainKey = "dumps/2026-11-18/" + id + "/" + MAIN + ".dmp";
    String browserKey = "dumps/2026-11-18/" + id + "/upload_file_minidump_browser.dmp";
    assertThat(store.objects.keySet())
        .as("the dumps stay; the pending marker is gone once acknowledged")
        .containsExactlyInAnyOrder(mainKey, browserKey);
    assertThat(store.objects.get(mainKey).bytes()).isEqualTo(main);

    assertThat(sent.get(0).getKey()).isEqualTo(id);
    CrashEvent e = onlyEvent();
    assertThat(e.getEventId()).isEqualTo(id);
    assertThat(e.getPlatform()).isEqualTo(Platform.native$);
    assertThat(e.getScope()).isEqualTo("global");
    assertThat(e.getRelease()).isEqualTo("Firefox@120.0.1");
    assertThat(e.getReceivedAt().toEpochMilli()).isEqualTo(clock.get());
    assertThat(e.getNative$().getMinidump().getBucket()).isEqualTo("dumps");
    assertThat(e.getNative$().getMinidump().getKey()).isEqualTo(mainKey);
    assertThat(e.getNative$().getMinidump().getSize()).isEqualTo(main.length);
    assertThat(e.getNative$().getMinidump().getSha256()).isEqualTo(sha256(main));
    assertThat(e.getNative$().getMinidump().getData()).isNull();
    assertThat(e.getNative$().getThreads()).isEmpty();
    Map<String, String> a = e.getAttributes();
    assertThat(a)
        .containsEntry("ReleaseChannel", "release")
        .containsEntry("BuildID", "20231201000000")
        .containsEntry("collector.dumps", MAIN + ",upload_file_minidump_browser")
        .containsEntry("collector.dump.upload_file_minidump_browser.key", browserKey)
        .containsEntry("collector.dump.upload_file_minidump_browser.bucket", "dumps")
        .containsEntry("collector.dump.upload_file_minidump_browser.size", "7000")
        .containsEntry("collector.dump.upload_file_minidump_browser.sha256", sha256(browser));
    assertThat(a.keySet()).noneMatch(k -> k.startsWith("collector.dump." + MAIN + "."));
  }

  @Test
  void breakpadsFieldNamesGzipBodiesAndChunkedUploadsAreTaken() throws Exception {
    URI uri = start();
    byte[] main = dump(300_000);
    byte[] body =
        new MultipartBody()
            .field("prod", "TestProd")
            .field("ver", "1.2.3")
            .file(MAIN, "x.dmp", main)
            .build();
    crashId(
        post(
            uri,
            MultipartBody.gzip(body),
            "Content-Type",
            MultipartBody.contentType(),
            "Content-Encoding",
            "gzip"));
    assertThat(onlyEvent().getRelease()).isEqualTo("TestProd@1.2.3");
    sent.clear();
    crashId(
        postChunked(
            uri, new ByteArrayInputStream(MultipartBody.gzip(body)), "Content-Encoding", "gzip"));
    CrashEvent e = onlyEvent();
    assertThat(e.getNative$().getMinidump().getSha256()).isEqualTo(sha256(main));
    sent.clear();
    // Socorro's annotations as one JSON field; no release without a version
    byte[] json =
        new MultipartBody()
            .json("extra", "{\"ProductName\":\"Firefox\",\"Count\":3,\"Nested\":{\"a\":1}}")
            .file(MAIN, "x.dmp", main)
            .build();
    crashId(post(uri, json));
    e = onlyEvent();
    assertThat(e.getRelease()).isNull();
    assertThat(e.getAttributes())
        .containsEntry("ProductName", "Firefox")
        .containsEntry("Count", "3")
        .containsEntry("Nested", "{\"a\":1}");
  }

  @Test
  void requestsThatAreNotCrashReportsAreRefused() throws Exception {
    URI uri = start();
    byte[] body =
        new MultipartBody().field("ProductName", "P").file(MAIN, "x.dmp", dump(1000)).build();
    assertRefused(post(uri, body, "X-Nothing", "1"), 400, "no_content_type");
    assertRefused(post(uri, body, "Content-Type", "application/json"), 400, "wrong_content_type");
    assertRefused(post(uri, body, "Content-Type", "multipart/form-data"), 400, "no_boundary");
    assertRefused(
        post(uri, body, "Content-Type", "multipart/form-data; boundary=not-the-one"),
        400,
        "malformed_multipart");
    assertRefused(
        post(uri, body, "Content-Type", MultipartBody.contentType(), "Content-Encoding", "br"),
        415,
        "unsupported_encoding");
    assertRefused(
        post(uri, new MultipartBody().field("ProductName", "P").build()), 400, "no_minidump");
    assertRefused(
        post(
            uri,
            new MultipartBody().file("upload_file_minidump_browser", "b.dmp", dump(10)).build()),
        400,
        "no_minidump");
    assertRefused(
        post(uri, new MultipartBody().file(MAIN, "x.dmp", new byte[0]).build()), 400, "empty_dump");
    assertRefused(
        post(uri, new MultipartBody().file("../../etc", "x.dmp", dump(10)).build()),
        400,
        "bad_dump_name");
    assertRefused(
        post(uri, new MultipartBody().file(MAIN, "x", dump(10)).file(MAIN, "y", dump(10)).build()),
        400,
        "duplicate_dump");
    assertRefused(
        post(
            uri,
            new MultipartBody().field("collector.dumps", "x").file(MAIN, "x", dump(10)).build()),
        400,
        "bad_field_name");
    assertRefused(
        post(
            uri,
            new MultipartBody()
                .field("a", "1")
                .json("extra", "{}")
                .file(MAIN, "x", dump(10))
                .build()),
        400,
        "has_json_and_kv");
    assertRefused(
        post(uri, new MultipartBody().json("extra", "[1]").file(MAIN, "x", dump(10)).build()),
        400,
        "malformed_extra");
    byte[] truncated =
        new MultipartBody()
            .field("ProductName", "P")
            .file(MAIN, "x.dmp", dump(100_000))
            .unterminated();
    assertRefused(post(uri, truncated), 400, "truncated");
    HttpResponse<String> get =
        http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(store.objects).as("nothing of a refused report stays").isEmpty();
    assertThat(sent).isEmpty();
  }

  @Test
  void limitsAreEnforcedWithTheirReasons() throws Exception {
    CollectorLimits l =
        CollectorLimits.defaults()
            .withSizes(400_000, 1_000_000, 300_000)
            .withCounts(2, 3, 100, 250);
    URI uri = start(l, new SubmitKeys(ApiKeys.none(), false));
    assertRefused(
        post(
            uri,
            new MultipartBody().field("big", "x".repeat(101)).file(MAIN, "x", dump(10)).build()),
        413,
        "field_too_large");
    assertRefused(
        post(
            uri,
            new MultipartBody()
                .field("a", "1")
                .field("b", "2")
                .field("c", "3")
                .field("d", "4")
                .file(MAIN, "x", dump(10))
                .build()),
        413,
        "too_many_fields");
    assertRefused(
        post(
            uri,
            new MultipartBody()
                .field("a", "x".repeat(100))
                .field("b", "x".repeat(100))
                .field("c", "x".repeat(100))
                .file(MAIN, "x", dump(10))
                .build()),
        413,
        "annotations_too_large");
    assertRefused(
        post(
            uri,
            new MultipartBody()
                .file(MAIN, "x", dump(10))
                .file("upload_file_minidump_a", "a", dump(10))
                .file("upload_file_minidump_b", "b", dump(10))
                .build()),
        413,
        "too_many_dumps");
    assertRefused(
        post(uri, new MultipartBody().file(MAIN, "x", dump(300_001)).build()),
        413,
        "dump_too_large");
    byte[] big =
        new MultipartBody()
            .file(MAIN, "x", dump(250_000))
            .file("upload_file_minidump_a", "a", dump(250_000))
            .build();
    assertRefused(post(uri, big), 413, "body_too_large"); // by its Content-Length, before reading
    assertRefused(
        postChunked(uri, new ByteArrayInputStream(big)), 413, "body_too_large"); // as it arrives
    assertThat(store.objects).isEmpty();
    assertThat(sent).isEmpty();
  }

  @Test
  void gzipBombsAndBadGzipAreRefused() throws Exception {
    CollectorLimits l = CollectorLimits.defaults().withSizes(1 << 20, 4 << 20, 8 << 20);
    URI uri = start(l, new SubmitKeys(ApiKeys.none(), false));
    // 64 MB of zeros in a dump: about 64 KB compressed, 16 times the decompressed limit
    ByteArrayOutputStream bomb = new ByteArrayOutputStream();
    try (GZIPOutputStream g = new GZIPOutputStream(bomb)) {
      g.write(new MultipartBody().field("ProductName", "P").unterminated());
      g.write(
          ("--"
                  + MultipartBody.BOUNDARY
                  + "\r\nContent-Disposition: form-data; name=\""
                  + MAIN
                  + "\"; filename=\"x\"\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 64; i++) {
        g.write(zeros);
      }
    }
    assertThat(bomb.size()).isLessThan(1 << 20);
    assertRefused(
        post(
            uri,
            bomb.toByteArray(),
            "Content-Type",
            MultipartBody.contentType(),
            "Content-Encoding",
            "gzip"),
        413,
        "decompressed_too_large");
    byte[] body = new MultipartBody().file(MAIN, "x", dump(1000)).build();
    assertRefused(
        post(uri, body, "Content-Type", MultipartBody.contentType(), "Content-Encoding", "gzip"),
        400,
        "bad_gzip");
    byte[] gz = MultipartBody.gzip(new MultipartBody().file(MAIN, "x", dump(100_000)).build());
    byte[] cut = Arrays.copyOf(gz, gz.length / 2);
    assertRefused(
        post(uri, cut, "Content-Type", MultipartBody.contentType(), "Content-Encoding", "gzip"),
        400,
        "bad_gzip");
    byte[] flipped = gz.clone();
    flipped[gz.length / 2] ^= 0x55;
    flipped[gz.length / 2 + 1] ^= 0x55;
    HttpResponse<String> r =
        post(uri, flipped, "Content-Type", MultipartBody.contentType(), "Content-Encoding", "gzip");
    assertThat(r.statusCode())
        .as(r.body())
        .isEqualTo(400); // corrupt data or a bad CRC; either way bad_gzip
    assertThat(r.body()).startsWith("Discarded=bad_gzip\n");
    assertThat(store.objects).isEmpty();
  }

  @Test
  void keysGiveTheirScopeFromAHeaderTheQueryOrAFieldBeforeTheDumps() throws Exception {
    ApiKeys keys =
        ApiKeys.parse(
            ApiKeys.hash(KEY) + "=acme:submit," + ApiKeys.hash("upload-only") + "=acme:upload");
    URI uri = start(CollectorLimits.defaults(), new SubmitKeys(keys, true));
    byte[] body = new MultipartBody().field("ProductName", "P").file(MAIN, "x", dump(100)).build();
    assertRefused(post(uri, body), 401, "unauthorized");
    assertRefused(post(URI.create(uri + "?api_key=wrong"), body), 403, "forbidden");
    assertRefused(post(URI.create(uri + "?api_key=upload-only"), body), 403, "forbidden");
    // a required key after a dump: refused before the dump is stored
    assertRefused(
        post(uri, new MultipartBody().file(MAIN, "x", dump(100)).field("api_key", KEY).build()),
        401,
        "unauthorized");
    assertThat(store.objects).isEmpty();

    crashId(
        post(
            uri,
            body,
            "Content-Type",
            MultipartBody.contentType(),
            "Authorization",
            "APIKey " + KEY));
    crashId(post(URI.create(uri + "?api_key=" + KEY), body));
    crashId(post(URI.create(uri + "?sentry_key=" + KEY), body));
    crashId(
        post(
            uri,
            new MultipartBody()
                .field("api_key", KEY)
                .field("ProductName", "P")
                .file(MAIN, "x", dump(100))
                .build()));
    assertThat(sent).hasSize(4);
    for (var s : sent) {
      CrashEvent e = WireSerdes.crashEvent().deserializer().deserialize("raw", s.getValue());
      assertThat(e.getScope()).isEqualTo("acme");
      assertThat(e.getAttributes())
          .as("the key is never kept")
          .doesNotContainKey("api_key")
          .doesNotContainValue(KEY);
    }
  }

  @Test
  void withKeysOptionalAReportWithoutOneGoesToTheGlobalScope() throws Exception {
    ApiKeys keys = ApiKeys.parse(ApiKeys.hash(KEY) + "=acme:submit");
    URI uri = start(CollectorLimits.defaults(), new SubmitKeys(keys, false));
    byte[] body = new MultipartBody().file(MAIN, "x", dump(100)).field("api_key", KEY).build();
    crashId(post(uri, body)); // optional: a key after the dumps still names the scope
    crashId(post(uri, new MultipartBody().file(MAIN, "x", dump(100)).build()));
    assertRefused(
        post(
            URI.create(uri + "?api_key=wrong"),
            new MultipartBody().file(MAIN, "x", dump(100)).build()),
        403,
        "forbidden");
    assertThat(sent)
        .extracting(
            s -> WireSerdes.crashEvent().deserializer().deserialize("raw", s.getValue()).getScope())
        .containsExactly("acme", "global");
  }

  @Test
  void aReportOverTheAdmissionLimitGets503WithRetryAfter() throws Exception {
    service =
        new CollectorService(
            store, "dumps/", sink, CollectorLimits.defaults().withInFlight(1), clock::get);
    // this test holds a slot with half a small body on purpose: the handler runs at its first
    // bytes, and the slot's grace is the request's
    SubmitHandler endpoint =
        new SubmitHandler(
            service, new SubmitKeys(ApiKeys.none(), false), Duration.ofSeconds(30), 1);
    server =
        ApiServer.start(
            ApiSettings.defaults().withPort(0),
            RouteTable.builder().add(Route.SUBMIT, endpoint).build());
    URI uri = server.uri().resolve(Route.SUBMIT.path());
    byte[] body = new MultipartBody().field("ProductName", "P").file(MAIN, "x", dump(100)).build();
    int half = body.length / 2;
    try (Socket slow = new Socket(uri.getHost(), uri.getPort())) {
      OutputStream out = slow.getOutputStream();
      // Connection: close, so reading the answer ends with it (not at the idle timeout, 30 s)
      out.write(
          ("POST /submit HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: "
                  + MultipartBody.contentType()
                  + "\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, half);
      out.flush();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (endpoint.inFlight() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(endpoint.inFlight())
          .as("the first report holds its permit while its body trickles")
          .isEqualTo(1);
      HttpResponse<String> second = post(uri, body);
      assertRefused(second, 503, "busy");
      assertThat(second.headers().firstValue("Retry-After")).contains("1");
      assertThat(endpoint.refused()).isEqualTo(1);
      out.write(body, half, body.length - half);
      out.flush();
      String answer = new String(slow.getInputStream().readNBytes(400), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 200").contains("CrashID=bp-");
    }
    // the permit is given back just after the answer is written: a client may ask before that
    long until = System.nanoTime() + 5_000_000_000L;
    while (endpoint.inFlight() > 0 && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    crashId(post(uri, body)); // free again
  }

  @Test
  void silentAndStalledBodiesTakeNoSlotAndGet408AfterTheGrace() throws Exception {
    // one slot: a report goes through while a silent and a stalled body wait (issue 43)
    service =
        new CollectorService(
            store, "dumps/", sink, CollectorLimits.defaults().withInFlight(1), clock::get);
    SubmitHandler endpoint = new SubmitHandler(service, new SubmitKeys(ApiKeys.none(), false));
    server =
        ApiServer.start(
            ApiSettings.defaults().withPort(0),
            RouteTable.builder().add(Route.SUBMIT, endpoint).build(),
            ServerLimits.defaults()
                .withTimeouts(
                    Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(2), 4096));
    URI uri = server.uri().resolve(Route.SUBMIT.path());
    byte[] body = new MultipartBody().field("ProductName", "P").file(MAIN, "x", dump(100)).build();
    String head =
        "POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: "
            + MultipartBody.contentType()
            + "\r\nContent-Length: "
            + body.length
            + "\r\n\r\n";
    try (Socket silent = new Socket(uri.getHost(), uri.getPort());
        Socket stalled = new Socket(uri.getHost(), uri.getPort())) {
      silent.setSoTimeout(10_000);
      stalled.setSoTimeout(10_000);
      silent.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      silent.getOutputStream().flush();
      // the first bytes, then nothing: received on no thread, without a slot
      stalled.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      stalled.getOutputStream().write(body, 0, 50);
      stalled.getOutputStream().flush();
      long t0 = System.nanoTime();
      long until = t0 + 5_000_000_000L;
      while (endpoint.receivingBytes() < 50 && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(endpoint.receivingBytes()).as("the stalled body's bytes, held").isEqualTo(50);
      assertThat(endpoint.inFlight()).as("a body still arriving: no slot").isZero();
      crashId(post(uri, body)); // the one slot is free for a whole report
      String answer =
          new String(stalled.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(answer).as("behind the minimum rate after the grace").isEqualTo("HTTP/1.1 408");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
      String silentAnswer =
          new String(silent.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(silentAnswer).as("nothing within the grace").isEqualTo("HTTP/1.1 408");
    }
    assertThat(endpoint.receivingBytes()).as("the stalled body's bytes given back").isZero();
    assertThat(sent).hasSize(1);
  }

  @Test
  void aBodyThatTricklesPastItsStartGivesItsSlotBackAfterTheSlotsGraceNotTheRequests()
      throws Exception {
    // the server's default grace (10 s); the slot's is 1 s: a report whose first 256 KiB came
    // at once and that then trickles a byte every 200 ms while it holds the only slot is cut off
    // (408) long before the 10 s (issue 43)
    service =
        new CollectorService(
            store, "dumps/", sink, CollectorLimits.defaults().withInFlight(1), clock::get);
    SubmitHandler endpoint = new SubmitHandler(service, new SubmitKeys(ApiKeys.none(), false));
    server =
        ApiServer.start(
            ApiSettings.defaults().withPort(0),
            RouteTable.builder().add(Route.SUBMIT, endpoint).build());
    URI uri = server.uri().resolve(Route.SUBMIT.path());
    byte[] body =
        new MultipartBody()
            .field("ProductName", "P")
            .file(MAIN, "x", dump(SubmitHandler.RECEIVED_FIRST + 4096))
            .build();
    int start = SubmitHandler.RECEIVED_FIRST + 100;
    try (Socket slow = new Socket(uri.getHost(), uri.getPort())) {
      slow.setSoTimeout(8_000); // before the request's 10 s grace
      OutputStream out = slow.getOutputStream();
      out.write(
          ("POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: "
                  + MultipartBody.contentType()
                  + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + Integer.toHexString(start)
                  + "\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, start);
      out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long until = System.nanoTime() + 5_000_000_000L;
      while (endpoint.inFlight() == 0 && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(endpoint.inFlight()).as("its start received: a slot").isEqualTo(1);
      Thread trickle =
          new Thread(
              () -> {
                try {
                  for (int i = start; i < body.length; i++) {
                    out.write(
                        ("1\r\n" + (char) body[i] + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    Thread.sleep(200);
                  }
                } catch (IOException | InterruptedException e) {
                  // the server closed the connection
                }
              });
      trickle.setDaemon(true);
      trickle.start();
      String answer = new String(slow.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(answer).isEqualTo("HTTP/1.1 408");
    }
    long until = System.nanoTime() + 5_000_000_000L;
    while (endpoint.inFlight() > 0 && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    crashId(post(uri, body)); // the slot is free again
    assertThat(sent).hasSize(1);
    assertThat(endpoint.receivingBytes()).isZero();
  }

  @Test
  void anOverLimitAnnouncedLengthIsRefusedBeforeAnyBodyWithoutASlot() throws Exception {
    CollectorLimits l = CollectorLimits.defaults().withSizes(1000, 1000, 1000).withInFlight(1);
    URI uri = start(l, new SubmitKeys(ApiKeys.none(), false));
    try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream()
          .write(
              ("POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      + MultipartBody.contentType()
                      + "\r\nContent-Length: 999999999999\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      long t0 = System.nanoTime();
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 413").contains("Discarded=body_too_large");
      assertThat(answer.toLowerCase(Locale.ROOT)).contains("connection: close");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void aBodySlowerThanTheMinimumRateGets408AndNothingIsStored() throws Exception {
    service = new CollectorService(store, "dumps/", sink, CollectorLimits.defaults(), clock::get);
    server =
        ApiServer.start(
            ApiSettings.defaults().withPort(0),
            RouteTable.builder()
                .add(
                    Route.SUBMIT, new SubmitHandler(service, new SubmitKeys(ApiKeys.none(), false)))
                .build(),
            ServerLimits.defaults()
                .withTimeouts(
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(10),
                    Duration.ofMillis(500),
                    100_000));
    URI uri = server.uri();
    byte[] body =
        new MultipartBody().field("ProductName", "P").file(MAIN, "x", dump(200_000)).build();
    try (Socket slow = new Socket(uri.getHost(), uri.getPort())) {
      slow.setSoTimeout(20_000);
      OutputStream out = slow.getOutputStream();
      out.write(
          ("POST /submit HTTP/1.1\r\nHost: x\r\nContent-Type: "
                  + MultipartBody.contentType()
                  + "\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      // 1 KB/s, far below 100 KB/s after the half-second grace
      Thread trickle =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 100 && i * 100 < body.length; i++) {
                    out.write(body, i * 100, 100);
                    out.flush();
                    Thread.sleep(100);
                  }
                } catch (IOException | InterruptedException e) {
                  // the server closed the connection
                }
              });
      trickle.setDaemon(true);
      trickle.start();
      String answer = new String(slow.getInputStream().readNBytes(200), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 408");
    }
    assertThat(store.objects).isEmpty();
    assertThat(sent).isEmpty();
  }

  @Test
  void aStoreThatFailsIsA503AndNothingIsSent() throws Exception {
    URI uri = start();
    store.failing = true;
    HttpResponse<String> r = post(uri, new MultipartBody().file(MAIN, "x", dump(100)).build());
    assertRefused(r, 503, "storage_unavailable");
    assertThat(r.headers().firstValue("Retry-After")).isPresent();
    assertThat(sent).isEmpty();
  }

  @Test
  void anEventTheBrokerDidNotTakeStaysPendingAndTheSweeperSendsIt() throws Exception {
    CollectorLimits l =
        CollectorLimits.defaults()
            .withTimes(Duration.ofMillis(200), Duration.ofMinutes(5), Duration.ofMinutes(1));
    URI uri = start(l, new SubmitKeys(ApiKeys.none(), false));
    brokerDown.set("broker unreachable");
    String id =
        crashId(
            post(
                uri,
                new MultipartBody().field("ProductName", "P").file(MAIN, "x", dump(100)).build()));
    assertThat(sent).isEmpty();
    assertThat(store.objects.keySet())
        .as("the dump, and the pending marker of its event")
        .containsExactlyInAnyOrder(
            "dumps/pending/" + id, "dumps/2026-11-18/" + id + "/" + MAIN + ".dmp");

    assertThat(service.sweep(clock.get() + 60_000)).as("not old enough yet").isZero();
    assertThat(service.sweep(clock.get() + 600_000)).as("the broker is still down").isZero();
    assertThat(store.objects).containsKey("dumps/pending/" + id);
    brokerDown.set(null);
    assertThat(service.sweep(clock.get() + 600_000)).isEqualTo(1);
    assertThat(store.objects.keySet())
        .containsExactly("dumps/2026-11-18/" + id + "/" + MAIN + ".dmp");
    CrashEvent e = onlyEvent();
    assertThat(sent.get(0).getKey()).isEqualTo(id);
    assertThat(e.getEventId()).isEqualTo(id);
    assertThat(e.getNative$().getMinidump().getKey()).endsWith(id + "/" + MAIN + ".dmp");
    assertThat(service.sweep(clock.get() + 600_000)).as("sent once").isZero();
  }
}

package io.symbolicate.api.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our handler contract on Jetty, HTTP/2, TLS, and the limits for slow clients. */
class JettyServerTest {
  /** Short limits so the tests wait seconds: 1 s header timeout, 1 s body grace, 1 KiB/s. */
  private static final ServerLimits FAST =
      ServerLimits.defaults()
          .withTimeouts(Duration.ofSeconds(20), Duration.ofSeconds(1), Duration.ofSeconds(1), 1024);

  /** Echoes method, path, query and a header; answers with a fixed length, chunked, or no body. */
  private static final Handler ECHO =
      (request, response) -> {
        byte[] in = request.body().readAllBytes();
        String text =
            request.method()
                + " "
                + request.rawPath()
                + (request.rawQuery() == null ? "" : "?" + request.rawQuery())
                + " "
                + request.header("x-test")
                + " "
                + in.length;
        byte[] out = text.getBytes(StandardCharsets.UTF_8);
        response.header("X-Answer", "yes");
        String mode = request.rawQuery();
        if ("none".equals(mode)) {
          response.start(204, 0);
        } else if ("chunked".equals(mode)) {
          try (OutputStream o = response.start(200, -1)) {
            o.write(out);
          }
        } else {
          try (OutputStream o = response.start(200, out.length)) {
            o.write(out);
          }
        }
      };

  /** A handler whose body the server receives first, against a budget counted here. */
  private static final class Whole
      implements Handler, ReadsWholeBody, ReadsWholeBody.ReceiveBudget {
    final AtomicLong held = new AtomicLong();
    final AtomicLong budget;
    final AtomicInteger calls = new AtomicInteger();

    Whole(long budget) {
      this.budget = new AtomicLong(budget);
    }

    @Override
    public void handle(Request request, Response response) throws IOException {
      calls.incrementAndGet();
      ECHO.handle(request, response);
    }

    @Override
    public long maxBodyBytes() {
      return 1 << 20;
    }

    @Override
    public int retryAfterSeconds() {
      return 3;
    }

    @Override
    public ReceiveBudget receiveBudget() {
      return this;
    }

    @Override
    public boolean tryClaim(long heldNow, long more) {
      if (held.get() + more > budget.get()) {
        return false;
      }
      held.addAndGet(more);
      return true;
    }

    @Override
    public void giveBack(long bytes) {
      held.addAndGet(-bytes);
    }
  }

  private static JettyServer start(ServerLimits limits, RouteTable routes) throws IOException {
    return JettyServer.start("test", "127.0.0.1", 0, limits, routes);
  }

  /**
   * The echo at {@code /metrics} and under {@code /api/signatures/}, {@code whole} at {@code
   * /symbolicate/v5} (any handler may serve any route).
   */
  private static RouteTable routes(Handler whole) {
    return RouteTable.builder()
        .add(Route.METRICS, ECHO)
        .add(Route.SIGNATURE, ECHO)
        .add(Route.SYMBOLICATE_V5, whole)
        .build();
  }

  @Test
  void handlersRunWithKeepAlive() throws Exception {
    try (JettyServer s = start(FAST, routes(new Whole(1 << 20)));
        Socket c = new Socket("127.0.0.1", s.port())) {
      c.setSoTimeout(5000);
      OutputStream out = c.getOutputStream();
      InputStream in = c.getInputStream();
      out.write(
          "GET /metrics?a=1 HTTP/1.1\r\nHost: x\r\nX-Test: t1\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String first = readResponse(in);
      assertThat(first)
          .startsWith("HTTP/1.1 200 ")
          .containsIgnoringCase("x-answer: yes")
          .endsWith("GET /metrics?a=1 t1 0");
      // the same connection: keep-alive; a trailing slash reaches the route, a body is read
      out.write(
          "POST /metrics/ HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in)).startsWith("HTTP/1.1 200 ").endsWith("POST /metrics/ null 3");
      // a prefix route takes every longer path under its prefix
      out.write(
          "GET /api/signatures/a%20b HTTP/1.1\r\nHost: x\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in))
          .startsWith("HTTP/1.1 200 ")
          .endsWith("GET /api/signatures/a%20b null 0");
      out.write("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponse(in))
          .startsWith("HTTP/1.1 404 ")
          .contains("{\"error\":\"no such endpoint: /nothing\"}");
    }
    try (JettyServer s = start(FAST, routes(new Whole(1 << 20)))) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> chunked =
          client.send(
              HttpRequest.newBuilder(s.uri().resolve("/metrics?chunked")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(chunked.statusCode()).isEqualTo(200);
      assertThat(chunked.body()).isEqualTo("GET /metrics?chunked null 0");
      HttpResponse<String> none =
          client.send(
              HttpRequest.newBuilder(s.uri().resolve("/metrics?none")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(none.statusCode()).isEqualTo(204);
      assertThat(none.body()).isEmpty();
      // ... but not the prefix alone
      assertThat(
              client
                  .send(
                      HttpRequest.newBuilder(s.uri().resolve("/api/signatures/")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(404);
    }
  }

  @Test
  void http2InTheClear() throws Exception {
    try (JettyServer s = start(FAST.withH2c(true), routes(new Whole(1 << 20)))) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(s.uri().resolve("/symbolicate/v5"))
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("POST /symbolicate/v5 null 2");
      // the JDK client upgrades its first request (h2c) and speaks HTTP/2 after it
      HttpResponse<String> again =
          client.send(
              HttpRequest.newBuilder(s.uri().resolve("/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(again.version()).isEqualTo(HttpClient.Version.HTTP_2);
    }
  }

  @Test
  void tlsWithASelfSignedCertificate(@TempDir Path dir) throws Exception {
    Path keystore = dir.resolve("api.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "api",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "secret",
                "-keypass",
                "secret")
            .redirectErrorStream(true)
            .start();
    String log = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(keytool.waitFor()).as(log).isZero();
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      trust.load(in, "secret".toCharArray());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    try (JettyServer s =
        start(FAST.withTls(new ServerLimits.Tls(keystore, "secret")), routes(new Whole(1 << 20)))) {
      assertThat(s.uri().getScheme()).isEqualTo("https");
      for (HttpClient.Version v : HttpClient.Version.values()) {
        HttpClient client = HttpClient.newBuilder().sslContext(ssl).version(v).build();
        HttpResponse<String> r =
            client.send(
                HttpRequest.newBuilder(s.uri().resolve("/symbolicate/v5"))
                    .POST(HttpRequest.BodyPublishers.ofString("[1]"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("POST /symbolicate/v5 null 3");
        assertThat(r.version()).as("ALPN gives what the client asks").isEqualTo(v);
      }
      // (HTTP/2 over TLS was offered although these limits leave h2c off)
      assertThat(FAST.h2c()).isFalse();
      // plain HTTP to the TLS port gets no answer of ours
      HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      URI http = URI.create("http://127.0.0.1:" + s.port() + "/metrics");
      int status;
      try {
        status =
            plain
                .send(HttpRequest.newBuilder(http).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode();
      } catch (IOException e) {
        status = -1;
      }
      assertThat(status).isNotEqualTo(200);
    }
  }

  @Test
  void aSlowBodyHoldsOnlyTheBytesItSentAndIsCutOff() throws Exception {
    Whole whole = new Whole(1 << 20);
    try (JettyServer s = start(FAST, routes(whole));
        Socket slow = new Socket("127.0.0.1", s.port());
        Socket idle = new Socket("127.0.0.1", s.port())) {
      slow.setSoTimeout(10_000);
      idle.setSoTimeout(10_000);
      // announces 900,000 bytes and sends 100; the other announces as much and sends nothing
      slow.getOutputStream()
          .write(
              ("POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n"
                      + "x".repeat(100))
                  .getBytes(StandardCharsets.US_ASCII));
      slow.getOutputStream().flush();
      idle.getOutputStream()
          .write(
              "POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      idle.getOutputStream().flush();
      long until = System.nanoTime() + 2_000_000_000L;
      while (whole.held.get() < 100 && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(whole.held.get()).as("claimed as received, not as announced").isEqualTo(100);
      assertThat(whole.calls.get()).as("the handler waits for the whole body").isZero();
      // a normal request meanwhile
      HttpResponse<String> ok =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(s.uri().resolve("/symbolicate/v5"))
                      .POST(HttpRequest.BodyPublishers.ofString("{}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(ok.statusCode()).isEqualTo(200);
      // both fall behind 1 KiB/s after the 1 s grace: 408, and their claims given back
      long t0 = System.nanoTime();
      String slowAnswer =
          new String(slow.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      String idleAnswer =
          new String(idle.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(slowAnswer).startsWith("HTTP/1.1 408 ").contains("too slowly: 100 bytes");
      assertThat(idleAnswer).startsWith("HTTP/1.1 408 ").contains("too slowly: 0 bytes");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
      assertThat(whole.held.get()).isZero();
      assertThat(whole.calls.get()).isEqualTo(1);
    }
  }

  @Test
  void bodiesBeyondTheReceiveBudgetAreRefused() throws Exception {
    Whole whole = new Whole(1000);
    // a long grace: the holder's 900 bytes must not be cut off for their rate while we ask
    ServerLimits patient =
        FAST.withTimeouts(
            Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(20), 1024);
    try (JettyServer s = start(patient, routes(whole));
        Socket holder = new Socket("127.0.0.1", s.port())) {
      holder
          .getOutputStream()
          .write(
              ("POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n"
                      + "x".repeat(900))
                  .getBytes(StandardCharsets.US_ASCII));
      holder.getOutputStream().flush();
      long until = System.nanoTime() + 2_000_000_000L;
      while (whole.held.get() < 900 && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      HttpResponse<String> r =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .build()
              .send(
                  HttpRequest.newBuilder(s.uri().resolve("/symbolicate/v5"))
                      .POST(HttpRequest.BodyPublishers.ofString("y".repeat(200)))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.headers().firstValue("Retry-After")).hasValue("3");
      assertThat(r.body()).contains("too much request data being received");
      assertThat(whole.held.get()).isEqualTo(900);
    }
  }

  @Test
  void headersNotFinishedInTimeCloseTheConnection() throws Exception {
    try (JettyServer s = start(FAST, routes(new Whole(1 << 20)));
        Socket c = new Socket("127.0.0.1", s.port())) {
      c.setSoTimeout(10_000);
      c.getOutputStream()
          .write("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Te".getBytes(StandardCharsets.US_ASCII));
      c.getOutputStream().flush();
      long t0 = System.nanoTime();
      int first = c.getInputStream().read();
      assertThat(first).as("closed without an answer").isEqualTo(-1);
      assertThat(Duration.ofNanos(System.nanoTime() - t0))
          .isBetween(Duration.ofMillis(500), Duration.ofSeconds(5));
    }
  }

  @Test
  void connectionsBeyondThePerAddressLimitAreClosedAtOnce() throws Exception {
    try (JettyServer s = start(FAST.withConnections(100, 2), routes(new Whole(1 << 20)));
        Socket a = new Socket("127.0.0.1", s.port());
        Socket b = new Socket("127.0.0.1", s.port())) {
      // the two allowed connections are open (and answered) before the third arrives
      for (Socket c : List.of(a, b)) {
        c.setSoTimeout(10_000);
        c.getOutputStream()
            .write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(readResponse(c.getInputStream())).startsWith("HTTP/1.1 200");
      }
      try (Socket third = new Socket("127.0.0.1", s.port())) {
        third.setSoTimeout(10_000);
        long t0 = System.nanoTime();
        assertThat(third.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
      }
      // from another address, and once one closes, connections are taken again
      try (Socket other = new Socket()) {
        other.bind(new InetSocketAddress("127.0.0.2", 0));
        other.connect(new InetSocketAddress("127.0.0.1", s.port()));
        other.setSoTimeout(10_000);
        other
            .getOutputStream()
            .write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(readResponse(other.getInputStream())).startsWith("HTTP/1.1 200");
      }
    }
  }

  /** One HTTP/1.1 response with a Content-Length: head and body. */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      String h = head.toString(StandardCharsets.US_ASCII);
      if (h.endsWith("\r\n\r\n")) {
        int len = 0;
        for (String line : h.split("\r\n")) {
          if (line.toLowerCase().startsWith("content-length:")) {
            len = Integer.parseInt(line.substring(15).trim());
          }
        }
        return h + new String(in.readNBytes(len), StandardCharsets.UTF_8);
      }
    }
    throw new IOException("connection closed: " + head.toString(StandardCharsets.US_ASCII));
  }
}

package io.symbolicate.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Source Link fetcher against a real HTTP server on loopback: the served file's own lines;
 * URLs no rule allows, loopback without the explicit allowance and redirects out of the allowed
 * prefixes make no request; 404, oversized (declared and streamed), slow, binary and Latin-1
 * answers give no lines and a reason; answers cached by the other fetches' rules.
 */
class SourceLinkFetcherTest {
  static final String FILE = "line one\r\nline two\n" + "x".repeat(200) + "\nlast\n";

  HttpServer server;
  String base;
  final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  final AtomicLong now = new AtomicLong(1_000_000);

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::serve);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void serve(HttpExchange x) throws IOException {
    String path = x.getRequestURI().getPath();
    hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    try (x) {
      switch (path) {
        case "/repo/Program.cs" -> send(x, 200, FILE.getBytes(StandardCharsets.UTF_8));
        case "/repo/big.cs" -> send(x, 200, new byte[2000]);
        case "/repo/streamed.cs" -> {
          x.sendResponseHeaders(200, 0); // chunked: no length declared
          try (OutputStream o = x.getResponseBody()) {
            for (int i = 0; i < 20; i++) {
              o.write("0123456789\n".repeat(10).getBytes(StandardCharsets.UTF_8));
            }
          }
        }
        case "/repo/binary.cs" -> send(x, 200, new byte[] {'a', 0, 'b'});
        case "/repo/latin1.cs" -> send(x, 200, "caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        case "/repo/slow.cs" -> {
          try {
            Thread.sleep(3000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          send(x, 200, FILE.getBytes(StandardCharsets.UTF_8));
        }
        case "/repo/moved.cs" -> {
          x.getResponseHeaders().add("Location", "/repo/Program.cs");
          send(x, 302, new byte[0]);
        }
        case "/repo/away.cs" -> {
          x.getResponseHeaders().add("Location", base + "/elsewhere/Program.cs");
          send(x, 302, new byte[0]);
        }
        case "/repo/flaky.cs" -> send(x, 503, new byte[0]);
        default -> send(x, 404, new byte[0]);
      }
    }
  }

  private static void send(HttpExchange x, int status, byte[] body) throws IOException {
    x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream o = x.getResponseBody()) {
        o.write(body);
      }
    }
  }

  int hits(String path) {
    AtomicInteger n = hits.get(path);
    return n == null ? 0 : n.get();
  }

  SourceLinkFetcher fetcher(String allow, boolean allowPrivate) {
    return fetcher(allow, allowPrivate, 5000);
  }

  SourceLinkFetcher fetcher(String allow, boolean allowPrivate, long timeoutMs) {
    return new SourceLinkFetcher(
        new SourceLinkFetcher.Settings(
            SourceLinkPolicy.parse(allow, allowPrivate),
            1000,
            Duration.ofMillis(timeoutMs),
            4,
            60_000,
            120_000,
            10_000,
            1 << 20),
        InetAddress::getAllByName,
        now::get);
  }

  SourceLinkResult get(SourceLinkFetcher f, String url) throws Exception {
    return f.fetch(url).get();
  }

  @Test
  void theServedFilesOwnLines() throws Exception {
    SourceLinkFetcher f = fetcher(base + "/repo/", true);
    SourceLinkResult r = get(f, base + "/repo/Program.cs");
    assertThat(r).isInstanceOf(SourceLinkResult.Found.class);
    // split as bundles' files are: CRLF dropped, a long line cut with {snip}
    assertThat(((SourceLinkResult.Found) r).lines())
        .containsExactly("line one", "line two", "x".repeat(140) + " {snip}", "last");
    // cached: no second request
    assertThat(get(f, base + "/repo/Program.cs")).isSameAs(r);
    assertThat(hits("/repo/Program.cs")).isEqualTo(1);
    // what /metrics shows: one fetch found, one answer from the cache
    assertThat(f.fetches("ok")).isEqualTo(1);
    assertThat(f.cacheHits()).isEqualTo(1);
  }

  @Test
  void aMirrorServesAnAllowedPrefix() throws Exception {
    SourceLinkFetcher f =
        fetcher("https://raw.githubusercontent.com/getsentry/=" + base + "/repo/", true);
    SourceLinkResult r = get(f, "https://raw.githubusercontent.com/getsentry/Program.cs");
    assertThat(r).isInstanceOf(SourceLinkResult.Found.class);
    assertThat(hits("/repo/Program.cs")).isEqualTo(1);
    // another host, or a path that climbs out of the prefix: not fetched
    assertThat(get(f, "https://raw.githubusercontent.com.evil.net/getsentry/Program.cs"))
        .isInstanceOf(SourceLinkResult.Refused.class);
    assertThat(get(f, "https://raw.githubusercontent.com/getsentry/../other/Program.cs"))
        .isInstanceOf(SourceLinkResult.Refused.class);
    assertThat(get(f, "https://raw.githubusercontent.com/getsentry/%2e%2e/x/Program.cs"))
        .isInstanceOf(SourceLinkResult.Refused.class);
    assertThat(f.fetches("ok")).isEqualTo(1);
    assertThat(f.fetches("noperm")).isEqualTo(3);
  }

  @Test
  void notAllowedMakesNoRequest() throws Exception {
    // no rule at all (the default), another prefix, loopback without the allowance
    assertThat(get(fetcher("", true), base + "/repo/Program.cs"))
        .isInstanceOf(SourceLinkResult.Refused.class);
    assertThat(get(fetcher(base + "/other/", true), base + "/repo/Program.cs"))
        .isInstanceOf(SourceLinkResult.Refused.class);
    SourceLinkResult loop = get(fetcher(base + "/repo/", false), base + "/repo/Program.cs");
    assertThat(loop).isInstanceOf(SourceLinkResult.Refused.class);
    assertThat(loop.reason()).contains("a loopback address");
    assertThat(hits).isEmpty();
  }

  @Test
  void redirectsOnlyWithinTheAllowedPrefixes() throws Exception {
    SourceLinkFetcher f = fetcher(base + "/repo/", true);
    assertThat(get(f, base + "/repo/moved.cs")).isInstanceOf(SourceLinkResult.Found.class);
    SourceLinkResult away = get(f, base + "/repo/away.cs");
    assertThat(away).isInstanceOf(SourceLinkResult.Refused.class);
    assertThat(away.reason()).contains("a redirect out of the allowed prefixes");
    assertThat(hits("/elsewhere/Program.cs")).isZero();
  }

  @Test
  void badAnswersGiveAReason() throws Exception {
    SourceLinkFetcher f = fetcher(base + "/repo/", true);
    SourceLinkResult missing = get(f, base + "/repo/nope.cs");
    assertThat(missing).isInstanceOf(SourceLinkResult.Missing.class);
    assertThat(missing.reason()).isEqualTo("HTTP 404");
    assertThat(get(f, base + "/repo/big.cs").reason()).contains("over 1000 bytes");
    assertThat(get(f, base + "/repo/streamed.cs"))
        .isInstanceOf(SourceLinkResult.Malformed.class)
        .extracting(SourceLinkResult::reason)
        .asString()
        .contains("over 1000 bytes");
    assertThat(get(f, base + "/repo/binary.cs").reason()).isEqualTo("binary or not UTF-8");
    assertThat(get(f, base + "/repo/latin1.cs").reason()).isEqualTo("binary or not UTF-8");
    assertThat(get(f, base + "/repo/flaky.cs"))
        .isInstanceOf(SourceLinkResult.Failed.class)
        .extracting(SourceLinkResult::reason)
        .isEqualTo("HTTP 503");
    // counted by status, as /metrics shows them
    assertThat(SourceLinkFetcher.STATUSES)
        .map(f::fetches)
        .containsExactly(0L, 1L, 0L, 4L, 1L); // ok, notfound, noperm, malformed, error
    assertThat(f.cacheHits()).isZero();
    // the server answers after 3 s
    SourceLinkResult slow = get(fetcher(base + "/repo/", true, 300), base + "/repo/slow.cs");
    assertThat(slow).isInstanceOf(SourceLinkResult.Failed.class);
    assertThat(slow.reason()).contains("timed out");
  }

  @Test
  void negativeAnswersAreAskedAgainAfterTheirRetryTimes() throws Exception {
    SourceLinkFetcher f = fetcher(base + "/repo/", true);
    get(f, base + "/repo/nope.cs");
    get(f, base + "/repo/binary.cs");
    get(f, base + "/repo/flaky.cs");
    get(f, base + "/repo/nope.cs");
    get(f, base + "/repo/binary.cs");
    get(f, base + "/repo/flaky.cs");
    assertThat(List.of(hits("/repo/nope.cs"), hits("/repo/binary.cs"), hits("/repo/flaky.cs")))
        .containsExactly(1, 1, 1);
    now.addAndGet(10_000); // failed: 10 s
    get(f, base + "/repo/nope.cs");
    get(f, base + "/repo/binary.cs");
    get(f, base + "/repo/flaky.cs");
    assertThat(List.of(hits("/repo/nope.cs"), hits("/repo/binary.cs"), hits("/repo/flaky.cs")))
        .containsExactly(1, 1, 2);
    now.addAndGet(50_000); // missing: 60 s
    get(f, base + "/repo/nope.cs");
    get(f, base + "/repo/binary.cs");
    assertThat(List.of(hits("/repo/nope.cs"), hits("/repo/binary.cs"))).containsExactly(2, 1);
    now.addAndGet(60_000); // malformed: 120 s
    get(f, base + "/repo/binary.cs");
    assertThat(hits("/repo/binary.cs")).isEqualTo(2);
  }

  @Test
  void anEventFetchesAtMostItsFiles() throws Exception {
    SourceLinkFetcher f = fetcher(base + "/repo/", true);
    Map<String, SourceLinkResult> got =
        f.fetchAll(
            List.of(
                base + "/repo/a.cs",
                base + "/repo/b.cs",
                base + "/repo/a.cs",
                base + "/repo/c.cs",
                base + "/repo/d.cs",
                base + "/repo/e.cs"),
            System.currentTimeMillis() + 5000);
    assertThat(got).hasSize(5);
    assertThat(got.get(base + "/repo/e.cs").reason()).contains("over the 4 files an event fetches");
    assertThat(hits("/repo/e.cs")).isZero();
    assertThat(hits("/repo/a.cs")).isEqualTo(1);
  }

  @Test
  void prefixesMustBeHttpUrls() {
    assertThatThrownBy(() -> SourceLinkPolicy.parse("file:///etc/", false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("file:///etc/");
    assertThatThrownBy(() -> SourceLinkPolicy.parse("https://a.com/=ftp://b/", false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(SourceLinkPolicy.parse(" , ", false).enabled()).isFalse();
  }

  @Test
  void reservedAddresses() throws Exception {
    for (String a :
        List.of(
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "224.0.0.1",
            "192.0.2.7",
            "198.51.100.1",
            "203.0.113.9",
            "192.88.99.1",
            "255.255.255.255")) {
      assertThat(SourceLinkPolicy.reserved(InetAddress.getByName(a))).as(a).isNotNull();
    }
    for (String a : List.of("140.82.112.3", "185.199.108.133", "2606:50c0:8000::154")) {
      assertThat(SourceLinkPolicy.reserved(InetAddress.getByName(a))).as(a).isNull();
    }
    assertThat(URI.create(base).getHost()).isEqualTo("127.0.0.1");
  }
}

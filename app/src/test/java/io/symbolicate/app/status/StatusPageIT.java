package io.symbolicate.app.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in a real headless Chromium, over the running app on the real broker: the
 * numbers it shows are those of {@code /status.json} and of the top-crashers routes, they change
 * when new events arrive (without a reload), strings that look like markup stay text, the page
 * logs no error, and without scripts the server's HTML carries the same numbers. The top-crashers
 * routes are a stand-in server answering their documented contract (the aggregation is another
 * module's work); it also serves a signature made of markup and quotes.
 */
class StatusPageIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Strings a careless page would run or break on. */
  static final String HOSTILE_MODULE = "<script>window.pwned=1</script>\"'&lt;/x.so";

  static final String HOSTILE_SIGNATURE =
      "<img src=x onerror=\"window.pwned=2\"> 'quoted' & <script>";
  private static final Pattern DATA_K = Pattern.compile("data-k=\"([^\"]+)\">([^<]*)<");

  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicLong hostileCount = new AtomicLong(7);

  @TempDir Path tmp;
  private final long started = System.nanoTime();

  private void phase(String what) {
    System.err.printf("StatusPageIT: %s after %.1f s%n", what, (System.nanoTime() - started) / 1e9);
  }

  @Test
  void showsLiveNumbersThatMatchTheApiAndNeverRunsWhatItShows() throws Exception {
    Path symbols = tmp.resolve("symbols");
    Path sym = symbols.resolve("crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym");
    Files.createDirectories(sym.getParent());
    try (InputStream in = StatusPageIT.class.getResourceAsStream("/demo/crashy.sym")) {
      Files.copy(in, sym);
    }
    HttpServer crashers = topCrashersStandIn();
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      phase("broker up");
      String p = "status";
      AppConfig cfg =
          AppConfig.defaults()
              .set("bootstrap.servers", kafka.bootstrapServers())
              .set("application.id", p + "-app")
              .set("state.dir", tmp.resolve("state").toString())
              .set("topics.partitions", "1")
              .set("streams.commit.interval.ms", "100")
              .set("symbols.dir", symbols.toString())
              .set("loader.warmup", "false") // CPU the test does not need on a shared machine
              .set("http.enabled", "true")
              .set("http.host", "127.0.0.1")
              .set("http.port", "0")
              .set(
                  "status.top.crashers.url", "http://127.0.0.1:" + crashers.getAddress().getPort());
      for (String t :
          List.of(
              "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
        cfg.set("topic." + t, p + "." + t);
      }
      try (SymbolicatorApp app = SymbolicatorApp.create(cfg).startStreams();
          KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
        assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
        phase("app running");
        URI base = URI.create("http://127.0.0.1:" + app.api().server().port());
        send(producer, cfg, "n-1", "n-2");
        producer.send(new ProducerRecord<>(cfg.get("topic.raw"), SampleEvents.undecodableBytes()));
        MissingSymbols hostile =
            MissingSymbols.newBuilder()
                .setScope("global")
                .setPlatform(Platform.native$)
                .setModule(HOSTILE_MODULE)
                .setCount(1_000)
                .setFirstSeen(Instant.now().minusSeconds(60))
                .setLastSeen(Instant.now())
                .build();
        producer.send(
            new ProducerRecord<>(
                cfg.get("topic.missing"),
                HOSTILE_MODULE.getBytes(StandardCharsets.UTF_8),
                WireSerdes.missingSymbols().encode(hostile)));
        producer.flush();
        await(
            "3 events in, 2 out and the missing module",
            () -> {
              JsonNode s = json(base);
              return s.path("events").path("in_total").asLong() == 3
                  && s.path("events").path("out_total").asLong() == 2
                  && s.path("missing_modules").path("modules").size() > 0;
            });

        phase("first events out");
        HttpResponse<String> page =
            http.send(
                HttpRequest.newBuilder(base.resolve("/status")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy"))
            .hasValueSatisfying(
                csp ->
                    assertThat(csp).contains("default-src 'none'").contains("script-src 'self'"));
        // without scripts: the server's HTML has the numbers, and the markup only as text
        Map<String, String> plain = figures(page.body());
        JsonNode now = json(base);
        assertThat(plain)
            .containsEntry("events.in_total", "3")
            .containsEntry("events.out_total", "2")
            .containsEntry("dead_letters.total", now.path("dead_letters").path("total").asText())
            .containsEntry("top_crashers.total", "42");
        assertThat(page.body())
            .doesNotContain(HOSTILE_MODULE)
            .doesNotContain(HOSTILE_SIGNATURE)
            .contains("&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;&#39;&amp;lt;/x.so");
        assertThat(page.body().split("<script", -1)).as("our one script tag").hasSize(2);

        try (CdpBrowser browser =
            CdpBrowser.launch(Files.createDirectories(tmp.resolve("chromium-profile")))) {
          phase("chromium up");
          browser.navigate(base.resolve("/status").toString());
          browser.eval("window.__sameLoad = true");
          await(
              "the page polled /status.json",
              () -> browser.eval("document.body.dataset.polls|0").asInt() >= 1);
          assertPageMatches(browser, base);
          assertThat(text(browser, "#missing_modules td.name")).isEqualTo(HOSTILE_MODULE);
          assertThat(text(browser, "#top_crashers td.name")).isEqualTo(HOSTILE_SIGNATURE);
          assertThat(browser.eval("typeof window.pwned").asText())
              .as("no injected script ran")
              .isEqualTo("undefined");
          assertThat(browser.eval("document.scripts.length").asInt()).isEqualTo(1);
          assertThat(browser.eval("document.querySelectorAll('img').length").asInt()).isZero();

          // new events and a new count: the open page follows, without reloading
          long dlqBefore = json(base).path("dead_letters").path("total").asLong();
          send(producer, cfg, "n-3", "n-4");
          producer.send(new ProducerRecord<>(cfg.get("topic.raw"), SampleEvents.invalidJson()));
          producer.flush();
          hostileCount.set(11);
          await("the page shows 6 events in", () -> "6".equals(value(browser, "events.in_total")));
          await("the page shows 4 out", () -> "4".equals(value(browser, "events.out_total")));
          await(
              "the page shows one more dead letter",
              () -> String.valueOf(dlqBefore + 1).equals(value(browser, "dead_letters.total")));
          await(
              "the chart follows the API",
              () ->
                  browser
                      .eval("document.querySelector('#top_crashers svg.chart').dataset.hours")
                      .asText()
                      .endsWith(",11"));
          assertThat(browser.eval("window.__sameLoad === true").asBoolean())
              .as("updated in place")
              .isTrue();
          assertPageMatches(browser, base);

          phase("page updated");
          byte[] png = browser.screenshot(1280);
          assertThat(png).startsWith(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
          Files.createDirectories(Path.of("target"));
          Files.write(Path.of("target", "status-page.png"), png);
          if (Boolean.getBoolean("status.screenshot.write")) {
            Files.write(Path.of("..", "docs", "status-page.png"), png);
          }
          assertThat(browser.errors()).as("errors in the browser console").isEmpty();
        }
      } finally {
        crashers.stop(0);
      }
    }
  }

  /** Every figure on the page equals /status.json's (both read until they agree, the page polling). */
  private void assertPageMatches(CdpBrowser browser, URI base) throws Exception {
    await(
        "the page's figures equal /status.json",
        () -> {
          JsonNode s = json(base);
          JsonNode shown =
              browser.eval(
                  "Object.fromEntries([...document.querySelectorAll('[data-k]')]"
                      + ".map(e => [e.dataset.k, e.textContent]))");
          Map<String, String> expected =
              Map.of(
                  "events.in_total", s.path("events").path("in_total").asText(),
                  "events.out_total", s.path("events").path("out_total").asText(),
                  "dead_letters.total", s.path("dead_letters").path("total").asText(),
                  "parked.total", s.path("parked").path("total").asText(),
                  "loads.finished", s.path("loads").path("finished").asText(),
                  "top_crashers.total", s.path("top_crashers").path("total").asText());
          for (Map.Entry<String, String> e : expected.entrySet()) {
            if (!e.getValue().equals(shown.path(e.getKey()).asText())) {
              return false;
            }
          }
          for (Iterator<Map.Entry<String, JsonNode>> it =
                  s.path("dead_letters").path("by_reason").fields();
              it.hasNext(); ) {
            Map.Entry<String, JsonNode> r = it.next();
            if (!r.getValue()
                .asText()
                .equals(shown.path("dead_letters.by_reason." + r.getKey()).asText())) {
              return false;
            }
          }
          for (JsonNode c : s.path("caches")) {
            String k = "caches." + c.path("layer").asText();
            if (!c.path("hits").asText().equals(shown.path(k + ".hits").asText())
                || !c.path("misses").asText().equals(shown.path(k + ".misses").asText())) {
              return false;
            }
          }
          JsonNode first = s.path("top_crashers").path("crashers").path(0);
          return first.path("signature").asText().equals(text(browser, "#top_crashers td.name"))
              && joined(first.path("hours"))
                  .equals(
                      browser
                          .eval("document.querySelector('#top_crashers svg.chart').dataset.hours")
                          .asText());
        });
  }

  private static String joined(JsonNode array) {
    StringBuilder b = new StringBuilder();
    for (JsonNode n : array) {
      b.append(b.length() == 0 ? "" : ",").append(n.asLong());
    }
    return b.toString();
  }

  private static String value(CdpBrowser browser, String key) throws Exception {
    return browser
        .eval("(document.querySelector('[data-k=\"" + key + "\"]') || {}).textContent")
        .asText();
  }

  private static String text(CdpBrowser browser, String selector) {
    try {
      return browser
          .eval(
              "(document.querySelector("
                  + JSON.writeValueAsString(selector)
                  + ") || {}).textContent")
          .asText();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private JsonNode json(URI base) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(base.resolve("/status.json")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  /** The server-rendered figures: key to text, unescaped. */
  private static Map<String, String> figures(String html) {
    Map<String, String> out = new HashMap<>();
    Matcher m = DATA_K.matcher(html);
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    return out;
  }

  interface Check {
    boolean ok() throws Exception;
  }

  private static void await(String what, Check check) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (check.ok()) {
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("timed out waiting: " + what, last);
  }

  private static KafkaProducer<byte[], byte[]> producer(EmbeddedKafka kafka) {
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    return new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static void send(KafkaProducer<byte[], byte[]> producer, AppConfig cfg, String... ids) {
    for (String id : ids) {
      producer.send(
          new ProducerRecord<>(
              cfg.get("topic.raw"), WireSerdes.crashEvent().encode(SampleEvents.nativeEvent(id))));
    }
  }

  /**
   * {@code GET /api/top-crashers} and {@code GET /api/signatures/{signature}} as their contract
   * says: two signatures, one of them markup; the markup one's count of the last hour is
   * {@link #hostileCount}, which the test raises.
   */
  private HttpServer topCrashersStandIn() throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    s.createContext(
        "/api/top-crashers",
        ex -> {
          ObjectNode o =
              JSON.createObjectNode()
                  .putNull("release")
                  .putNull("platform")
                  .put("since", hour.minus(23, ChronoUnit.HOURS).toString())
                  .put("until", Instant.now().toString());
          long hostile = 3 + hostileCount.get();
          o.put("total", 42);
          ArrayNode list = o.putArray("crashers");
          list.addObject()
              .put("signature", HOSTILE_SIGNATURE)
              .put("count", hostile)
              .put("share", hostile / 42.0)
              .put("first_seen", hour.minus(5, ChronoUnit.HOURS).toString())
              .put("last_seen", Instant.now().toString())
              .put("example_event_id", "<b>e-1</b>");
          list.addObject()
              .put("signature", "crashy::main")
              .put("count", 20)
              .put("share", 20 / 42.0)
              .put("first_seen", hour.minus(20, ChronoUnit.HOURS).toString())
              .put("last_seen", hour.toString())
              .put("example_event_id", "e-2");
          reply(ex, o);
        });
    s.createContext(
        "/api/signatures/",
        ex -> {
          String raw = ex.getRequestURI().getRawPath().substring("/api/signatures/".length());
          String signature = URLDecoder.decode(raw, StandardCharsets.UTF_8);
          ObjectNode o = JSON.createObjectNode().put("signature", signature);
          ArrayNode hours = o.putArray("hours");
          if (signature.equals(HOSTILE_SIGNATURE)) {
            hours
                .addObject()
                .put("hour", hour.minus(5, ChronoUnit.HOURS).toString())
                .put("release", "1.0")
                .put("platform", "native")
                .put("count", 2);
            hours
                .addObject()
                .put("hour", hour.minus(5, ChronoUnit.HOURS).toString())
                .put("release", "1.1")
                .put("platform", "native")
                .put("count", 1);
            hours
                .addObject()
                .put("hour", hour.toString())
                .put("release", "1.1")
                .put("platform", "native")
                .put("count", hostileCount.get());
            hours
                .addObject()
                .put("hour", hour.minus(30, ChronoUnit.HOURS).toString())
                .put("release", "0.9")
                .put("platform", "native")
                .put("count", 500); // before the chart's 24 hours
          } else {
            hours
                .addObject()
                .put("hour", hour.minus(20, ChronoUnit.HOURS).toString())
                .put("release", "1.0")
                .put("platform", "native")
                .put("count", 20);
          }
          o.putArray("recent_event_ids").add("e-1");
          reply(ex, o);
        });
    s.start();
    return s;
  }

  private static void reply(HttpExchange ex, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}

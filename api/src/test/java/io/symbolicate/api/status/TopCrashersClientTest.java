package io.symbolicate.api.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The top-crashers section read through the aggregation's HTTP contract, a stand-in serving it. */
class TopCrashersClientTest {
  private HttpServer server;
  private final Map<String, String> answers = new ConcurrentHashMap<>();
  private final List<String> paths = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    server.createContext("/", this::answer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private synchronized void answer(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getRawPath();
      paths.add(
          ex.getRequestURI().getRawPath()
              + (ex.getRequestURI().getRawQuery() == null
                  ? ""
                  : "?" + ex.getRequestURI().getRawQuery()));
      String body = answers.get(path);
      if (body == null) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, b.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(b);
      }
    }
  }

  private TopCrashersClient client() {
    URI root = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    return new TopCrashersClient(() -> root);
  }

  @Test
  void absentRoutesMeanNotEnabled() {
    StatusSnapshot.TopCrashers t = client().topCrashers();
    assertThat(t.enabled()).isFalse();
    assertThat(t.note()).isEqualTo("top crashers not enabled");
  }

  @Test
  void readsTheListAndSumsEachSignaturesHoursOverReleasesAndPlatforms() {
    Instant hour = Instant.parse("2026-11-27T10:00:00Z");
    String sig = "a<b> & \"c\"/d e+f";
    answers.put(
        "/api/top-crashers",
        "{\"release\":null,\"platform\":null,\"since\":\"2026-11-26T10:30:00Z\","
            + "\"until\":\"2026-11-27T10:30:00Z\",\"total\":9,\"crashers\":[{\"signature\":\""
            + sig.replace("\"", "\\\"")
            + "\",\"count\":6,\"share\":0.66,\"first_seen\":\"F\",\"last_seen\":\"L\",\"example_event_id\":\"e\"}]}");
    // the signature goes URL-encoded in the path (a space as %20, '/' and '+' encoded)
    answers.put(
        "/api/signatures/a%3Cb%3E%20%26%20%22c%22%2Fd%20e%2Bf",
        "{\"signature\":\"x\",\"total\":6,\"hours\":["
            + "{\"hour\":\""
            + hour
            + "\",\"release\":\"1\",\"platform\":\"native\",\"count\":2},"
            + "{\"hour\":\""
            + hour
            + "\",\"release\":\"2\",\"platform\":\"js\",\"count\":1},"
            + "{\"hour\":\""
            + hour.minus(23, ChronoUnit.HOURS)
            + "\",\"release\":\"1\",\"platform\":\"native\",\"count\":3},"
            + "{\"hour\":\""
            + hour.minus(24, ChronoUnit.HOURS)
            + "\",\"release\":\"1\",\"platform\":\"native\",\"count\":50},"
            + "{\"hour\":\"not a time\",\"count\":70}],\"recent_event_ids\":[\"e\"]}");
    StatusSnapshot.TopCrashers t = client().topCrashers();
    assertThat(t.enabled()).isTrue();
    assertThat(t.total()).isEqualTo(9);
    assertThat(t.crashers()).hasSize(1);
    StatusSnapshot.Crasher c = t.crashers().get(0);
    assertThat(c.signature()).isEqualTo(sig);
    assertThat(c.count()).isEqualTo(6);
    assertThat(c.hours()).hasSize(TopCrashersClient.HOURS);
    assertThat(c.hours().get(23)).isEqualTo(3);
    assertThat(c.hours().get(0)).isEqualTo(3);
    assertThat(c.hours().stream().mapToLong(Long::longValue).sum())
        .as("the hour before the window left out")
        .isEqualTo(6);
    assertThat(paths.get(0))
        .isEqualTo("/api/top-crashers?since=24h&limit=" + TopCrashersClient.LIMIT);
  }

  @Test
  void aBrokenAnswerIsSaidNotThrown() {
    answers.put("/api/top-crashers", "{\"crashers\": [");
    StatusSnapshot.TopCrashers t = client().topCrashers();
    assertThat(t.enabled()).isFalse();
    assertThat(t.note())
        .startsWith("top crashers unavailable: /api/top-crashers answered invalid JSON");
  }

  @Test
  void anOversizedAnswerIsRefused() {
    answers.put("/api/top-crashers", "[" + " ".repeat(TopCrashersClient.MAX_ANSWER_BYTES) + "]");
    StatusSnapshot.TopCrashers t = client().topCrashers();
    assertThat(t.enabled()).isFalse();
    assertThat(t.note()).contains("more than " + TopCrashersClient.MAX_ANSWER_BYTES + " bytes");
  }

  @Test
  void aServerNotListeningYetIsSaid() {
    StatusSnapshot.TopCrashers t = new TopCrashersClient(() -> null).topCrashers();
    assertThat(t.enabled()).isFalse();
    assertThat(t.note()).contains("starting");
  }

  @Test
  void hoursOfOffsetsAndFallbacks() {
    assertThat(TopCrashersClient.hourOf("2026-11-27T12:34:56+02:00", null))
        .isEqualTo(Instant.parse("2026-11-27T10:00:00Z"));
    assertThat(TopCrashersClient.hourOf("garbage", null)).isNull();
  }
}

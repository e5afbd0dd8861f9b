package io.symbolicate.api.analytics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.analytics.query.CrasherQuery;
import io.symbolicate.analytics.query.CrasherTotal;
import io.symbolicate.analytics.query.LocalCounts;
import io.symbolicate.analytics.query.SignatureHistory;
import io.symbolicate.analytics.query.StreamsCounts;
import io.symbolicate.analytics.query.TopCrashers;
import io.symbolicate.api.server.Route;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Top crashers and signature histories from the aggregation's stores: a question about one
 * release goes to the instance that holds it; any other is asked of every instance and the
 * parts are merged. Other instances are reached on their {@code application.server} at
 * {@link Route#TOP_CRASHERS_PART} and {@link Route#SIGNATURE_PART}.
 */
public final class CrashQueries {
  /** Recent event ids a signature's answer lists. */
  public static final int RECENT_EVENT_IDS = 20;

  /** How long another instance may take to answer. */
  static final Duration PEER_TIMEOUT = Duration.ofSeconds(10);

  /** Largest answer read from another instance. */
  static final int MAX_PEER_ANSWER_BYTES = 64 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Supplier<StreamsCounts> counts;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** {@code counts} gives null while the aggregation does not run in this process. */
  public CrashQueries(Supplier<StreamsCounts> counts) {
    this.counts = counts;
  }

  private StreamsCounts counts() throws CountsUnavailableException {
    StreamsCounts c = counts.get();
    if (c == null) {
      throw new CountsUnavailableException(
          "top crashers are not counted in this process: set analytics.enabled=true "
              + "for run, or use ./symbolicator aggregate");
    }
    return c;
  }

  public TopCrashers top(CrasherQuery q, int limit) throws CountsUnavailableException {
    StreamsCounts c = counts();
    List<HostInfo> hosts =
        q.release() != null ? List.of(c.hostOf(q.release())) : new ArrayList<>(c.allHosts());
    List<CrasherTotal> parts = new ArrayList<>();
    for (HostInfo h : hosts) {
      parts.addAll(
          c.isSelf(h) ? LocalCounts.crashers(c.localPartitions(), q) : remoteCrashers(h, q));
    }
    return TopCrashers.of(parts, limit);
  }

  public SignatureHistory signature(String signature) throws CountsUnavailableException {
    StreamsCounts c = counts();
    List<SignatureHistory> parts = new ArrayList<>();
    for (HostInfo h : c.allHosts()) {
      parts.add(c.isSelf(h) ? localSignature(signature) : remoteSignature(h, signature));
    }
    return SignatureHistory.merge(parts, RECENT_EVENT_IDS);
  }

  List<CrasherTotal> localCrashers(CrasherQuery q) throws CountsUnavailableException {
    return LocalCounts.crashers(counts().localPartitions(), q);
  }

  SignatureHistory localSignature(String signature) throws CountsUnavailableException {
    return LocalCounts.signature(counts().localPartitions(), signature, RECENT_EVENT_IDS);
  }

  // the internal wire format: epoch milliseconds, every field named

  static ArrayNode crashersJson(List<CrasherTotal> totals) {
    ArrayNode a = JSON.createArrayNode();
    for (CrasherTotal t : totals) {
      a.addObject()
          .put("signature", t.signature())
          .put("count", t.count())
          .put("first", t.firstMs())
          .put("last", t.lastMs())
          .put("example", t.exampleEventId());
    }
    return a;
  }

  static ObjectNode signatureJson(SignatureHistory h) {
    ObjectNode o = JSON.createObjectNode();
    ArrayNode hours = o.putArray("hours");
    for (SignatureHistory.HourCount c : h.hours()) {
      hours
          .addObject()
          .put("hour", c.hourMs())
          .put("release", c.release())
          .put("platform", c.platform())
          .put("count", c.count());
    }
    ArrayNode recent = o.putArray("recent");
    for (SignatureHistory.RecentEvent e : h.recent()) {
      recent.addObject().put("id", e.eventId()).put("crash", e.crashMs());
    }
    return o;
  }

  private List<CrasherTotal> remoteCrashers(HostInfo h, CrasherQuery q)
      throws CountsUnavailableException {
    StringBuilder query =
        new StringBuilder("since=").append(q.sinceHour()).append("&until=").append(q.untilHour());
    if (q.release() != null) {
      query.append("&release=").append(URLEncoder.encode(q.release(), StandardCharsets.UTF_8));
    }
    if (q.platform() != null) {
      query.append("&platform=").append(URLEncoder.encode(q.platform(), StandardCharsets.UTF_8));
    }
    JsonNode a = ask(h, Route.TOP_CRASHERS_PART.path(), query.toString());
    List<CrasherTotal> out = new ArrayList<>();
    for (JsonNode t : a) {
      out.add(
          new CrasherTotal(
              t.path("signature").asText(),
              t.path("count").asLong(),
              t.path("first").asLong(),
              t.path("last").asLong(),
              t.path("example").asText()));
    }
    return out;
  }

  private SignatureHistory remoteSignature(HostInfo h, String signature)
      throws CountsUnavailableException {
    JsonNode o =
        ask(
            h,
            Route.SIGNATURE_PART.path(),
            "signature=" + URLEncoder.encode(signature, StandardCharsets.UTF_8));
    List<SignatureHistory.HourCount> hours = new ArrayList<>();
    for (JsonNode c : o.path("hours")) {
      hours.add(
          new SignatureHistory.HourCount(
              c.path("hour").asLong(),
              c.path("release").asText(),
              c.path("platform").asText(),
              c.path("count").asLong()));
    }
    List<SignatureHistory.RecentEvent> recent = new ArrayList<>();
    for (JsonNode e : o.path("recent")) {
      recent.add(new SignatureHistory.RecentEvent(e.path("id").asText(), e.path("crash").asLong()));
    }
    return new SignatureHistory(hours, recent);
  }

  private JsonNode ask(HostInfo h, String path, String query) throws CountsUnavailableException {
    URI uri = URI.create("http://" + h.host() + ":" + h.port() + path + "?" + query);
    try {
      HttpResponse<byte[]> r =
          http.send(
              HttpRequest.newBuilder(uri).timeout(PEER_TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() != 200) {
        throw new CountsUnavailableException(
            "instance "
                + h.host()
                + ":"
                + h.port()
                + " answered "
                + r.statusCode()
                + ": "
                + new String(r.body(), 0, Math.min(r.body().length, 300), StandardCharsets.UTF_8));
      }
      if (r.body().length > MAX_PEER_ANSWER_BYTES) {
        throw new CountsUnavailableException(
            "instance "
                + h.host()
                + ":"
                + h.port()
                + " answered "
                + r.body().length
                + " bytes, over "
                + MAX_PEER_ANSWER_BYTES);
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new CountsUnavailableException(
          "instance " + h.host() + ":" + h.port() + " could not be asked: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CountsUnavailableException(
          "interrupted while asking " + h.host() + ":" + h.port(), e);
    }
  }
}

package io.symbolicate.api.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.Json;
import io.symbolicate.api.server.Route;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads the top crashers of the last 24 hours through the aggregation's HTTP routes
 * ({@code GET /api/top-crashers} and {@code GET /api/signatures/{signature}}), on this server or
 * on the instance that runs {@code aggregate}. A 404 means the aggregation is not running here:
 * the section then says so. Answers are kept for {@link #CACHE_FOR} so that open pages do not
 * multiply queries.
 */
public final class TopCrashersClient {
  /** Signatures listed (each costs one more request for its hours). */
  public static final int LIMIT = 10;

  /** Hours of the chart. */
  public static final int HOURS = 24;

  /** An answer is reused this long. */
  static final Duration CACHE_FOR = Duration.ofSeconds(2);

  /** Bytes read of one answer at most; beyond that the answer is refused. */
  static final int MAX_ANSWER_BYTES = 4 << 20;

  static final Duration TIMEOUT = Duration.ofSeconds(3);

  /**
   * Time for the per-signature hours of one answer: past it, the remaining signatures are listed
   * without their chart rather than holding every page's request for a slow aggregation.
   */
  static final Duration HOURS_BUDGET = Duration.ofSeconds(4);

  private final Supplier<URI> base;
  private final HttpClient http;
  private StatusSnapshot.TopCrashers cached;
  private long cachedAt;

  /** {@code base}: the server's root, e.g. {@code http://127.0.0.1:8080}; null until it is known. */
  public TopCrashersClient(Supplier<URI> base) {
    this.base = base;
    this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  }

  /** The current answer (cached for {@link #CACHE_FOR}). */
  public synchronized StatusSnapshot.TopCrashers topCrashers() {
    long now = System.nanoTime();
    if (cached == null || now - cachedAt > CACHE_FOR.toNanos()) {
      cached = fetch();
      cachedAt = System.nanoTime();
    }
    return cached;
  }

  private StatusSnapshot.TopCrashers fetch() {
    URI root = base.get();
    if (root == null) {
      return disabled("the HTTP server is starting");
    }
    try {
      Answer top =
          get(root.resolve(Route.TOP_CRASHERS.path() + "?since=" + HOURS + "h&limit=" + LIMIT));
      if (top.status() == 404) {
        return disabled("top crashers not enabled");
      }
      if (top.status() != 200) {
        return disabled("top crashers unavailable: HTTP " + top.status());
      }
      JsonNode t = top.body();
      String until = text(t, "until");
      Instant lastHour = hourOf(until, Instant.now());
      List<StatusSnapshot.Crasher> crashers = new ArrayList<>();
      long deadline = System.nanoTime() + HOURS_BUDGET.toNanos();
      String note = null;
      JsonNode list = t.path("crashers");
      for (int i = 0; i < list.size() && i < LIMIT; i++) {
        JsonNode c = list.get(i);
        String signature = text(c, "signature");
        if (signature == null) {
          continue;
        }
        List<Long> hours = List.of();
        if (System.nanoTime() < deadline) {
          hours = hours(root, signature, lastHour);
        } else {
          note = "some per-hour charts left out: the aggregation answered slowly";
        }
        crashers.add(
            new StatusSnapshot.Crasher(
                signature,
                c.path("count").asLong(),
                c.path("share").asDouble(),
                text(c, "first_seen"),
                text(c, "last_seen"),
                text(c, "example_event_id"),
                hours));
      }
      return new StatusSnapshot.TopCrashers(
          true, note, text(t, "since"), until, t.path("total").asLong(), crashers);
    } catch (IOException e) {
      return disabled("top crashers unavailable: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return disabled("top crashers unavailable: interrupted");
    }
  }

  /** The signature's counts per hour over all releases and platforms, the last hour last. */
  private List<Long> hours(URI root, String signature, Instant lastHour)
      throws IOException, InterruptedException {
    long[] counts = new long[HOURS];
    Answer a =
        get(
            root.resolve(
                Route.SIGNATURE.prefix()
                    + URLEncoder.encode(signature, StandardCharsets.UTF_8).replace("+", "%20")));
    if (a.status() == 200) {
      for (JsonNode h : a.body().path("hours")) {
        Instant hour = hourOf(text(h, "hour"), null);
        if (hour == null) {
          continue;
        }
        long back = ChronoUnit.HOURS.between(hour, lastHour);
        if (back >= 0 && back < HOURS) {
          counts[(int) (HOURS - 1 - back)] += Math.max(0, h.path("count").asLong());
        }
      }
    }
    return Arrays.stream(counts).boxed().toList();
  }

  private record Answer(int status, JsonNode body) {}

  private Answer get(URI uri) throws IOException, InterruptedException {
    HttpResponse<InputStream> r =
        http.send(
            HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      if (r.statusCode() != 200) {
        return new Answer(r.statusCode(), null);
      }
      byte[] bytes = in.readNBytes(MAX_ANSWER_BYTES + 1);
      if (bytes.length > MAX_ANSWER_BYTES) {
        throw new IOException(uri.getPath() + " answered more than " + MAX_ANSWER_BYTES + " bytes");
      }
      try {
        JsonNode body = Json.MAPPER.readTree(bytes);
        if (body == null || !body.isObject()) {
          throw new IOException(uri.getPath() + " did not answer a JSON object");
        }
        return new Answer(200, body);
      } catch (JsonProcessingException e) {
        throw new IOException(uri.getPath() + " answered invalid JSON: " + e.getOriginalMessage());
      }
    }
  }

  private static StatusSnapshot.TopCrashers disabled(String why) {
    return new StatusSnapshot.TopCrashers(false, why, null, null, 0, List.of());
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** The start of the hour of an ISO-8601 time (offset or {@code Z}); {@code fallback} if unreadable. */
  static Instant hourOf(String iso, Instant fallback) {
    if (iso == null) {
      return fallback == null ? null : fallback.truncatedTo(ChronoUnit.HOURS);
    }
    try {
      return OffsetDateTime.parse(iso).toInstant().truncatedTo(ChronoUnit.HOURS);
    } catch (DateTimeParseException e) {
      return fallback == null ? null : fallback.truncatedTo(ChronoUnit.HOURS);
    }
  }
}

package io.symbolicate.api.analytics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.analytics.query.CrasherQuery;
import io.symbolicate.analytics.query.CrasherTotal;
import io.symbolicate.analytics.query.TopCrashers;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/top-crashers?release=&platform=&since=&until=&limit=} (docs/api/top-crashers.md):
 * the signatures with the most crashes in whole hours, with their share of all crashes there.
 */
public final class TopCrashersHandler implements Handler {
  static final int DEFAULT_LIMIT = 10;

  private final CrashQueries queries;
  private final Clock clock;

  public TopCrashersHandler(CrashQueries queries, Clock clock) {
    this.queries = queries;
    this.clock = clock;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    Answers.requireGet(request);
    Map<String, String> p =
        QueryString.parse(
            request.rawQuery(), Set.of("release", "platform", "since", "until", "limit"));
    String release = Answers.name("release", p.get("release"));
    String platform = Answers.platform(p.get("platform"));
    TimeRange range = TimeRange.parse(p.get("since"), p.get("until"), Instant.now(clock));
    int limit = limit(p.get("limit"));
    TopCrashers top;
    try {
      top =
          queries.top(
              new CrasherQuery(release, platform, range.sinceHour(), range.untilHour()), limit);
    } catch (CountsUnavailableException e) {
      throw Answers.unavailable(e);
    }
    ObjectNode o = Answers.JSON.createObjectNode();
    o.put("release", release)
        .put("platform", platform)
        .put("since", Instant.ofEpochMilli(range.sinceHour()).toString())
        .put("until", Instant.ofEpochMilli(range.untilHour()).toString())
        .put("total", top.total());
    ArrayNode crashers = o.putArray("crashers");
    for (CrasherTotal t : top.crashers()) {
      crashers
          .addObject()
          .put("signature", t.signature())
          .put("count", t.count())
          .put("share", (double) t.count() / top.total())
          .put("first_seen", Instant.ofEpochMilli(t.firstMs()).toString())
          .put("last_seen", Instant.ofEpochMilli(t.lastMs()).toString())
          .put("example_event_id", t.exampleEventId());
    }
    Answers.send(response, o);
  }

  static int limit(String v) {
    if (v == null) {
      return DEFAULT_LIMIT;
    }
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(
          "limit must be a whole number, not '" + QueryString.printable(v) + "'");
    }
    if (n < 1 || n > TopCrashers.MAX_LIMIT) {
      throw ApiException.badRequest("limit must be between 1 and " + TopCrashers.MAX_LIMIT);
    }
    return n;
  }
}

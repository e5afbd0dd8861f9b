package io.symbolicate.api.analytics;

import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.analytics.query.CrasherQuery;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/internal/top-crashers-part?release=&platform=&since=&until=}, which other
 * instances ask ({@link CrashQueries}): this instance's signature totals for a query whose hours
 * are epoch milliseconds.
 */
public final class TopCrashersPartHandler implements Handler {
  private final CrashQueries queries;

  public TopCrashersPartHandler(CrashQueries queries) {
    this.queries = queries;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    Answers.requireGet(request);
    Map<String, String> p =
        QueryString.parse(request.rawQuery(), Set.of("release", "platform", "since", "until"));
    CrasherQuery q;
    try {
      q =
          new CrasherQuery(
              Answers.name("release", p.get("release")),
              Answers.platform(p.get("platform")),
              millis(p, "since"),
              millis(p, "until"));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    try {
      Answers.send(response, CrashQueries.crashersJson(queries.localCrashers(q)));
    } catch (CountsUnavailableException e) {
      throw Answers.unavailable(e);
    }
  }

  private static long millis(Map<String, String> p, String name) {
    String v = p.get(name);
    if (v == null) {
      throw ApiException.badRequest(name + " is required");
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(name + " must be epoch milliseconds");
    }
  }
}

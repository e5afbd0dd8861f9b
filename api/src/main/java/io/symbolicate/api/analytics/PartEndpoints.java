package io.symbolicate.api.analytics;

import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.analytics.query.CrasherQuery;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * The internal routes other instances ask ({@code Route.TOP_CRASHERS_PART} and
 * {@code Route.SIGNATURE_PART}): this instance's own part of an answer, in epoch
 * milliseconds.
 */
public final class PartEndpoints {
  private PartEndpoints() {}

  /** This instance's signature totals for a query whose hours are epoch ms. */
  public static Handler crashers(CrashQueries queries) {
    return (request, response) -> {
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
      send(response, () -> CrashQueries.crashersJson(queries.localCrashers(q)));
    };
  }

  /** This instance's history of a signature. */
  public static Handler signature(CrashQueries queries) {
    return (request, response) -> {
      Answers.requireGet(request);
      Map<String, String> p = QueryString.parse(request.rawQuery(), Set.of("signature"));
      String sig = p.get("signature");
      if (sig == null || sig.isEmpty()) {
        throw ApiException.badRequest("signature is required");
      }
      send(response, () -> CrashQueries.signatureJson(queries.localSignature(sig)));
    };
  }

  private interface Part {
    com.fasterxml.jackson.databind.JsonNode get() throws CountsUnavailableException;
  }

  private static void send(Response response, Part part) throws IOException {
    try {
      Answers.send(response, part.get());
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

package io.symbolicate.api.analytics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.analytics.query.SignatureHistory;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.Route;
import java.io.IOException;
import java.time.Instant;

/**
 * {@code GET /api/signatures/{signature}} (URL-encoded; docs/api/signatures.md): a signature's
 * crashes per hour, release and platform over the retention, and its latest event ids.
 */
public final class SignatureHandler implements Handler {
  private static final String PREFIX = Route.SIGNATURE.prefix();

  private final CrashQueries queries;

  public SignatureHandler(CrashQueries queries) {
    this.queries = queries;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    Answers.requireGet(request);
    String raw = request.rawPath();
    if (request.rawQuery() != null) {
      throw ApiException.badRequest("this endpoint takes no parameters");
    }
    String signature = QueryString.decode(raw.substring(PREFIX.length()), false);
    if (signature.isEmpty()) {
      throw ApiException.badRequest("no signature after " + PREFIX);
    }
    if (signature.length() > Answers.MAX_NAME_CHARS) {
      throw ApiException.badRequest(
          "signature longer than " + Answers.MAX_NAME_CHARS + " characters");
    }
    SignatureHistory h;
    try {
      h = queries.signature(signature);
    } catch (CountsUnavailableException e) {
      throw Answers.unavailable(e);
    }
    ObjectNode o = Answers.JSON.createObjectNode();
    o.put("signature", signature).put("total", h.total());
    ArrayNode hours = o.putArray("hours");
    for (SignatureHistory.HourCount c : h.hours()) {
      hours
          .addObject()
          .put("hour", Instant.ofEpochMilli(c.hourMs()).toString())
          .put("release", c.release().isEmpty() ? null : c.release())
          .put("platform", c.platform())
          .put("count", c.count());
    }
    ArrayNode recent = o.putArray("recent_event_ids");
    h.recent().forEach(e -> recent.add(e.eventId()));
    Answers.send(response, o);
  }
}

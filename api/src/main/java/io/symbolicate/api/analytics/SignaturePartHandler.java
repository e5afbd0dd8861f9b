package io.symbolicate.api.analytics;

import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/internal/signature-part?signature=}, which other instances ask ({@link
 * CrashQueries}): this instance's history of a signature.
 */
public final class SignaturePartHandler implements Handler {
  private final CrashQueries queries;

  public SignaturePartHandler(CrashQueries queries) {
    this.queries = queries;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    Answers.requireGet(request);
    Map<String, String> p = QueryString.parse(request.rawQuery(), Set.of("signature"));
    String sig = p.get("signature");
    if (sig == null || sig.isEmpty()) {
      throw ApiException.badRequest("signature is required");
    }
    try {
      Answers.send(response, CrashQueries.signatureJson(queries.localSignature(sig)));
    } catch (CountsUnavailableException e) {
      throw Answers.unavailable(e);
    }
  }
}

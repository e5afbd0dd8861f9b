package io.symbolicate.app.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.Route;
import java.io.IOException;

/** {@code GET /health}: the {@link Health} report as JSON, 200 when ready, 503 otherwise. */
public final class HealthHandler implements Handler {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Health health;

  public HealthHandler(Health health) {
    this.health = health;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    if (!HttpHandlers.allowGet(request, response, Route.HEALTH)) {
      return;
    }
    Health.Report r = health.check();
    HttpHandlers.send(
        request,
        response,
        r.ready() ? 200 : 503,
        "application/json",
        JSON.writeValueAsBytes(r.asJson()));
  }
}

package io.symbolicate.app.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/** {@code GET /health}: the {@link Health} report as JSON, 200 when ready, 503 otherwise. */
public final class HealthHandler implements HttpHandler {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Health health;

  public HealthHandler(Health health) {
    this.health = health;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!HttpHandlers.allowGet(exchange)) {
        return;
      }
      Health.Report r = health.check();
      HttpHandlers.send(
          exchange, r.ready() ? 200 : 503, "application/json", JSON.writeValueAsBytes(r.asJson()));
    }
  }
}

package io.symbolicate.app.metrics;

import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.Route;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** {@code GET /metrics}: the scrape of {@link AppMetrics}, {@value AppMetrics#CONTENT_TYPE}. */
public final class MetricsHandler implements Handler {
  private final AppMetrics metrics;

  public MetricsHandler(AppMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    if (!HttpHandlers.allowGet(request, response, Route.METRICS)) {
      return;
    }
    byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
    HttpHandlers.send(request, response, 200, AppMetrics.CONTENT_TYPE, body);
  }
}

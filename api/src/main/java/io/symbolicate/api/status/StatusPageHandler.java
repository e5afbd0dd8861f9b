package io.symbolicate.api.status;

import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** {@code GET /status}: the page, rendered with the current numbers. */
public final class StatusPageHandler implements Handler {
  private final StatusSource source;

  public StatusPageHandler(StatusSource source) {
    this.source = source;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    StatusResponses.requireGet(request, response);
    StatusResponses.send(
        request,
        response,
        "text/html; charset=utf-8",
        StatusHtml.render(source.snapshot()).getBytes(StandardCharsets.UTF_8));
  }
}

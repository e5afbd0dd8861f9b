package io.symbolicate.api.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** {@code GET /status}: the page, rendered with the current numbers. */
public final class StatusPageEndpoint implements HttpHandler {
  private final StatusSource source;

  public StatusPageEndpoint(StatusSource source) {
    this.source = source;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    StatusResponses.requireGet(ex);
    StatusResponses.send(
        ex,
        "text/html; charset=utf-8",
        StatusHtml.render(source.snapshot()).getBytes(StandardCharsets.UTF_8));
  }
}

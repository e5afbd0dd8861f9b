package io.symbolicate.api.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/** {@code GET /status.json}: the same numbers as the page, which its script polls. */
public final class StatusJsonEndpoint implements HttpHandler {
  static final ObjectMapper MAPPER =
      JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

  private final StatusSource source;

  public StatusJsonEndpoint(StatusSource source) {
    this.source = source;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    StatusResponses.requireGet(ex);
    StatusResponses.send(ex, "application/json", MAPPER.writeValueAsBytes(source.snapshot()));
  }
}

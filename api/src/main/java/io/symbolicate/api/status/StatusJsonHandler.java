package io.symbolicate.api.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/** {@code GET /status.json}: the same numbers as the page, which its script polls. */
public final class StatusJsonHandler implements Handler {
  static final ObjectMapper MAPPER =
      JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

  private final StatusSource source;

  public StatusJsonHandler(StatusSource source) {
    this.source = source;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    StatusResponses.requireGet(request, response);
    StatusResponses.send(
        request, response, "application/json", MAPPER.writeValueAsBytes(source.snapshot()));
  }
}

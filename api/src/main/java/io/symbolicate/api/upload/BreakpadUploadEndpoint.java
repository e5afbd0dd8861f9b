package io.symbolicate.api.upload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.api.auth.ApiKeys;
import java.io.IOException;

/**
 * {@code POST /api/symbols-breakpad} (docs/api/symbols-breakpad.md): a Breakpad {@code .sym},
 * or a zip of them in Mozilla's layout, placed by their {@code MODULE} lines.
 */
public final class BreakpadUploadEndpoint implements HttpHandler {
  public static final String PATH = "/api/symbols-breakpad";

  private final ApiKeys keys;
  private final UploadService service;
  private final BreakpadFormat format;

  public BreakpadUploadEndpoint(ApiKeys keys, UploadService service) {
    this.keys = keys;
    this.service = service;
    this.format = new BreakpadFormat(service.limits().maxFileBytes());
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    UploadExchange.handle(
        ex,
        keys,
        service,
        false,
        (h, scope, part, parts, body) ->
            service.receive(scope, format, UploadExchange.uploadId(h, parts), part, parts, body));
  }
}

package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * {@code POST /api/symbols-breakpad} (docs/api/symbols-breakpad.md): a Breakpad {@code .sym},
 * or a zip of them in Mozilla's layout, placed by their {@code MODULE} lines.
 */
public final class BreakpadUploadHandler implements Handler {

  private final ApiKeys keys;
  private final UploadService service;
  private final BreakpadFormat format;

  public BreakpadUploadHandler(ApiKeys keys, UploadService service) {
    this.keys = keys;
    this.service = service;
    this.format =
        new BreakpadFormat(service.limits().maxFileBytes(), service.limits()::maxExpandedBytes);
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    UploadExchange.handle(
        request,
        response,
        keys,
        service,
        false,
        (h, scope, part, parts, body) ->
            service.receive(scope, format, UploadExchange.uploadId(h, parts), part, parts, body));
  }
}

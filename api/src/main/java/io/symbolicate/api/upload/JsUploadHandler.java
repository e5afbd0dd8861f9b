package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * {@code POST /api/symbols-sourcemap} and {@code /api/symbols-minified}
 * (docs/api/symbols-sourcemap.md): a sourcemap or its minified file, named by {@code DebugID},
 * or by {@code Release}, {@code Dist} and {@code URL}.
 */
public final class JsUploadHandler implements Handler {

  private final JsFormat.Kind kind;
  private final ApiKeys keys;
  private final UploadService service;

  public JsUploadHandler(JsFormat.Kind kind, ApiKeys keys, UploadService service) {
    this.kind = kind;
    this.keys = keys;
    this.service = service;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    UploadExchange.handle(
        request,
        response,
        keys,
        service,
        false,
        (h, scope, part, parts, body) -> {
          JsFormat format =
              JsFormat.of(
                  kind,
                  h.header("DebugID"),
                  h.header("Release"),
                  h.header("Dist"),
                  h.header("URL"),
                  service.limits().maxFileBytes());
          service.receive(scope, format, format.id(), part, parts, body);
        });
  }
}

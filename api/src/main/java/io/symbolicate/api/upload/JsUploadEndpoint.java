package io.symbolicate.api.upload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.api.auth.ApiKeys;
import java.io.IOException;

/**
 * {@code POST /api/symbols-sourcemap} and {@code /api/symbols-minified}
 * (docs/api/symbols-sourcemap.md): a sourcemap or its minified file, named by {@code DebugID},
 * or by {@code Release}, {@code Dist} and {@code URL}.
 */
public final class JsUploadEndpoint implements HttpHandler {
  public static final String SOURCEMAP_PATH = "/api/symbols-sourcemap";
  public static final String MINIFIED_PATH = "/api/symbols-minified";

  private final JsFormat.Kind kind;
  private final ApiKeys keys;
  private final UploadService service;

  public JsUploadEndpoint(JsFormat.Kind kind, ApiKeys keys, UploadService service) {
    this.kind = kind;
    this.keys = keys;
    this.service = service;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    UploadExchange.handle(
        ex,
        keys,
        service,
        false,
        (h, scope, part, parts, body) -> {
          JsFormat format =
              JsFormat.of(
                  kind,
                  h.getFirst("DebugID"),
                  h.getFirst("Release"),
                  h.getFirst("Dist"),
                  h.getFirst("URL"),
                  service.limits().maxFileBytes());
          service.receive(scope, format, format.id(), part, parts, body);
        });
  }
}

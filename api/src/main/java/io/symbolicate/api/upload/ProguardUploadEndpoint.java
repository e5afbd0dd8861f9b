package io.symbolicate.api.upload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.api.auth.ApiKeys;
import java.io.IOException;

/**
 * {@code POST /api/symbols-proguard} (docs/api/symbols-proguard.md): a ProGuard/R8 mapping under
 * the {@code UUID} header, or the UUID of its bytes.
 */
public final class ProguardUploadEndpoint implements HttpHandler {
  public static final String PATH = "/api/symbols-proguard";

  private final ApiKeys keys;
  private final UploadService service;

  public ProguardUploadEndpoint(ApiKeys keys, UploadService service) {
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
          ProguardFormat format =
              new ProguardFormat(h.getFirst("UUID"), service.limits().maxFileBytes());
          String id = format.uuid() != null ? format.uuid() : UploadExchange.uploadId(h, parts);
          service.receive(scope, format, id, part, parts, body);
        });
  }
}

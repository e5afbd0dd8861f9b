package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * {@code POST /api/symbols-proguard} (docs/api/symbols-proguard.md): a ProGuard/R8 mapping under
 * the {@code UUID} header, or the UUID of its bytes.
 */
public final class ProguardUploadHandler implements Handler {

  private final ApiKeys keys;
  private final UploadService service;

  public ProguardUploadHandler(ApiKeys keys, UploadService service) {
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
          ProguardFormat format =
              new ProguardFormat(h.header("UUID"), service.limits().maxFileBytes());
          String id = format.uuid() != null ? format.uuid() : UploadExchange.uploadId(h, parts);
          service.receive(scope, format, id, part, parts, body);
        });
  }
}

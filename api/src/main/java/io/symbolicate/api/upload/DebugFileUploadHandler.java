package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * {@code POST /api/symbols-debugfile} (docs/api/symbols-debugfile.md): native debug files (ELF,
 * Mach-O, a dSYM zip, or a zip of several), told by their magic. A single file is named by the
 * {@code DebugFile} header; a {@code DebugID} header, when sent, must be the file's.
 */
public final class DebugFileUploadHandler implements Handler {

  private final ApiKeys keys;
  private final UploadService service;

  public DebugFileUploadHandler(ApiKeys keys, UploadService service) {
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
          DebugFileFormat format =
              new DebugFileFormat(
                  blankToNull(h.header("DebugFile")),
                  blankToNull(h.header("DebugID")),
                  service.limits().maxFileBytes());
          service.receive(scope, format, UploadExchange.uploadId(h, parts), part, parts, body);
        });
  }

  static String blankToNull(String v) {
    return v == null || v.isBlank() ? null : v.strip();
  }
}

package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * {@code POST /api/symbols-ranges} and {@code /api/symbols-returnpads} (Elastic's symbfile
 * upload, docs/api/symbols-upload.md): one part of a symbfile per request, named by the
 * {@code FileID}, {@code FilePart} and {@code FileParts} headers.
 */
public final class SymbfileUploadHandler implements Handler {

  private final SymbfileFormat format;
  private final ApiKeys keys;
  private final UploadService service;

  public SymbfileUploadHandler(SymbfileFormat format, ApiKeys keys, UploadService service) {
    this.format = format;
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
        true,
        (h, scope, part, parts, body) ->
            service.receive(
                scope,
                format,
                SymbfileFormat.id(UploadExchange.required(h, "FileID")),
                part,
                parts,
                body));
  }
}

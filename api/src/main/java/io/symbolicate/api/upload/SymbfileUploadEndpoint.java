package io.symbolicate.api.upload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.api.auth.ApiKeys;
import java.io.IOException;

/**
 * {@code POST /api/symbols-ranges} and {@code /api/symbols-returnpads} (Elastic's symbfile
 * upload, docs/api/symbols-upload.md): one part of a symbfile per request, named by the
 * {@code FileID}, {@code FilePart} and {@code FileParts} headers.
 */
public final class SymbfileUploadEndpoint implements HttpHandler {
  public static final String RANGES_PATH = "/api/symbols-ranges";
  public static final String RETURN_PADS_PATH = "/api/symbols-returnpads";

  private final SymbfileFormat format;
  private final ApiKeys keys;
  private final UploadService service;

  public SymbfileUploadEndpoint(SymbfileFormat format, ApiKeys keys, UploadService service) {
    this.format = format;
    this.keys = keys;
    this.service = service;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    UploadExchange.handle(
        ex,
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

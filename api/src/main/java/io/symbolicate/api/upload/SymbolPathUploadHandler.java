package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.Route;
import io.symbolicate.symbols.id.DebugFileLayout;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code PUT} or {@code POST /api/symbols/<debug_file>/<debug_id>/<debug_file>}
 * (docs/api/symbols-path.md): a native debug file sent to the key it is stored under, as to a
 * symbol server's native layout. The file's debug id (or code id) must be the URL's; a fat file
 * stores the slice the URL names.
 */
public final class SymbolPathUploadHandler implements Handler {
  private static final String PREFIX = Route.SYMBOLS_PATH.prefix();

  private final ApiKeys keys;
  private final UploadService service;

  public SymbolPathUploadHandler(ApiKeys keys, UploadService service) {
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
        List.of("PUT", "POST"),
        (h, scope, part, parts, body) -> {
          DebugFileFormat format = format(h.rawPath(), service.limits().maxFileBytes());
          service.receive(scope, format, UploadExchange.uploadId(h, parts), part, parts, body);
        });
  }

  /** The format of a path {@code <prefix><debug_file>/<debug_id>/<debug_file>}. */
  static DebugFileFormat format(String rawPath, long maxFileBytes) throws UploadError {
    String rest = rawPath.startsWith(PREFIX) ? rawPath.substring(PREFIX.length()) : "";
    String[] s = rest.split("/", -1);
    if (s.length != 3 || s[0].isEmpty() || s[1].isEmpty()) {
      throw UploadError.badRequest(
          "the path must be " + PREFIX + "<debug_file>/<debug_id>/<debug_file>");
    }
    String file = decode(s[0]);
    String last = decode(s[2]);
    // a source bundle beside the debug file: <debug_file>/<debug_id>/<name>.src.zip
    boolean bundle =
        last.equals(DebugFileLayout.sourceBundleName(file)) || last.equals(file + ".src.zip");
    if (!file.equals(last) && !bundle) {
      throw UploadError.badRequest(
          "the path must name the debug file twice (<debug_file>/<debug_id>/<debug_file>),"
              + " not "
              + file
              + " and "
              + last);
    }
    return new DebugFileFormat(file, decode(s[1]), maxFileBytes);
  }

  private static String decode(String segment) throws UploadError {
    try {
      return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw UploadError.badRequest("the path has a bad percent-encoding: " + e.getMessage());
    }
  }
}

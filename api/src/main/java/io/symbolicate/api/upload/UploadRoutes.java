package io.symbolicate.api.upload;

import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Handler;
import java.util.LinkedHashMap;
import java.util.Map;

/** The upload routes, path to handler, over one service (the app mounts them on the API server). */
public final class UploadRoutes {
  private UploadRoutes() {}

  public static Map<String, Handler> all(ApiKeys keys, UploadService service) {
    Map<String, Handler> m = new LinkedHashMap<>();
    m.put(
        SymbfileUploadEndpoint.RANGES_PATH,
        new SymbfileUploadEndpoint(SymbfileFormat.RANGES, keys, service));
    m.put(
        SymbfileUploadEndpoint.RETURN_PADS_PATH,
        new SymbfileUploadEndpoint(SymbfileFormat.RETURN_PADS, keys, service));
    m.put(BreakpadUploadEndpoint.PATH, new BreakpadUploadEndpoint(keys, service));
    m.put(
        JsUploadEndpoint.SOURCEMAP_PATH,
        new JsUploadEndpoint(JsFormat.Kind.SOURCEMAP, keys, service));
    m.put(
        JsUploadEndpoint.MINIFIED_PATH,
        new JsUploadEndpoint(JsFormat.Kind.MINIFIED, keys, service));
    m.put(ProguardUploadEndpoint.PATH, new ProguardUploadEndpoint(keys, service));
    return m;
  }
}

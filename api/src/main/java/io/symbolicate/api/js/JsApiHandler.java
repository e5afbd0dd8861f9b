package io.symbolicate.api.js;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.RequestStats;
import io.symbolicate.api.ShapeHandler;
import io.symbolicate.api.Symbolication;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.JsException;
import io.symbolicate.schema.JsFrame;
import io.symbolicate.schema.JsModule;
import io.symbolicate.schema.JsPayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code POST /symbolicate-js}: Symbolicator's JavaScript request and response. The request's
 * stack traces become the exceptions of one JavaScript {@link CrashEvent} (its modules, release
 * and dist kept), which the stream's {@code JsSymbolicator} symbolicates; the result comes back
 * as Symbolicator's {@code stacktraces}, {@code raw_stacktraces}, {@code errors} and
 * {@code scraping_attempts}, plus our per-frame {@code status}. See docs/js.md, "HTTP endpoint".
 */
public final class JsApiHandler extends ShapeHandler<JsRequest> {
  public static final int DEFAULT_MAX_MODULES = 10_000;

  private final JsRequestReader reader;

  /** At most {@code http.max.frames} frames and {@link #DEFAULT_MAX_MODULES} modules. */
  public JsApiHandler(Symbolication shared) {
    this(shared, DEFAULT_MAX_MODULES);
  }

  public JsApiHandler(Symbolication shared, int maxModules) {
    super(shared);
    this.reader = new JsRequestReader(shared.settings().maxFrames(), maxModules);
  }

  @Override
  public JsRequest parse(JsonNode body) {
    return reader.read(body);
  }

  /** One event holding every stack trace (as exceptions, in order) and every module. */
  @Override
  public List<CrashEvent> events(JsRequest request, String scope) {
    List<JsModule> modules = new ArrayList<>(request.modules().size());
    for (JsRequest.Module m : request.modules()) {
      modules.add(
          JsModule.newBuilder()
              .setType("sourcemap")
              .setCodeFile(m.codeFile())
              .setDebugId(m.debugId())
              .build());
    }
    List<JsException> exceptions = new ArrayList<>(request.stacktraces().size());
    for (JsRequest.Stacktrace s : request.stacktraces()) {
      List<JsFrame> frames = new ArrayList<>(s.frames().size());
      for (JsRequest.Frame f : s.frames()) {
        frames.add(new JsFrame(f.absPath(), f.lineno(), f.colno(), f.function()));
      }
      exceptions.add(
          JsException.newBuilder().setType(null).setValue(null).setFrames(frames).build());
    }
    CrashEvent event =
        CrashEvent.newBuilder()
            .setEventId("http-js-" + UUID.randomUUID())
            .setScope(scope)
            .setPlatform(Platform.javascript)
            .setRelease(request.release())
            .setDist(request.dist())
            .setAttributes(Map.of("api", "symbolicate-js"))
            .setJavascript(
                JsPayload.newBuilder().setModules(modules).setExceptions(exceptions).build())
            .build();
    return List.of(event);
  }

  @Override
  public JsonNode render(JsRequest request, List<SymbolicatedEvent> results, RequestStats stats) {
    if (results.size() != 1) {
      throw new ApiException(500, "expected one symbolicated event, got " + results.size());
    }
    return new JsResponseWriter(request, results.get(0)).write();
  }
}

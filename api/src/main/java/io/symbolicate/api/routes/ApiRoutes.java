package io.symbolicate.api.routes;

import io.symbolicate.api.Admission;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.ApiShape;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.ShapeEndpoint;

import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.api.js.JsApiShape;
import io.symbolicate.api.jvm.JvmApiShape;
import io.symbolicate.api.nativecode.MozillaV4Shape;
import io.symbolicate.api.nativecode.MozillaV5Shape;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every route of the API, in one place: a symbolication endpoint is a path and an
 * {@link ApiShape} ({@link #post}); anything else a path and a JDK handler ({@link #handler},
 * e.g. metrics and health). All symbolication endpoints share one admission limit.
 */
public final class ApiRoutes {
  private final ApiSymbolicator symbolicator;
  private final ApiSettings settings;
  private final Admission admission;
  private final Map<String, HttpHandler> routes = new LinkedHashMap<>();

  public ApiRoutes(ApiSymbolicator symbolicator, ApiSettings settings) {
    this.symbolicator = symbolicator;
    this.settings = settings;
    this.admission = new Admission(settings.maxInFlight(), settings.inFlightBytesBudget());
  }

  /**
   * The symbolication endpoints: Mozilla's native ones and Symbolicator's JS and JVM ones (their
   * frame limit is the server's, checked as they parse); metrics and health are {@code .handler("/metrics", ...)} in
   * {@code app.ApiRuntime.routes}.
   */
  public static ApiRoutes standard(ApiSymbolicator symbolicator, ApiSettings settings) {
    return new ApiRoutes(symbolicator, settings)
        .post("/symbolicate/v5", new MozillaV5Shape(settings.maxFrames()))
        .post("/symbolicate/v4", new MozillaV4Shape(settings.maxFrames()))
        .post("/", new MozillaV4Shape(settings.maxFrames())) // Mozilla's legacy URL for v4
        .post("/symbolicate-js", new JsApiShape(settings.maxFrames(), JsApiShape.DEFAULT_MAX_MODULES))
        .post("/symbolicate-jvm", new JvmApiShape(settings.maxFrames(), JvmApiShape.DEFAULT_MAX_MODULES));
  }

  /** A symbolication endpoint: POST of the shape's JSON. */
  public ApiRoutes post(String path, ApiShape<?> shape) {
    routes.put(path, new ShapeEndpoint<>(shape, symbolicator, settings, admission));
    return this;
  }

  /** Any other endpoint (not subject to admission control). */
  public ApiRoutes handler(String path, HttpHandler handler) {
    routes.put(path, handler);
    return this;
  }

  public ApiSettings settings() {
    return settings;
  }

  /** Requests being symbolicated now. */
  public int inFlight() {
    return admission.inFlight();
  }

  /** Heap the requests in flight claimed. */
  public long claimedBytes() {
    return admission.claimedBytes();
  }

  /** Bytes of answers being written to their clients. */
  public long writingBytes() {
    return admission.writingBytes();
  }

  /** Requests refused with 503 so far. */
  public long refused() {
    return admission.refused();
  }

  Map<String, HttpHandler> routes() {
    return Collections.unmodifiableMap(routes);
  }
}

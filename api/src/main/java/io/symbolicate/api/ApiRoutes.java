package io.symbolicate.api;

import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.server.Handler;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every route of the API, in one place: a symbolication endpoint is a path and an
 * {@link ApiShape} ({@link #post}; the app adds the standard ones); anything else a path and a {@link Handler} ({@link #handler},
 * e.g. metrics and health). All symbolication endpoints share one admission limit.
 */
public final class ApiRoutes {
  private final ApiSymbolicator symbolicator;
  private final ApiSettings settings;
  private final Admission admission;
  private final Map<String, Handler> routes = new LinkedHashMap<>();
  private final Map<String, Handler> prefixRoutes = new LinkedHashMap<>();

  /** Who may read which scope on the symbolication endpoints; read per request. */
  private volatile ScopeAccess access = ScopeAccess.DEFAULT;

  public ApiRoutes(ApiSymbolicator symbolicator, ApiSettings settings) {
    this.symbolicator = symbolicator;
    this.settings = settings;
    this.admission = new Admission(settings.maxInFlight(), settings.inFlightBytesBudget());
  }

  /** A symbolication endpoint: POST of the shape's JSON. */
  public ApiRoutes post(String path, ApiShape<?> shape) {
    routes.put(path, new ShapeEndpoint<>(shape, symbolicator, settings, admission, this::access));
    return this;
  }

  /** A symbolication endpoint that takes a file as multipart/form-data (same admission). */
  public ApiRoutes postFile(String path, FileRoute route) {
    routes.put(path, new FileEndpoint(route, symbolicator, settings, admission, this::access));
    return this;
  }

  /**
   * The keys and anonymous scopes of the symbolication endpoints (docs/api/keys.md); by default
   * {@link ScopeAccess#DEFAULT}: no keys, anonymous requests read the global scope only.
   */
  public ApiRoutes withAccess(ScopeAccess a) {
    this.access = java.util.Objects.requireNonNull(a, "access");
    return this;
  }

  public ScopeAccess access() {
    return access;
  }

  /** Any other endpoint (not subject to admission control). */
  public ApiRoutes handler(String path, Handler handler) {
    routes.put(path, handler);
    return this;
  }

  /**
   * An endpoint for every path under {@code prefix} (which ends with {@code /}), such as
   * {@code /api/signatures/} for {@code GET /api/signatures/{signature}}; the handler reads the rest.
   */
  public ApiRoutes handlerUnder(String prefix, Handler handler) {
    if (!prefix.endsWith("/")) {
      throw new IllegalArgumentException("a prefix route ends with /: " + prefix);
    }
    prefixRoutes.put(prefix, handler);
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

  /** Path to handler, in the order they were added. */
  public Map<String, Handler> routes() {
    return Collections.unmodifiableMap(routes);
  }

  /** Prefix to handler, for the paths under each prefix. */
  public Map<String, Handler> prefixRoutes() {
    return Collections.unmodifiableMap(prefixRoutes);
  }
}

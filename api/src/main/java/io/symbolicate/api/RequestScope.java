package io.symbolicate.api;

import io.symbolicate.api.auth.Action;
import io.symbolicate.api.auth.ApiKeyException;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.symbols.id.DebugIdentifiers;

/**
 * Which scope a symbolication request reads, the same for the JSON and the file endpoints:
 * the key's, or the one it names when anonymous requests may read it (docs/api/keys.md), and
 * only the global scope from a page of an origin not listed by name (http.cors.origins).
 */
final class RequestScope {
  private RequestScope() {}

  /**
   * The scope this request reads: its key's, or the one it names (or the global one) when
   * anonymous requests may read it ({@link ScopeAccess}). A page of another origin reads only the
   * global scope unless its origin is listed by name (http.cors.origins).
   */
  static String of(Request request, Response response, ApiSettings settings, ScopeAccess access) {
    String s = request.header(ShapeHandler.SCOPE_HEADER);
    String named = null;
    if (s != null && !s.isEmpty()) {
      try {
        named = DebugIdentifiers.requireScope(s);
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest(
            "invalid " + ShapeHandler.SCOPE_HEADER + ": " + e.getMessage());
      }
    }
    // behind the preflight, which offers the header only to listed origins: a browser's request
    // from any other page (a preflight cached before the list changed) is refused here too
    String origin = request.header("Origin");
    boolean scopesAllowed = origin == null || settings.cors().allowsScope(origin);
    if (named != null && !scopesAllowed) {
      throw new ApiException(
          403,
          ShapeHandler.SCOPE_HEADER
              + " is not allowed from origin "
              + shorten(origin)
              + " (http.cors.origins)");
    }
    String scope;
    try {
      scope = access.scopeFor(named, request.header("Authorization"), Action.SYMBOLICATE);
    } catch (ApiKeyException e) {
      if (e.status() == 401) {
        response.header("WWW-Authenticate", "APIKey");
      }
      throw new ApiException(e.status(), e.getMessage());
    }
    // a key bound to a tenant, sent from a page of an origin not listed: no private symbols either
    if (!scopesAllowed && !DebugIdentifiers.GLOBAL_SCOPE.equals(scope)) {
      throw new ApiException(
          403,
          "scope '"
              + scope
              + "' is not readable from origin "
              + shorten(origin)
              + " (http.cors.origins)");
    }
    return scope;
  }

  private static String shorten(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}

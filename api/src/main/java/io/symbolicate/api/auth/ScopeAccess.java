package io.symbolicate.api.auth;

import io.symbolicate.symbols.id.DebugIdentifiers;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Who may read which scope's symbols on the read routes (the symbolication endpoints): a request
 * with a key reads the key's scope (then the global one) when the key may take the route's
 * action; a request without a key reads only the scopes configured as anonymous
 * ({@code api.anonymous.scopes}, by default the global scope). docs/api/keys.md.
 */
public final class ScopeAccess {
  /** No keys; anonymous requests read the global scope only. */
  public static final ScopeAccess DEFAULT =
      new ScopeAccess(ApiKeys.none(), Set.of(DebugIdentifiers.GLOBAL_SCOPE));

  private final ApiKeys keys;
  private final Set<String> anonymous;

  public ScopeAccess(ApiKeys keys, Set<String> anonymousScopes) {
    this.keys = keys;
    this.anonymous = Set.copyOf(anonymousScopes);
  }

  /**
   * The scopes anonymous requests may read: {@code none} (or empty) for none, else scope names
   * separated by commas. An invalid name is an {@link IllegalArgumentException} naming it.
   */
  public static Set<String> parseAnonymousScopes(String spec) {
    String s = spec == null ? "" : spec.strip();
    Set<String> out = new LinkedHashSet<>();
    if (s.isEmpty() || s.equalsIgnoreCase("none")) {
      return Set.of();
    }
    for (String part : s.split(",")) {
      String scope = part.strip();
      if (scope.isEmpty()) {
        continue;
      }
      try {
        out.add(DebugIdentifiers.requireScope(scope));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "invalid anonymous scope '"
                + (scope.length() > 80 ? scope.substring(0, 80) + "..." : scope)
                + "': "
                + e.getMessage());
      }
    }
    return Set.copyOf(out);
  }

  /** The scopes a request without a key may read. */
  public Set<String> anonymousScopes() {
    return anonymous;
  }

  /**
   * The scope a request may read. {@code requestedScope} is the request's (valid) scope header,
   * or null; {@code authorization} its {@code Authorization} header, or null.
   *
   * <ul>
   *   <li>with a key: the key's scope, when the key may take {@code action} (else 403, or 401 for
   *       a header that is not {@code APIKey <key>}) and the request names no other scope (403);
   *   <li>without: the named scope, or the global one, when anonymous requests may read it; else
   *       403 for a named scope, 401 when not even the global scope is anonymous.
   * </ul>
   */
  public String scopeFor(String requestedScope, String authorization, Action action)
      throws ApiKeyException {
    String requested = requestedScope == null || requestedScope.isEmpty() ? null : requestedScope;
    if (authorization != null && !authorization.isBlank()) {
      String keyScope = keys.authorize(authorization, action);
      if (requested != null && !requested.equals(keyScope)) {
        throw new ApiKeyException(
            403, "the API key is for scope '" + keyScope + "', not '" + requested + "'");
      }
      return keyScope;
    }
    String scope = requested == null ? DebugIdentifiers.GLOBAL_SCOPE : requested;
    if (anonymous.contains(scope)) {
      return scope;
    }
    if (requested == null) {
      throw new ApiKeyException(
          401,
          "an Authorization: APIKey header is required (no scope is open to anonymous "
              + "requests: api.anonymous.scopes)");
    }
    throw new ApiKeyException(
        403,
        "scope '"
            + requested
            + "' needs an API key allowed to "
            + action.configName()
            + " in it (Authorization: APIKey <key>)");
  }
}

package io.symbolicate.api.auth;

import io.symbolicate.symbols.id.DebugIdentifiers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * API keys, configured as SHA-256 hashes (never the keys themselves), each bound to one scope and
 * to the actions it may take there: {@code <sha256 hex>=<scope>:<action>[+<action>...]}, entries
 * separated by commas, e.g. {@code 9f86...=acme:upload+symbolicate}. A request names its key as
 * {@code Authorization: APIKey <key>} (Elastic's form). Shared by every route that takes keys
 * (docs/api/keys.md).
 */
public final class ApiKeys {
  /** The longest key we hash: a longer header is refused before any work. */
  public static final int MAX_KEY_CHARS = 512;

  private static final String SCHEME = "APIKey ";

  private final Map<String, Grant> byHash;

  private ApiKeys(Map<String, Grant> byHash) {
    this.byHash = byHash;
  }

  /** No key at all: every request that needs one is refused. */
  public static ApiKeys none() {
    return new ApiKeys(Map.of());
  }

  /**
   * Parses the configuration's list. A malformed entry is an {@link IllegalArgumentException}
   * naming it (by its hash only), so a typo stops the start-up instead of locking users out.
   */
  public static ApiKeys parse(String spec) {
    Map<String, Grant> m = new LinkedHashMap<>();
    if (spec != null) {
      for (String entry : spec.split(",")) {
        String e = entry.strip();
        if (e.isEmpty()) {
          continue;
        }
        int eq = e.indexOf('=');
        String hash = (eq < 0 ? e : e.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
        if (!hash.matches("[0-9a-f]{64}")) {
          throw new IllegalArgumentException(
              "an API key hash is 64 hex digits (SHA-256 of the key), got '"
                  + (hash.length() > 80 ? hash.substring(0, 80) + "..." : hash)
                  + "'");
        }
        String grant = eq < 0 ? "" : e.substring(eq + 1).strip();
        int colon = grant.indexOf(':');
        if (colon <= 0 || colon == grant.length() - 1) {
          throw new IllegalArgumentException(
              "API key "
                  + hash
                  + " must be bound as <scope>:<action>[+<action>...], got '"
                  + grant
                  + "'");
        }
        String scope = grant.substring(0, colon).strip();
        try {
          DebugIdentifiers.requireScope(scope);
        } catch (IllegalArgumentException x) {
          throw new IllegalArgumentException("API key " + hash + ": invalid scope '" + scope + "'");
        }
        Set<Action> actions = EnumSet.noneOf(Action.class);
        for (String a : grant.substring(colon + 1).split("\\+")) {
          actions.add(Action.parse(a.strip().toLowerCase(Locale.ROOT)));
        }
        if (m.put(hash, new Grant(scope, actions)) != null) {
          throw new IllegalArgumentException("API key " + hash + " is listed twice");
        }
      }
    }
    return new ApiKeys(Map.copyOf(m));
  }

  /** The hash to configure for a key. */
  public static String hash(String key) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The grant of a key, or null when it is not one of ours. */
  public Grant grantOf(String key) {
    return key == null || key.isEmpty() || key.length() > MAX_KEY_CHARS
        ? null
        : byHash.get(hash(key));
  }

  /**
   * The scope a request's {@code Authorization} header may act in: 401 without an
   * {@code APIKey} header, 403 for a key that is not ours or may not take {@code action}.
   */
  public String authorize(String authorizationHeader, Action action) throws ApiKeyException {
    if (authorizationHeader == null || authorizationHeader.isBlank()) {
      throw new ApiKeyException(401, "an Authorization: APIKey header is required");
    }
    String h = authorizationHeader.strip();
    if (!h.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      throw new ApiKeyException(401, "the Authorization header must be 'APIKey <key>'");
    }
    Grant g = grantOf(h.substring(SCHEME.length()).strip());
    if (g == null) {
      throw new ApiKeyException(403, "the API key is not valid");
    }
    if (!g.allows(action)) {
      throw new ApiKeyException(403, "the API key may not " + action.configName());
    }
    return g.scope();
  }

  /** Whether some key may take {@code action}. */
  public boolean anyAllows(Action action) {
    return byHash.values().stream().anyMatch(g -> g.allows(action));
  }

  public boolean isEmpty() {
    return byHash.isEmpty();
  }
}

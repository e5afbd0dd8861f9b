package io.symbolicate.api.upload;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Upload API keys, configured as SHA-256 hashes (never the keys themselves), each bound to the
 * scope its uploads go to: {@code <sha256 hex>=<scope>,...}.
 */
public final class ApiKeys {
  private final Map<String, String> scopeByHash;

  private ApiKeys(Map<String, String> scopeByHash) {
    this.scopeByHash = scopeByHash;
  }

  /** Parses {@code hash=scope,hash=scope}; an empty spec allows no key at all. */
  public static ApiKeys parse(String spec) {
    Map<String, String> m = new LinkedHashMap<>();
    if (spec != null) {
      for (String entry : spec.split(",")) {
        String e = entry.strip();
        if (e.isEmpty()) {
          continue;
        }
        int eq = e.indexOf('=');
        String hash = (eq < 0 ? e : e.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
        String scope = eq < 0 ? "global" : e.substring(eq + 1).strip();
        if (!hash.matches("[0-9a-f]{64}")) {
          throw new IllegalArgumentException("an API key hash is 64 hex digits (SHA-256), got '" + hash + "'");
        }
        if (scope.isEmpty()) {
          throw new IllegalArgumentException("API key hash " + hash + " has an empty scope");
        }
        m.put(hash, scope);
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

  /** The scope of a key, or null when it is not one of ours. */
  public String scopeOf(String key) {
    return key == null || key.isEmpty() ? null : scopeByHash.get(hash(key));
  }

  public boolean isEmpty() {
    return scopeByHash.isEmpty();
  }
}

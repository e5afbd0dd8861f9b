package io.symbolicate.api;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which web pages of other origins may call the symbolication endpoints from a browser
 * ({@code http.cors.origins}): any ({@code *}, as Mozilla's public API, which the Firefox
 * Profiler calls), none, or a list. A tenant's private symbols ({@link ShapeHandler#SCOPE_HEADER})
 * are offered only to listed origins: with {@code *}, any page a user opens could otherwise read
 * them through the user's browser from an instance inside the user's network. The health and
 * metrics endpoints never answer other origins.
 */
public final class CorsPolicy {
  /** Any origin, the global scope only. */
  public static final CorsPolicy ANY = new CorsPolicy(true, Set.of());

  /** No cross-origin calls at all. */
  public static final CorsPolicy NONE = new CorsPolicy(false, Set.of());

  private final boolean any;
  private final Set<String> origins;

  private CorsPolicy(boolean any, Set<String> origins) {
    this.any = any;
    this.origins = origins;
  }

  /**
   * {@code *}, {@code none} (or empty), or origins separated by commas, each
   * {@code scheme://host[:port]} as browsers send it.
   */
  public static CorsPolicy parse(String spec) {
    String s = spec == null ? "" : spec.trim();
    if (s.equals("*")) {
      return ANY;
    }
    if (s.isEmpty() || s.equalsIgnoreCase("none")) {
      return NONE;
    }
    List<String> list = new ArrayList<>();
    for (String part : s.split(",")) {
      String o = part.trim();
      if (o.isEmpty()) {
        continue;
      }
      if (o.equals("*")) {
        throw new IllegalArgumentException("http.cors.origins: '*' stands alone, not in a list");
      }
      list.add(requireOrigin(o));
    }
    if (list.isEmpty()) {
      return NONE;
    }
    return new CorsPolicy(false, Set.copyOf(list));
  }

  private static String requireOrigin(String o) {
    URI u;
    try {
      u = new URI(o);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "http.cors.origins: '" + o + "' is not an origin (scheme://host[:port])");
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    String path = u.getRawPath();
    boolean bare =
        (path == null || path.isEmpty() || path.equals("/"))
            && u.getRawQuery() == null
            && u.getRawFragment() == null
            && u.getRawUserInfo() == null;
    if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || !bare) {
      throw new IllegalArgumentException(
          "http.cors.origins: '"
              + o
              + "' is not an origin (scheme://host[:port], "
              + "http or https, no path; a host of letters, digits, dots and hyphens: international names in punycode)");
    }
    // browsers send the origin lower-case, without a default port, IPv6 in its shortest form
    int port = u.getPort();
    boolean defaultPort =
        port == -1 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
    String host = u.getHost().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      host = "[" + shortIpv6(host.substring(1, host.length() - 1), o) + "]";
    }
    return scheme + "://" + host + (defaultPort ? "" : ":" + port);
  }

  /** An IPv6 literal as browsers serialise it (RFC 5952: lower case, the longest run of zeros as ::). */
  private static String shortIpv6(String literal, String origin) {
    byte[] a;
    try {
      a = InetAddress.getByName("[" + literal + "]").getAddress(); // a literal: no lookup
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "http.cors.origins: '" + origin + "' has no valid IPv6 address");
    }
    if (a.length != 16) {
      throw new IllegalArgumentException(
          "http.cors.origins: '" + origin + "' has no valid IPv6 address");
    }
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = (a[2 * i] & 0xff) << 8 | a[2 * i + 1] & 0xff;
    }
    int bestStart = -1;
    int bestLen = 1; // a single zero group is not shortened
    for (int i = 0; i < 8; ) {
      if (g[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  /** The {@code Access-Control-Allow-Origin} value for a request from {@code origin}, or null for none. */
  String allowOrigin(String origin) {
    if (any) {
      return "*";
    }
    return origin != null && origins.contains(origin) ? origin : null;
  }

  /** Whether a page of {@code origin} may name a scope (use a tenant's private symbols). */
  boolean allowsScope(String origin) {
    return !any && origin != null && origins.contains(origin);
  }

  /** Whether the answer depends on the request's origin (then it says {@code Vary: Origin}). */
  boolean variesByOrigin() {
    return !origins.isEmpty();
  }

  @Override
  public String toString() {
    return any ? "*" : origins.isEmpty() ? "none" : String.join(",", origins);
  }
}

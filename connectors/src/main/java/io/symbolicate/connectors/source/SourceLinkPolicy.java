package io.symbolicate.connectors.source;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which Source Link URLs may be fetched, and from where: a list of allowed URL prefixes ({@code
 * symbolication.source.link.allow}), each optionally fetched from a mirror ({@code PREFIX=MIRROR}:
 * the rest of the URL after the prefix is appended to the mirror), and whether private, loopback
 * and other reserved addresses may be connected to. No prefix: nothing is fetched (the default).
 *
 * <p>A URL is matched after {@link URI#normalize()} (so {@code ..} cannot climb out of a prefix),
 * on its scheme and host (case-insensitive), port and path; URLs with user info, or with an
 * encoded dot, slash or backslash in the path (which a server may decode into {@code ..}), are
 * refused. The same rule decides each redirect's target.
 */
public final class SourceLinkPolicy {
  /** Nothing allowed: Source Link URLs are reported, never fetched. */
  public static final SourceLinkPolicy OFF = new SourceLinkPolicy(List.of(), false);

  /** An allowed prefix and the base it is fetched from (the prefix itself without a mirror). */
  record Rule(Prefix prefix, Prefix mirror) {}

  /** A URL prefix, split so that a host {@code a.com} never matches {@code a.com.evil.net}. */
  record Prefix(String scheme, String host, int port, String path) {
    boolean matches(URI u) {
      return scheme.equals(u.getScheme().toLowerCase(Locale.ROOT))
          && host.equals(u.getHost().toLowerCase(Locale.ROOT))
          && port == portOf(u)
          && u.getRawPath().startsWith(path);
    }

    String text() {
      return scheme + "://" + host + ":" + port + path;
    }
  }

  private final List<Rule> rules;
  private final boolean allowPrivate;

  private SourceLinkPolicy(List<Rule> rules, boolean allowPrivate) {
    this.rules = List.copyOf(rules);
    this.allowPrivate = allowPrivate;
  }

  /**
   * The policy of a comma-separated list of {@code PREFIX} or {@code PREFIX=MIRROR} (http or https
   * URLs, each with a host); blank: {@link #OFF}.
   *
   * @throws IllegalArgumentException naming the entry that is not such a URL
   */
  public static SourceLinkPolicy parse(String spec, boolean allowPrivate) {
    List<Rule> rules = new ArrayList<>();
    if (spec != null) {
      for (String entry : spec.split(",")) {
        String e = entry.trim();
        if (e.isEmpty()) {
          continue;
        }
        int eq = e.indexOf('=');
        Prefix p = prefix(eq < 0 ? e : e.substring(0, eq).trim());
        Prefix m = eq < 0 ? p : prefix(e.substring(eq + 1).trim());
        rules.add(new Rule(p, m));
      }
    }
    return new SourceLinkPolicy(rules, allowPrivate);
  }

  /** Whether any URL may be fetched at all. */
  public boolean enabled() {
    return !rules.isEmpty();
  }

  public boolean allowPrivate() {
    return allowPrivate;
  }

  /**
   * The URL to fetch for Source Link URL {@code url} (on its mirror when its rule has one), or
   * null when no rule allows it.
   */
  public URI target(String url) {
    URI u = parseUrl(url);
    if (u == null) {
      return null;
    }
    for (Rule r : rules) {
      if (r.prefix().matches(u)) {
        String rest = u.getRawPath().substring(r.prefix().path().length());
        String query = u.getRawQuery() == null ? "" : "?" + u.getRawQuery();
        return URI.create(r.mirror().text() + rest + query);
      }
    }
    return null;
  }

  /** Whether a redirect may go to {@code location}: under an allowed prefix or a mirror. */
  public boolean permitsRedirect(URI location) {
    URI u = parseUrl(location.toString());
    if (u == null) {
      return false;
    }
    for (Rule r : rules) {
      if (r.prefix().matches(u) || r.mirror().matches(u)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why {@code address} may not be connected to (loopback, private, link-local, carrier-grade
   * NAT, multicast, unspecified, IPv6 unique-local or IPv4-mapped reserved ones), or null.
   */
  public String refusedAddress(InetAddress address) {
    if (allowPrivate) {
      return null;
    }
    return reserved(address);
  }

  static String reserved(InetAddress a) {
    if (a.isLoopbackAddress()) {
      return "a loopback address";
    }
    if (a.isAnyLocalAddress()) {
      return "an unspecified address";
    }
    if (a.isSiteLocalAddress()) {
      return "a private address";
    }
    if (a.isLinkLocalAddress()) {
      return "a link-local address";
    }
    if (a.isMulticastAddress()) {
      return "a multicast address";
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      int b0 = b[0] & 0xff;
      int b1 = b[1] & 0xff;
      int b2 = b[2] & 0xff;
      // Symbolicator's reserved blocks beyond the JDK's predicates (and 240/4 with broadcast)
      boolean reserved =
          b0 == 0
              || b0 >= 240
              || (b0 == 100 && (b1 & 0xc0) == 64)
              || (b0 == 198 && (b1 & 0xfe) == 18)
              || (b0 == 192 && b1 == 0 && (b2 == 0 || b2 == 2))
              || (b0 == 192 && b1 == 88 && b2 == 99)
              || (b0 == 198 && b1 == 51 && b2 == 100)
              || (b0 == 203 && b1 == 0 && b2 == 113);
      if (reserved) {
        return "a reserved address";
      }
    } else if (a instanceof Inet6Address) {
      if ((b[0] & 0xfe) == 0xfc) {
        return "a unique-local address";
      }
      // ::ffff:a.b.c.d and the IPv4-compatible ::a.b.c.d reach the IPv4 address
      boolean zeros = true;
      for (int i = 0; i < 10; i++) {
        zeros &= b[i] == 0;
      }
      if (zeros && ((b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0))) {
        try {
          return reserved(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
        } catch (UnknownHostException e) {
          return "an unreadable address";
        }
      }
    }
    return null;
  }

  /** An http(s) URL with a host and no user info, normalized; null otherwise. */
  static URI parseUrl(String url) {
    URI u;
    try {
      u = new URI(url).normalize();
    } catch (URISyntaxException e) {
      return null;
    }
    String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!(s.equals("http") || s.equals("https"))
        || u.getHost() == null
        || u.getRawUserInfo() != null
        || u.getRawPath() == null
        || u.getRawPath().startsWith("/..")) {
      return null;
    }
    String p = u.getRawPath().toLowerCase(Locale.ROOT);
    if (p.contains("%2e") || p.contains("%2f") || p.contains("%5c")) {
      return null;
    }
    return u;
  }

  private static int portOf(URI u) {
    if (u.getPort() >= 0) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  private static Prefix prefix(String text) {
    URI u = parseUrl(text);
    if (u == null) {
      throw new IllegalArgumentException(
          "not an http or https URL prefix with a host: '" + text + "'");
    }
    String path = u.getRawPath().isEmpty() ? "/" : u.getRawPath();
    return new Prefix(
        u.getScheme().toLowerCase(Locale.ROOT),
        u.getHost().toLowerCase(Locale.ROOT),
        portOf(u),
        path);
  }
}

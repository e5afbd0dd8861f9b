package io.symbolicate.symbols.js;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Pattern;

/**
 * Source URL resolution as ECMA-426 and mozilla/source-map do it: {@code sourceRoot} is joined
 * to each source with a single "/" (an empty root is ignored, a leading "/" on the source is
 * dropped), then the result is resolved against the map's (or the minified file's) URL with
 * RFC 3986 reference resolution. Absolute URLs (any scheme, e.g. {@code webpack:///}) are kept.
 */
public final class SourceUrls {
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.\\-]*:");

  private SourceUrls() {}

  public static String joinRoot(String sourceRoot, String source) {
    if (source == null) {
      return null;
    }
    if (sourceRoot == null || sourceRoot.isEmpty() || hasScheme(source)) {
      return source;
    }
    String s = source.startsWith("/") ? source.substring(1) : source;
    return sourceRoot.endsWith("/") ? sourceRoot + s : sourceRoot + "/" + s;
  }

  public static boolean hasScheme(String url) {
    return SCHEME.matcher(url).find();
  }

  /** Resolves {@code ref} against {@code base} (RFC 3986 section 5.2); null base keeps ref. */
  public static String resolve(String base, String ref) {
    if (ref == null || base == null || base.isEmpty() || hasScheme(ref)) {
      return ref;
    }
    int q = firstOf(base, "?#");
    String b = q < 0 ? base : base.substring(0, q);
    String prefix = "";
    String path = b;
    var sm = SCHEME.matcher(b);
    if (sm.find()) {
      prefix = b.substring(0, sm.end());
      path = b.substring(sm.end());
    }
    if (ref.startsWith("//")) {
      return prefix + ref;
    }
    String authority = "";
    if (path.startsWith("//")) {
      int slash = path.indexOf('/', 2);
      authority = slash < 0 ? path : path.substring(0, slash);
      path = slash < 0 ? "" : path.substring(slash);
    }
    String merged;
    if (ref.startsWith("/")) {
      merged = ref;
    } else {
      int dir = path.lastIndexOf('/');
      merged = (dir < 0 ? (authority.isEmpty() ? "" : "/") : path.substring(0, dir + 1)) + ref;
    }
    return prefix + authority + removeDots(merged);
  }

  private static int firstOf(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  /** RFC 3986 remove_dot_segments on a path (query/fragment of the ref are kept verbatim). */
  static String removeDots(String pathWithQuery) {
    int q = firstOf(pathWithQuery, "?#");
    String path = q < 0 ? pathWithQuery : pathWithQuery.substring(0, q);
    String tail = q < 0 ? "" : pathWithQuery.substring(q);
    boolean abs = path.startsWith("/");
    Deque<String> out = new ArrayDeque<>();
    String[] parts = path.split("/", -1);
    int leadingUps = 0;
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      boolean last = i == parts.length - 1;
      if (p.equals(".")) {
        if (last) {
          out.addLast("");
        }
      } else if (p.equals("..")) {
        if (!out.isEmpty() && !(out.size() == 1 && out.peekFirst().isEmpty() && abs)) {
          out.removeLast();
        } else if (!abs) {
          leadingUps++;
        }
        if (last) {
          out.addLast("");
        }
      } else if (!(p.isEmpty() && i == 0 && abs)) {
        out.addLast(p);
      }
    }
    StringBuilder sb = new StringBuilder();
    if (abs) {
      sb.append('/');
    }
    for (int i = 0; i < leadingUps; i++) {
      sb.append("../");
    }
    sb.append(String.join("/", out));
    return sb + tail;
  }
}

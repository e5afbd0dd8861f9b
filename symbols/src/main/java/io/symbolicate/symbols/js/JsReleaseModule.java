package io.symbolicate.symbols.js;

import io.symbolicate.symbols.id.DebugIdentifiers.InvalidIdentifierException;
import io.symbolicate.symbols.id.KeySegments;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A JavaScript module found by release + dist + the frame's URL, for events whose frames have no
 * debug id. Its module key is {@code release/{release}/{dist|_}/{url}}, each part one
 * percent-encoded segment as in the bucket layout (docs/js.md), so it round-trips, names the
 * minified file it stands for, and contains no {@code |}, NUL or path separator of its own.
 *
 * <p>Crash reports are untrusted: a release or dist with control characters, or a URL with
 * control characters, a backslash or a dot segment ({@code ..}, also percent-encoded), is
 * refused ({@link InvalidIdentifierException}) before it can become a key or a request.
 */
public record JsReleaseModule(String release, String dist, String url) {
  public static final String KEY_PREFIX = "release/";
  public static final int MAX_NAME_CHARS = 200;
  public static final int MAX_URL_CHARS = 2048;

  public JsReleaseModule {
    requireName("release", release);
    if (dist != null) {
      requireName("dist", dist);
    }
    requireUrl(url);
  }

  /**
   * The module of a frame: the frame's {@code abs_path} without an {@code async } prefix, a
   * fragment or a query string. A query is often a cache-buster ({@code ?_=1700000000000}) that
   * differs per page load: kept, every variant was a module of its own, each loading the same
   * artifact again (a thousand per event at most). Returns null when the frame has no URL to
   * look up (no path, e.g. {@code <anonymous>} or {@code [native code]}); throws when the
   * event's values must not become a key.
   */
  public static JsReleaseModule ofFrame(String release, String dist, String absPath) {
    if (release == null || release.isEmpty()) {
      return null;
    }
    List<String> variants = JsSymbolKeys.urlVariants(absPath);
    if (variants.isEmpty()) {
      return null;
    }
    String url = variants.get(0);
    int query = url.indexOf('?');
    if (query >= 0) {
      url = url.substring(0, query);
    }
    if (!hasPath(url)) {
      return null;
    }
    return new JsReleaseModule(release, dist == null || dist.isEmpty() ? null : dist, url);
  }

  /** Whether a JS module key is a release key (else it is a debug id). */
  public static boolean isReleaseKey(String moduleKey) {
    return moduleKey.startsWith(KEY_PREFIX);
  }

  public String key() {
    return KEY_PREFIX
        + KeySegments.encode(release)
        + "/"
        + (dist == null ? "_" : KeySegments.encode(dist))
        + "/"
        + KeySegments.encode(url);
  }

  /** Parses and re-validates a module key (it comes from a topic: untrusted too). */
  public static JsReleaseModule parse(String moduleKey) {
    if (!isReleaseKey(moduleKey)) {
      throw new InvalidIdentifierException("not a release module key");
    }
    String[] parts = moduleKey.substring(KEY_PREFIX.length()).split("/", -1);
    if (parts.length != 3) {
      throw new InvalidIdentifierException(
          "a release module key has three segments: release/dist/url");
    }
    String dist = parts[1].equals("_") ? null : decode(parts[1]);
    JsReleaseModule m = new JsReleaseModule(decode(parts[0]), dist, decode(parts[2]));
    if (!m.key().equals(moduleKey)) {
      throw new InvalidIdentifierException("release module key is not in canonical form");
    }
    return m;
  }

  /** The lookup request the engine's key builder takes (no debug id: that path is separate). */
  public JsSymbolKeys.Request request() {
    return new JsSymbolKeys.Request(null, release, dist, url);
  }

  private static boolean hasPath(String url) {
    if (url.startsWith("/")) {
      return true;
    }
    int scheme = url.indexOf("://");
    return scheme > 0
        && url.substring(0, scheme)
            .chars()
            .allMatch(
                c -> c < 128 && Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.');
  }

  private static void requireName(String what, String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidIdentifierException(what + " is empty");
    }
    if (value.length() > MAX_NAME_CHARS) {
      throw new InvalidIdentifierException(what + " longer than " + MAX_NAME_CHARS + " characters");
    }
    if (value.equals(".") || value.equals("..")) {
      throw new InvalidIdentifierException(what + " is a dot segment");
    }
    requireNoControl(what, value);
  }

  private static void requireUrl(String url) {
    if (url == null || url.isEmpty()) {
      throw new InvalidIdentifierException("frame URL is empty");
    }
    if (url.length() > MAX_URL_CHARS) {
      throw new InvalidIdentifierException(
          "frame URL longer than " + MAX_URL_CHARS + " characters");
    }
    requireNoControl("frame URL", url);
    if (url.indexOf('\\') >= 0) {
      throw new InvalidIdentifierException("frame URL contains a backslash");
    }
    String path = url;
    int scheme = url.indexOf("://");
    if (scheme >= 0) {
      int slash = url.indexOf('/', scheme + 3);
      path = slash < 0 ? "" : url.substring(slash);
    }
    int q = path.indexOf('?');
    if (q >= 0) {
      path = path.substring(0, q);
    }
    for (String seg : path.split("/", -1)) {
      String s = seg.toLowerCase(Locale.ROOT).replace("%2e", ".");
      if (s.equals(".") || s.equals("..")) {
        throw new InvalidIdentifierException("frame URL contains a dot segment: " + printable(url));
      }
    }
  }

  private static void requireNoControl(String what, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        throw new InvalidIdentifierException(
            what + " contains a control character: " + printable(value));
      }
    }
  }

  /** Strict percent-decoding of one key segment (UTF-8). */
  private static String decode(String seg) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(seg.length());
    for (int i = 0; i < seg.length(); i++) {
      char c = seg.charAt(i);
      if (c == '%') {
        if (i + 2 >= seg.length()) {
          throw new InvalidIdentifierException("truncated percent escape in module key");
        }
        int hi = Character.digit(seg.charAt(i + 1), 16);
        int lo = Character.digit(seg.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new InvalidIdentifierException("bad percent escape in module key");
        }
        out.write(hi << 4 | lo);
        i += 2;
      } else if (c < 128) {
        out.write(c);
      } else {
        throw new InvalidIdentifierException("non-ASCII character in module key");
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidIdentifierException("module key is not UTF-8");
    }
  }

  /** For messages: control characters shown as escapes, and cut to a readable length. */
  static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && sb.length() < 120; i++) {
      char c = s.charAt(i);
      sb.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return s.length() > 120 ? sb + "..." : sb.toString();
  }
}

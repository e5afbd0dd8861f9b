package io.symbolicate.symbols.js;

import io.symbolicate.symbols.id.KeySegments;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where sourcemaps and minified files live in the symbol bucket, and which objects to try for a
 * frame (pure logic: no S3 here). Layout (see docs/js.md):
 *
 * <pre>
 * js/debug-id/{debug-id}/sourcemap            map uploaded with a debug ID
 * js/debug-id/{debug-id}/minified             its minified file
 * js/release/{release}/{dist|_}/{url}         an artifact uploaded for a release (+ dist) by URL;
 *                                             {url} is the full URL or the "~/" path-only form
 * </pre>
 *
 * Every variable part is one percent-encoded path segment (RFC 3986 unreserved characters kept),
 * so no URL can escape its prefix or collide with another. Debug IDs are lowercase hyphenated
 * UUIDs.
 */
public final class JsSymbolKeys {
  private static final Pattern UUID =
      Pattern.compile(
          "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$");
  private static final Pattern SOURCE_MAPPING_URL =
      Pattern.compile(
          "(?://[#@]|/\\*[#@])\\s*sourceMappingURL=(\\S+?)\\s*(?:\\*/)?\\s*$", Pattern.MULTILINE);
  private static final Pattern DEBUG_ID_COMMENT =
      Pattern.compile("^//[#@]\\s*debugId=([0-9a-fA-F-]{32,36})\\s*$", Pattern.MULTILINE);

  private JsSymbolKeys() {}

  /** How a candidate was found, in the order they are tried. */
  public enum Via {
    DEBUG_ID,
    RELEASE_URL,
    SOURCE_MAPPING_URL,
    GUESSED_MAP_URL
  }

  /** One object to try; {@code url} is the artifact URL it stands for (null for debug IDs). */
  public record Candidate(Via via, String objectKey, String url) {}

  /** A frame's lookup inputs (from the event: modules, release, dist; from the frame: abs_path). */
  public record Request(String debugId, String release, String dist, String absPath) {}

  /** Normalises a debug ID to lowercase hyphenated form; null when it is not a UUID. */
  public static String normalizeDebugId(String id) {
    if (id == null || !UUID.matcher(id.trim()).matches()) {
      return null;
    }
    String hex = id.trim().replace("-", "").toLowerCase(Locale.ROOT);
    return hex.substring(0, 8)
        + "-"
        + hex.substring(8, 12)
        + "-"
        + hex.substring(12, 16)
        + "-"
        + hex.substring(16, 20)
        + "-"
        + hex.substring(20);
  }

  public static String sourcemapByDebugId(String debugId) {
    return "js/debug-id/" + requireId(debugId) + "/sourcemap";
  }

  public static String minifiedByDebugId(String debugId) {
    return "js/debug-id/" + requireId(debugId) + "/minified";
  }

  private static String requireId(String id) {
    String n = normalizeDebugId(id);
    if (n == null) {
      throw new IllegalArgumentException("not a debug ID: " + id);
    }
    return n;
  }

  /** The key of a release artifact stored under its URL (or "~/path" form). */
  public static String releaseFile(String release, String dist, String url) {
    if (release == null || release.isEmpty()) {
      throw new IllegalArgumentException("release is required");
    }
    return "js/release/"
        + segment(release)
        + "/"
        + (dist == null || dist.isEmpty() ? "_" : segment(dist))
        + "/"
        + segment(url);
  }

  /**
   * The URL forms a frame's abs_path matches, most specific first: as given (without fragment),
   * without query string, then the "~/" path-only forms that match any scheme and host.
   * An "async " prefix (Chrome async frames) is dropped.
   */
  public static List<String> urlVariants(String absPath) {
    Set<String> out = new LinkedHashSet<>();
    if (absPath == null || absPath.isBlank()) {
      return List.of();
    }
    String url = withoutAsync(absPath.trim());
    int hash = url.indexOf('#');
    if (hash >= 0) {
      url = url.substring(0, hash);
    }
    int q = url.indexOf('?');
    String noQuery = q >= 0 ? url.substring(0, q) : url;
    out.add(url);
    out.add(noQuery);
    String path = pathOf(url);
    if (path != null) {
      out.add("~" + path);
      int pq = path.indexOf('?');
      if (pq >= 0) {
        out.add("~" + path.substring(0, pq));
      }
    }
    return new ArrayList<>(out);
  }

  /** A frame URL without Chrome's {@code "async "} prefix (async frames name the file after it). */
  public static String withoutAsync(String url) {
    return url.startsWith("async ") ? url.substring(6).trim() : url;
  }

  /** "/a/b.js?x" of "https://host:8080/a/b.js?x"; null when the URL has no host part. */
  static String pathOf(String url) {
    int scheme = url.indexOf("://");
    if (scheme < 0) {
      return url.startsWith("/") ? url : null;
    }
    int slash = url.indexOf('/', scheme + 3);
    return slash < 0 ? "/" : url.substring(slash);
  }

  /**
   * Candidate objects for the sourcemap of a frame, in order: by debug ID (the module's, from the
   * event), then the release's artifact for the frame URL's map: found via the minified file's
   * {@code sourceMappingURL} when {@code minifiedSource} is known, else guessed as URL + ".map".
   * The caller fetches the minified file first ({@link #minifiedCandidates}) when it can.
   */
  public static List<Candidate> sourcemapCandidates(Request r, String minifiedSource) {
    List<Candidate> out = new ArrayList<>();
    String id = normalizeDebugId(r.debugId());
    if (id == null && minifiedSource != null) {
      id = normalizeDebugId(debugIdComment(minifiedSource));
    }
    if (id != null) {
      out.add(new Candidate(Via.DEBUG_ID, sourcemapByDebugId(id), null));
    }
    if (r.release() == null || r.release().isEmpty() || r.absPath() == null) {
      return out;
    }
    List<String> variants = urlVariants(r.absPath());
    if (variants.isEmpty()) {
      return out;
    }
    String frameUrl = variants.get(0);
    String smu = minifiedSource == null ? null : sourceMappingUrl(minifiedSource);
    if (smu != null && !smu.startsWith("data:")) {
      String mapUrl = SourceUrls.resolve(frameUrl, smu);
      for (String v : urlVariants(mapUrl)) {
        out.add(
            new Candidate(Via.SOURCE_MAPPING_URL, releaseFile(r.release(), r.dist(), v), mapUrl));
      }
    } else if (smu == null) {
      // not variants.get(1): without a query string the variants are deduplicated and shift
      int q = frameUrl.indexOf('?');
      String noQuery = q >= 0 ? frameUrl.substring(0, q) : frameUrl;
      for (String v : urlVariants(noQuery + ".map")) {
        out.add(new Candidate(Via.GUESSED_MAP_URL, releaseFile(r.release(), r.dist(), v), v));
      }
    }
    return dedupe(out);
  }

  /** Candidate objects for the minified file itself (for scopes and its sourceMappingURL). */
  public static List<Candidate> minifiedCandidates(Request r) {
    List<Candidate> out = new ArrayList<>();
    String id = normalizeDebugId(r.debugId());
    if (id != null) {
      out.add(new Candidate(Via.DEBUG_ID, minifiedByDebugId(id), null));
    }
    if (r.release() != null && !r.release().isEmpty()) {
      for (String v : urlVariants(r.absPath())) {
        out.add(new Candidate(Via.RELEASE_URL, releaseFile(r.release(), r.dist(), v), v));
      }
    }
    return dedupe(out);
  }

  private static List<Candidate> dedupe(List<Candidate> in) {
    Set<String> seen = new LinkedHashSet<>();
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : in) {
      if (seen.add(c.objectKey())) {
        out.add(c);
      }
    }
    return out;
  }

  /** The last {@code //# sourceMappingURL=} (or legacy {@code //@}) of a file, or null. */
  public static String sourceMappingUrl(String minifiedSource) {
    Matcher m = SOURCE_MAPPING_URL.matcher(minifiedSource);
    String last = null;
    while (m.find()) {
      last = m.group(1);
    }
    return last;
  }

  /** The {@code //# debugId=} comment bundlers add next to sourceMappingURL, or null. */
  public static String debugIdComment(String minifiedSource) {
    Matcher m = DEBUG_ID_COMMENT.matcher(minifiedSource);
    String last = null;
    while (m.find()) {
      last = m.group(1);
    }
    return last;
  }

  static String segment(String s) {
    return KeySegments.encode(s);
  }
}

package io.symbolicate.api.js;

import io.symbolicate.symbols.js.SourceUrls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names Sentry derives for a symbolicated JavaScript frame, so our responses carry the same
 * {@code filename}, {@code module}, {@code abs_path} and {@code function} as Symbolicator's:
 * webpack file names without their {@code webpack://} prefix, a "module" made from a URL's path,
 * source URLs joined to the minified file's URL, and repeated name parts folded.
 */
final class SentryJsNames {
  private SentryJsNames() {}

  /** Scope names that say nothing about the function (Sentry falls back to other names). */
  static final Set<String> USELESS_FUNCTION_NAMES =
      Set.of("<anonymous>", "__webpack_require__", "__webpack_modules__");

  // "webpack://some-namespace/./x" -> "./x"
  private static final Pattern WEBPACK_NAMESPACE =
      Pattern.compile("^webpack://[a-zA-Z0-9_\\-@.]+/\\./");

  // leading folders that carry no module meaning: slashes, script/build/vendor folders, dot-,
  // underscore- or tilde-folders, versions, hashes; and a trailing "-commitish"
  private static final Pattern NOISE_FOLDERS =
      Pattern.compile(
          "^(?:/|(?:(?:java)?scripts?|js|build|static|node_modules|bower_components|[_.~].*?"
              + "|v?(?:\\d+\\.)*\\d+|[a-f0-9]{7,8}|[a-f0-9]{32}|[a-f0-9]{40})/)+"
              + "|(?:[-.][a-f0-9]{7,}$)",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

  static String fixupWebpackFilename(String filename) {
    int tilde = filename.indexOf("/~/");
    if (tilde >= 0) {
      return "~/" + filename.substring(tilde + 3);
    }
    var m = WEBPACK_NAMESPACE.matcher(filename);
    if (m.find()) {
      return "./" + filename.substring(m.end());
    }
    if (filename.startsWith("webpack:///")) {
      return filename.substring("webpack:///".length());
    }
    return filename;
  }

  /** The path after the host (or after a leading {@code ~}), with its leading slash. */
  static String stripHost(String path) {
    if (path.startsWith("~")) {
      return path.substring(1);
    }
    int scheme = path.indexOf("://");
    if (scheme >= 0) {
      String rest = path.substring(scheme + 3);
      int slash = rest.indexOf('/');
      return slash < 0 ? rest : rest.substring(slash);
    }
    return path;
  }

  /** A made-up module name from a URL: {@code http://x.com/js/v1.0/foo/bar/baz.min.js} -> {@code foo/bar/baz}. */
  static String generateModule(String absPath) {
    String path = stripHost(absPath);
    int cut = indexOfAny(path, "#?");
    if (cut >= 0) {
      path = path.substring(0, cut);
    }
    int lastDot = path.lastIndexOf('.');
    if (lastDot >= 0 && lastDot > path.lastIndexOf('/')) {
      path = path.substring(0, lastDot);
    }
    if (path.endsWith(".min")) {
      path = path.substring(0, path.length() - 4);
    }
    // everything after a 32- or 40-hex-digit segment (content-hashed folders)
    String[] segments = path.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      String s = segments[i];
      if (s.length() == 32 || s.length() == 40 && HEX.matcher(s).matches()) {
        return String.join("/", Arrays.asList(segments).subList(i + 1, segments.length));
      }
    }
    return NOISE_FOLDERS.matcher(path).replaceAll("");
  }

  private static int indexOfAny(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A source named by a sourcemap, made absolute against the minified file's URL. {@code ~/x}
   * counts as absolute on the base's host; URLs with a scheme and {@code webpack:} names stay.
   */
  static String joinPaths(String base, String source) {
    if (source.contains("://") || source.startsWith("webpack:")) {
      return source;
    }
    String ref = source.startsWith("~/") ? source.substring(1) : source;
    if (!base.contains("://")) {
      // a file path: join by hand (RFC 3986 resolution needs a scheme)
      if (ref.startsWith("/")) {
        return ref;
      }
      int slash = base.lastIndexOf('/');
      return normalise((slash < 0 ? "" : base.substring(0, slash + 1)) + ref);
    }
    return SourceUrls.resolve(base, ref);
  }

  private static String normalise(String path) {
    List<String> out = new ArrayList<>();
    boolean absolute = path.startsWith("/");
    for (String seg : path.split("/")) {
      if (seg.isEmpty() || seg.equals(".")) {
        continue;
      }
      if (seg.equals("..") && !out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
        out.remove(out.size() - 1);
      } else {
        out.add(seg);
      }
    }
    return (absolute ? "/" : "") + String.join("/", out);
  }

  /**
   * Folds runs of the same name part, except the last part: {@code foo.foo.foo} ->
   * {@code {foo#2}.foo}, {@code bar.foo.foo.onError} -> {@code bar.{foo#2}.onError}.
   */
  static String foldFunctionName(String name) {
    String[] parts = name.split("\\.", -1);
    if (parts.length == 1) {
      return name;
    }
    StringBuilder out = new StringBuilder();
    int i = 0;
    int last = parts.length - 1;
    while (i < last) {
      int j = i;
      while (j + 1 < last && parts[j + 1].equals(parts[i])) {
        j++;
      }
      int run = j - i + 1;
      out.append(run == 1 ? parts[i] : "{" + parts[i] + "#" + run + "}").append('.');
      i = j + 1;
    }
    return out.append(parts[last]).toString();
  }
}

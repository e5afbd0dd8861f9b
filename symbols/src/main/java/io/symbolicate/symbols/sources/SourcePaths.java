package io.symbolicate.symbols.sources;

import java.util.Locale;

/** How a frame's path and a bundle's path are compared when they are not equal as given. */
public final class SourcePaths {
  private SourcePaths() {}

  /**
   * Separators as one {@code /} (Windows paths, doubled slashes), a drive's colon dropped: {@code
   * C:\src\a.c} and {@code C:/src//a.c} compare equal, as symbolic's bundle paths do.
   */
  public static String normalize(String path) {
    StringBuilder b = new StringBuilder(path.length());
    boolean sep = false;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == ':' && i + 1 < path.length() && isSep(path.charAt(i + 1))) {
        continue;
      }
      if (isSep(c)) {
        if (!sep) {
          b.append('/');
        }
        sep = true;
      } else {
        b.append(c);
        sep = false;
      }
    }
    return b.toString();
  }

  private static boolean isSep(char c) {
    return c == '/' || c == '\\';
  }

  /** A debug id compared without dashes and case. */
  public static String normalizeDebugId(String id) {
    return id.replace("-", "").toLowerCase(Locale.ROOT);
  }
}

package io.symbolicate.symbols.sources;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits source text into lines and cuts the context around a line, as Symbolicator does for
 * frames without a column (native, .NET, JVM): lines split at {@code \n} with a trailing {@code
 * \r} dropped (a final terminator starts no line), lines over 150 chars cut to their first 140 with
 * a {@code " {snip}"} mark.
 */
public final class ContextLines {
  /** Symbolicator's default: five lines before and after. */
  public static final int DEFAULT_LINES = 5;

  static final int MAX_LINE = 140;

  private ContextLines() {}

  /** The text's lines, each already cut as context lines show it. */
  public static String[] split(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    int n = text.length();
    while (start < n) {
      int nl = text.indexOf('\n', start);
      int end = nl < 0 ? n : nl;
      int cut = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
      lines.add(trim(text.substring(start, cut)));
      if (nl < 0) {
        break;
      }
      start = nl + 1;
    }
    return lines.toArray(new String[0]);
  }

  /** A long line cut to its first 140 chars (column 0 of Sentry's rule) with a {snip} mark. */
  public static String trim(String line) {
    if (line.length() <= MAX_LINE + 10) {
      return line;
    }
    return line.substring(0, MAX_LINE) + " {snip}";
  }

  /**
   * The context of 1-based {@code line} in {@code lines} (already {@link #split}), {@code n}
   * lines before and after; null when the line is not in the file or {@code n} is negative.
   */
  public static SourceContext around(String[] lines, int line, int n) {
    if (line < 1 || line > lines.length || n < 0) {
      return null;
    }
    int i = line - 1;
    int from = Math.max(0, i - n);
    int to = Math.min(lines.length, i + 1 + n);
    return new SourceContext(Arrays.copyOfRange(lines, from, to), 0, i - from, to - from);
  }
}

package io.symbolicate.symbols.js;

/**
 * The edge conversion from crash-report frames (browser stack traces, Sentry {@code lineno} /
 * {@code colno}: both 1-based) to sourcemap positions (0-based line, 0-based UTF-16 column), done
 * once so everything behind it counts from zero.
 */
public record JsFramePosition(int line, int column) {

  /**
   * @param lineno 1-based line
   * @param colno 1-based column, or null when the report has none (then column 0: the line's
   *     first segment, the best one can do). 0 is read as column 0 too, as Symbolicator does
   *     ({@code colno.saturating_sub(1)}): some reporters send 0 for "no column"
   */
  public static JsFramePosition fromFrame(int lineno, Integer colno) {
    if (lineno < 1) {
      throw new IllegalArgumentException("lineno must be >= 1 (1-based), got " + lineno);
    }
    if (colno != null && colno < 0) {
      throw new IllegalArgumentException("colno must be >= 0 (1-based, 0 for none), got " + colno);
    }
    return new JsFramePosition(lineno - 1, colno == null ? 0 : Math.max(0, colno - 1));
  }

  /** Back to frame convention for results: 1-based line and column. */
  public static int toFrame(int zeroBased) {
    return zeroBased < 0 ? zeroBased : zeroBased + 1;
  }
}

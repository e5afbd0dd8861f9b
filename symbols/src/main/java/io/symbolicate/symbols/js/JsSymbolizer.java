package io.symbolicate.symbols.js;

import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Lookups on a {@link JsTable}: needs only the decoded header and the pages a position hits.
 * Default: the segment with the greatest generated column at or before the requested one on the
 * same generated line (ECMA-426, mozilla/source-map GREATEST_LOWER_BOUND); a line without segments
 * maps to nothing unless {@link Options#fallbackToEarlierLines} asks for rust-sourcemap's
 * behaviour.
 */
public final class JsSymbolizer {
  /** Lines of context before and after. */
  public static final int CONTEXT_LINES = 5;

  /** Context lines longer than this are trimmed around the column ("{snip}" marks the cuts). */
  public static final int MAX_CONTEXT_LINE = 140;

  public enum Bias {
    GREATEST_LOWER_BOUND,
    LEAST_UPPER_BOUND
  }

  public record Options(Bias bias, boolean fallbackToEarlierLines) {
    public static final Options DEFAULT = new Options(Bias.GREATEST_LOWER_BOUND, false);
  }

  private final JsHeader header;
  private final PageSource<JsPage> pages;

  public JsSymbolizer(JsHeader header, PageSource<JsPage> pages) {
    this.header = header;
    this.pages = pages;
  }

  /** A symbolizer over all pages decoded up front (CLI, tests, benchmarks). */
  public static JsSymbolizer inMemory(JsTable table) {
    return new JsSymbolizer(
        JsHeader.decode(table.header()), new InMemoryPageSource<>(table.pages(), JsPage::decode));
  }

  public JsHeader header() {
    return header;
  }

  /** 0-based generated line and column (UTF-16 units); null when nothing maps there. */
  public JsLocation lookup(int line, int column) {
    if (line < 0 || column < 0) {
      return null;
    }
    if (!(pages.floor(JsTable.positionKey(line, column)) instanceof MappingPage p)) {
      return null;
    }
    return p.lookupOnLine(line, column);
  }

  public JsLocation lookup(int line, int column, Options options) {
    if (options.bias() == Bias.GREATEST_LOWER_BOUND && !options.fallbackToEarlierLines()) {
      return lookup(line, column);
    }
    if (line < 0 || column < 0) {
      return null;
    }
    long key = JsTable.positionKey(line, column);
    JsPage page = pages.floor(key);
    MappingPage p = page instanceof MappingPage mp ? mp : null;
    if (options.bias() == Bias.GREATEST_LOWER_BOUND) {
      // rust-sourcemap: the last segment at or before the position, possibly on an earlier line
      int i = p == null ? -1 : p.floorIndex(key);
      return i < 0 ? null : p.location(i);
    }
    // LEAST_UPPER_BOUND: the first segment at or after the column on the same line
    if (p == null) {
      // before the first segment: start at the first page
      p =
          header.firstMappingKey() >= 0
                  && pages.floor(header.firstMappingKey()) instanceof MappingPage first
              ? first
              : null;
    }
    int i = p == null ? 0 : p.ceilingIndex(key);
    while (p != null && i >= p.size()) {
      p =
          p.nextFirstKey >= 0 && pages.floor(p.nextFirstKey) instanceof MappingPage next
              ? next
              : null;
      i = 0;
    }
    if (p == null || (int) (p.key(i) >>> 32) != line) {
      return null;
    }
    return p.location(i);
  }

  /**
   * The original function name for a frame at a generated position whose lookup gave {@code loc}:
   * a Metro/Hermes function map wins, then the enclosing scope from the minified file (when the
   * table was built with it), then the segment's own name. {@link JsFunctionName#nameSource()}
   * says which.
   */
  public JsFunctionName functionName(int line, int column, JsLocation loc) {
    MinifiedScopes.Interval scope = null;
    if (line >= 0 && column >= 0) {
      long key = JsTable.positionKey(line, column);
      if (pages.floor(key) instanceof MappingPage p) {
        scope = p.scopeAt(key);
      }
    }
    MinifiedScopes.ScopeKind kind = scope == null ? null : scope.kind();
    if (loc != null && loc.mapped()) {
      JsPage fp = pages.floor(FunctionMapPage.key(loc.sourceIndex()));
      if (fp instanceof FunctionMapPage f && f.source() == loc.sourceIndex()) {
        String n = f.map().enclosing(loc.line(), loc.column());
        if (n != null) {
          return new JsFunctionName(n, "function_map", MinifiedScopes.ScopeKind.NAMED);
        }
      }
    }
    if (scope != null && scope.kind() == MinifiedScopes.ScopeKind.NAMED) {
      return new JsFunctionName(scope.name(), scope.mapped() ? "scope" : "scope_minified", kind);
    }
    if (scope != null && scope.kind() == MinifiedScopes.ScopeKind.ANONYMOUS) {
      return new JsFunctionName(null, "scope", kind);
    }
    if (loc != null && loc.mapped() && loc.name() != null) {
      return new JsFunctionName(loc.name(), "mapping", kind);
    }
    return new JsFunctionName(null, null, kind);
  }

  /** The full stored text of one original line (cut at {@code MAX_STORED_LINE}), or null. */
  public String sourceLine(int source, int line) {
    if (source < 0 || line < 0) {
      return null;
    }
    JsPage page = pages.floor(JsTable.contentKey(source, line));
    if (page instanceof ContentPage c && c.source() == source) {
      return c.line(line);
    }
    return null;
  }

  /** Context lines around a mapped location; null when the map has no content for its source. */
  public JsContext context(JsLocation loc) {
    if (loc == null || !loc.mapped()) {
      return null;
    }
    String line = sourceLine(loc.sourceIndex(), loc.line());
    if (line == null) {
      return null;
    }
    List<String> pre = new ArrayList<>();
    for (int l = Math.max(0, loc.line() - CONTEXT_LINES); l < loc.line(); l++) {
      String s = sourceLine(loc.sourceIndex(), l);
      if (s != null) {
        pre.add(trim(s, loc.column()));
      }
    }
    List<String> post = new ArrayList<>();
    for (int l = loc.line() + 1; l <= loc.line() + CONTEXT_LINES; l++) {
      String s = sourceLine(loc.sourceIndex(), l);
      if (s == null) {
        break;
      }
      post.add(trim(s, loc.column()));
    }
    return new JsContext(pre, trim(line, loc.column()), post);
  }

  /**
   * Trims a long context line the way Sentry does: lines up to 150 chars stay whole; longer ones
   * keep 140 chars starting 60 before the column (shifted left at the line end), with "{snip}"
   * marking each cut.
   */
  static String trim(String line, int column) {
    if (line.length() <= MAX_CONTEXT_LINE + 10) {
      return line;
    }
    int start = Math.max(column - 60, 0);
    int end = Math.min(start + MAX_CONTEXT_LINE, line.length());
    if (end == line.length()) {
      start = Math.max(end - MAX_CONTEXT_LINE, 0);
    }
    return (start > 0 ? "{snip} " : "")
        + line.substring(start, end)
        + (end < line.length() ? " {snip}" : "");
  }
}

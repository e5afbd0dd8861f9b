package io.symbolicate.symbols.sources;

import java.util.List;

/**
 * Lines around a frame's line, in Symbolicator's fields: {@code pre_context}, {@code
 * context_line}, {@code post_context}.
 */
public record SourceContext(List<String> preContext, String contextLine, List<String> postContext) {

  /** Characters of the three fields together (what the per-event budget counts). */
  public long chars() {
    long n = contextLine.length();
    for (String s : preContext) {
      n += s.length();
    }
    for (String s : postContext) {
      n += s.length();
    }
    return n;
  }

  /** Lines of the three fields together. */
  public int lines() {
    return preContext.size() + 1 + postContext.size();
  }
}

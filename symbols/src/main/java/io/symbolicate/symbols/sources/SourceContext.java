package io.symbolicate.symbols.sources;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * Lines around a frame's line, in Symbolicator's fields: {@code pre_context}, {@code
 * context_line}, {@code post_context}. A view of a range of lines where they are kept (a chunk's
 * {@link SourceLine}s, whose bytes the encoder copies as they are): an output frame takes {@link
 * #pre}, {@link #line} and {@link #post} without a copy of the lines, so a frame's context costs
 * three small objects and the lines themselves are read once, from one array (issue 46).
 */
public final class SourceContext {
  private final CharSequence line;
  private final List<CharSequence> pre;
  private final List<CharSequence> post;
  private final long chars;

  /**
   * Lines {@code from} (inclusive) to {@code to} (exclusive) of {@code lines}, {@code at} the
   * frame's; the array is shared, never changed.
   */
  SourceContext(CharSequence[] lines, int from, int at, int to) {
    Objects.checkFromToIndex(from, to, lines.length);
    Objects.checkFromToIndex(from, at, to - 1);
    this.line = lines[at];
    this.pre = new Range(lines, from, at);
    this.post = new Range(lines, at + 1, to);
    long n = 0;
    for (int i = from; i < to; i++) {
      n += lines[i].length();
    }
    this.chars = n;
  }

  /** {@code pre_context} as the output record takes it (immutable, shared). */
  public List<CharSequence> pre() {
    return pre;
  }

  /** {@code context_line} as the output record takes it. */
  public CharSequence line() {
    return line;
  }

  /** {@code post_context} as the output record takes it (immutable, shared). */
  public List<CharSequence> post() {
    return post;
  }

  /** {@code pre_context} as Strings. */
  public List<String> preContext() {
    return strings(pre);
  }

  public String contextLine() {
    return line.toString();
  }

  /** {@code post_context} as Strings. */
  public List<String> postContext() {
    return strings(post);
  }

  private static List<String> strings(List<CharSequence> l) {
    return l.stream().map(CharSequence::toString).toList();
  }

  /** Characters of the three fields together (what the per-event budget counts). */
  public long chars() {
    return chars;
  }

  /** Lines of the three fields together. */
  public int lines() {
    return pre.size() + 1 + post.size();
  }

  /** Equal when the lines' texts are, however they are held (Strings or a chunk's lines). */
  @Override
  public boolean equals(Object o) {
    return o instanceof SourceContext c
        && chars == c.chars
        && lines() == c.lines()
        && preContext().equals(c.preContext())
        && contextLine().equals(c.contextLine())
        && postContext().equals(c.postContext());
  }

  @Override
  public int hashCode() {
    return Objects.hash(preContext(), contextLine(), postContext());
  }

  @Override
  public String toString() {
    return "SourceContext" + preContext() + "[" + contextLine() + "]" + postContext();
  }

  /** An immutable view of {@code lines[from, to)}. */
  private static final class Range extends AbstractList<CharSequence> implements RandomAccess {
    private final CharSequence[] lines;
    private final int from;
    private final int size;

    Range(CharSequence[] lines, int from, int to) {
      this.lines = lines;
      this.from = from;
      this.size = to - from;
    }

    @Override
    public CharSequence get(int index) {
      Objects.checkIndex(index, size);
      return lines[from + index];
    }

    @Override
    public int size() {
      return size;
    }
  }
}

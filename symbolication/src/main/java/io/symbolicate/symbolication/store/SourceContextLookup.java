package io.symbolicate.symbolication.store;

import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.PageSource;
import java.util.List;
import java.util.function.Function;

/**
 * Source context for any platform's frames from the source pages a table carries beside its own
 * ({@link SourcePages}: a source bundle the loader found beside the debug file, or sources
 * embedded in it). What the platform steps and the HTTP API call: {@link #lookup} for one frame,
 * {@link #apply} for an event's stacks, within a {@link Budget} per event.
 */
public final class SourceContextLookup {
  /** Context lines an event may carry in all (a 1 MB event can have 20,000 frames). */
  public static final int MAX_LINES_PER_EVENT = 10_000;

  /** Characters of context lines an event may carry in all. */
  public static final long MAX_CHARS_PER_EVENT = 1L << 20;

  static final String OVER_BUDGET =
      "source context left out: the event's context budget ("
          + MAX_LINES_PER_EVENT
          + " lines, "
          + MAX_CHARS_PER_EVENT
          + " chars) is spent";

  private SourceContextLookup() {}

  /** Whether a found module's table carries sources (its last page is one of theirs). */
  public static boolean hasSources(SymbolLookup.Resolution r) {
    if (r == null || !r.found()) {
      return false;
    }
    List<Long> keys = r.state().getPageKeys();
    return !keys.isEmpty() && SourcePages.isSourceKey(keys.get(keys.size() - 1));
  }

  /**
   * A found module's own pages: without its source pages when it carries some (an address in
   * their key range finds the last page of its own). What every lookup of a table's own keys
   * reads through.
   */
  public static <P> PageSource<P> tablePages(
      SymbolLookup lookup, SymbolLookup.Resolution r, Function<byte[], P> decoder) {
    PageSource<P> pages = lookup.pages(r, decoder);
    return hasSources(r) ? SourcePages.belowSources(pages) : pages;
  }

  /** The source pages of a found module, or null when its table carries none. */
  public static PageSource<SourcePage> sources(SymbolLookup lookup, SymbolLookup.Resolution r) {
    return hasSources(r) ? lookup.pages(r, SourcePages::decode) : null;
  }

  /**
   * The context of 1-based {@code line} of {@code path} in the module's sources, {@code n} lines
   * before and after; null without sources, file or line.
   */
  public static SourceContext lookup(
      SymbolLookup lookup, SymbolLookup.Resolution r, String path, int line, int n) {
    PageSource<SourcePage> pages = sources(lookup, r);
    return pages == null || n <= 0 ? null : SourcePages.context(pages, path, line, n);
  }

  /** What an event may still take: lines and characters of context. */
  public static final class Budget {
    private int lines = MAX_LINES_PER_EVENT;
    private long chars = MAX_CHARS_PER_EVENT;

    /** Takes the context if it fits what is left. */
    public boolean take(SourceContext c) {
      if (c.lines() > lines || c.chars() > chars) {
        lines = 0;
        chars = 0;
        return false;
      }
      lines -= c.lines();
      chars -= c.chars();
      return true;
    }
  }

  /**
   * Adds context to the symbolicated frames (with file and line) of {@code stacks} whose module
   * has sources ({@code sourcesOf[module index]}, null for none), {@code n} lines before and
   * after, within one budget; a frame the budget leaves without says so in its message. Each
   * module's directory is read once per call, and the frames take views of their chunk's lines
   * (nothing is copied per frame; the encoder copies each line's stored bytes).
   */
  public static void apply(
      List<SymbolicatedStack> stacks, PageSource<SourcePage>[] sourcesOf, int n) {
    if (n <= 0) {
      return;
    }
    Budget budget = new Budget();
    SourcePage.Directory[] dirs = new SourcePage.Directory[sourcesOf.length];
    for (SymbolicatedStack s : stacks) {
      for (SymbolicatedFrame f : s.getFrames()) {
        Integer m = f.getModuleIndex();
        if (f.getStatus() != FrameStatus.symbolicated
            || f.getFile() == null
            || f.getLine() == null
            || m == null
            || m < 0
            || m >= sourcesOf.length
            || sourcesOf[m] == null) {
          continue;
        }
        SourcePage.Directory dir = dirs[m];
        if (dir == null) {
          dir = SourcePages.directory(sourcesOf[m]);
          if (dir == null) {
            continue;
          }
          dirs[m] = dir;
        }
        SourceContext c = SourcePages.context(dir, sourcesOf[m], f.getFile(), f.getLine(), n);
        if (c == null) {
          continue;
        }
        put(f, c, budget);
      }
    }
  }

  /**
   * Sets the frame's context lines if they fit what is left of {@code budget}; a frame the budget
   * leaves without says so in its message. Returns whether they were set.
   */
  public static boolean put(SymbolicatedFrame f, SourceContext c, Budget budget) {
    if (!budget.take(c)) {
      f.setMessage(f.getMessage() == null ? OVER_BUDGET : f.getMessage() + "; " + OVER_BUDGET);
      return false;
    }
    f.setPreContext(c.pre());
    f.setContextLine(c.line());
    f.setPostContext(c.post());
    return true;
  }
}

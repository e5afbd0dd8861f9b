package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Frame-level retrace over a table's pages: a lookup needs the header and the one page its class
 * key falls in. Which mapping lines a frame selects follows R8 retrace as ported by
 * rust-proguard (see docs/jvm.md); presentation (ordering of alternatives, {@code <OR>}) is the
 * business of {@link TraceRetracer}.
 */
public final class Retracer {
  /** A line range of one original method expands to at most this many ambiguous frames. */
  static final int MAX_EXPANDED_LINES = 1000;

  /**
   * One frame retraces to at most this many frames (alternatives and their inline chains): a
   * mapping of a few KB could otherwise expand one frame into millions.
   */
  public static final int MAX_FRAMES_PER_LOOKUP = 1000;

  private final JvmHeader header;
  private final PageSource<JvmPage> pages;

  public Retracer(JvmHeader header, PageSource<JvmPage> pages) {
    this.header = header;
    this.pages = pages;
  }

  /** All pages decoded up front: for the CLI, tests and benchmarks. */
  public static Retracer inMemory(JvmTable table) {
    return new Retracer(
        JvmHeader.decode(table.header()),
        new InMemoryPageSource<>(table.pages(), JvmPages::decode));
  }

  public JvmHeader header() {
    return header;
  }

  public JvmClass findClass(String obfuscated) {
    return findClass(obfuscated, obfuscated.hashCode());
  }

  private JvmClass findClass(String obfuscated, int hash) {
    long key = JvmTable.classKey(hash);
    JvmPage page = pages.floor(key);
    return page == null ? null : page.find(key, obfuscated);
  }

  /** The class named text[start, end) whose String hash is {@code hash}, or null. */
  JvmClass findClass(String text, int start, int end, int hash) {
    long key = JvmTable.classKey(hash);
    JvmPage page = pages.floor(key);
    return page == null ? null : page.find(key, text, start, end);
  }

  /** The original name of an obfuscated class, or null when the mapping does not know it. */
  public String remapClass(String obfuscated) {
    JvmClass c = findClass(obfuscated);
    return c == null ? null : c.originalName();
  }

  /** True when the frame is an R8 outline: it is dropped and its line carried to the caller. */
  public boolean isOutline(String cls, String method) {
    if (header.outlineMethods() == 0) {
      return false; // saves a second lookup per frame for the common mapping without outlines
    }
    JvmClass c = findClass(cls);
    MethodMapping mm = c == null ? null : c.method(method);
    return mm != null && mm.outline();
  }

  /** The callsite line for an outline position within the caller frame, or -1. */
  public int mapOutlinePosition(String cls, String method, int callsiteLine, int position) {
    JvmClass c = findClass(cls);
    MethodMapping mm = c == null ? null : c.method(method);
    if (mm == null) {
      return -1;
    }
    for (MemberEntry e : mm.entries()) {
      if (!e.hasLineRange() || e.covers(callsiteLine)) {
        int l = e.outlineCallsite(position);
        if (l >= 0) {
          return l;
        }
      }
    }
    return -1;
  }

  /** Retraces one frame; {@code line} &lt;= 0 means the trace has no line for it. */
  public FrameResult retrace(String cls, String method, int line) {
    return retrace(cls, method, line, false);
  }

  /**
   * Like {@link #retrace(String, String, int)}; with {@code r8Ambiguity}, a single obfuscated
   * line mapped to a range of original lines yields one alternative per original line, as R8
   * prints it (rust-proguard takes the first line).
   */
  public FrameResult retrace(String cls, String method, int line, boolean r8Ambiguity) {
    return retrace(cls, cls.hashCode(), method, method.hashCode(), line, r8Ambiguity);
  }

  /** With the names' hash codes already known (the trace parser computes them while scanning). */
  FrameResult retrace(
      String cls, int clsHash, String method, int methodHash, int line, boolean r8Ambiguity) {
    JvmClass c = findClass(cls, clsHash);
    if (c == null) {
      return FrameResult.UNKNOWN;
    }
    MethodMapping mm = c.method(method, methodHash);
    List<RetracedFrame> out = new ArrayList<>(8);
    collect(c, mm, line, r8Ambiguity, out);
    if (out.isEmpty()) {
      return new FrameResult(
          FrameResult.Status.CLASS_ONLY, c.originalName(), c.sourceFile(), List.of());
    }
    return new FrameResult(FrameResult.Status.MAPPED, c.originalName(), c.sourceFile(), out);
  }

  /** Adds the original frames of method mm (may be null) of class c at line to out. */
  static void collect(
      JvmClass c, MethodMapping mm, int line, boolean r8Ambiguity, List<RetracedFrame> out) {
    if (mm != null) {
      if (line > 0) {
        withLine(c, mm, line, r8Ambiguity, out);
      } else {
        withoutLine(c, mm, out);
      }
    }
  }

  private static void withLine(
      JvmClass c, MethodMapping mm, int line, boolean r8, List<RetracedFrame> out) {
    MemberEntry[] entries = mm.entries();
    boolean hasLines = mm.hasLineInfo();
    int alt = -1;
    if (hasLines) {
      int[] starts = mm.starts();
      int[] ends = mm.ends();
      int chain = 0;
      for (int i = 0; i < starts.length && !full(out); i++) {
        if (line <= ends[i] && line >= starts[i] && ends[i] > 0) {
          MemberEntry e = entries[i];
          if (e.chainStart() || alt < 0) {
            alt++;
            chain = i;
            if (r8 && e.obfStart() == e.obfEnd() && e.origEnd() > e.origStart()) {
              i = expandChain(c, entries, i, alt, out);
              alt = out.get(out.size() - 1).alternative();
              continue;
            }
          }
          out.add(frame(c, e, e.originalLine(line), chain, alt));
        }
      }
    } else {
      for (int i = 0; i < entries.length && !full(out); i++) {
        alt = lineless(c, entries[i], line, alt, out);
      }
    }
    if (out.isEmpty() && hasLines) {
      // No range covers the line: R8 falls back to the method's lines without a range.
      for (int i = 0; i < entries.length && !full(out); i++) {
        if (entries[i].obfEnd() < 0) {
          alt = lineless(c, entries[i], line, alt, out);
        }
      }
    }
  }

  /** The lookup has as many frames as it may give ({@link #MAX_FRAMES_PER_LOOKUP}). */
  static boolean full(List<RetracedFrame> out) {
    return out.size() >= MAX_FRAMES_PER_LOOKUP;
  }

  /**
   * R8: the chain starting at entry i has one obfuscated line but a range of original lines; each
   * original line becomes an alternative, followed by the chain's callers. Returns the index of
   * the chain's last entry.
   */
  private static int expandChain(
      JvmClass c, MemberEntry[] entries, int i, int alt, List<RetracedFrame> out) {
    MemberEntry e = entries[i];
    int last = i;
    while (last + 1 < entries.length && !entries[last + 1].chainStart()) {
      last++;
    }
    int end = (int) Math.min(e.origEnd(), (long) e.origStart() + MAX_EXPANDED_LINES - 1);
    for (int l = e.origStart(); l <= end && !full(out); l++, alt++) {
      out.add(frame(c, e, l, i, alt));
      for (int k = i + 1; k <= last && !full(out); k++) {
        out.add(frame(c, entries[k], entries[k].originalLine(e.obfStart()), i, alt));
      }
    }
    return last;
  }

  private static int lineless(
      JvmClass c, MemberEntry e, int line, int alt, List<RetracedFrame> out) {
    alt = e.chainStart() || alt < 0 ? alt + 1 : alt;
    if (e.origStart() < 0) {
      out.add(frame(c, e, line, alt)); // no line information at all: keep the trace's line
    } else if (e.obfEnd() < 0 && e.origEnd() > e.origStart()) {
      // One original range and no obfuscated one: every original line is a candidate.
      int last = (int) Math.min(e.origEnd(), (long) e.origStart() + MAX_EXPANDED_LINES - 1);
      int chain = -1 - alt;
      for (int l = e.origStart(); l <= last && !full(out); l++) {
        out.add(frame(c, e, l, chain, alt));
        if (l < last) {
          alt++;
        }
      }
    } else {
      out.add(frame(c, e, e.origStart() > 0 ? e.origStart() : -1, alt));
    }
    return alt;
  }

  /** No line in the trace: prefer entries without a range (rust-proguard's resolution). */
  private static void withoutLine(JvmClass c, MethodMapping mm, List<RetracedFrame> out) {
    MemberEntry[] entries = mm.entries();
    int baseCount = 0;
    boolean zeroZeroHasRange = false;
    int noRange = 0;
    String firstNoRangeName = null;
    boolean noRangeSameName = true;
    for (MemberEntry e : entries) {
      if (e.hasLineRange()) {
        continue;
      }
      baseCount++;
      if (e.obfEnd() == 0) {
        zeroZeroHasRange |= e.origEnd() >= 0 && e.origEnd() != e.origStart();
      } else {
        noRange++;
        if (firstNoRangeName == null) {
          firstNoRangeName = e.name();
        } else if (!firstNoRangeName.equals(e.name())) {
          noRangeSameName = false;
        }
      }
    }
    int alt = -1;
    if (baseCount == 0) {
      boolean same = true;
      for (MemberEntry e : entries) {
        same &= e.name().equals(entries[0].name()) && sameClass(e, entries[0]);
      }
      if (same) {
        out.add(frame(c, entries[0], 0, 0));
      } else {
        for (int i = 0; i < entries.length && !full(out); i++) {
          alt = entries[i].chainStart() || alt < 0 ? alt + 1 : alt;
          out.add(frame(c, entries[i], 0, alt));
        }
      }
      return;
    }
    boolean noRangeDone = false;
    for (MemberEntry e : entries) {
      if (full(out)) {
        break;
      }
      if (e.hasLineRange()) {
        continue;
      }
      if (e.obfEnd() == 0) {
        alt = e.chainStart() || alt < 0 ? alt + 1 : alt;
        int l = zeroZeroHasRange ? 0 : (e.origStart() > 0 ? e.origStart() : -1);
        out.add(frame(c, e, l, alt));
      } else if (!noRangeDone) {
        noRangeDone = true;
        if (noRangeSameName) {
          int l = noRange == 1 && e.origStart() > 0 ? e.origStart() : 0;
          out.add(frame(c, e, l, ++alt));
        } else {
          // Different methods share the name: all are candidates, ordered by original line.
          List<MemberEntry> cands = new ArrayList<>();
          for (MemberEntry x : entries) {
            if (x.obfEnd() < 0) {
              cands.add(x);
            }
          }
          cands.sort((a, b) -> Integer.compare(a.origStart(), b.origStart()));
          for (int i = 0; i < cands.size() && !full(out); i++) {
            out.add(frame(c, cands.get(i), 0, ++alt));
          }
        }
      }
    }
  }

  private static boolean sameClass(MemberEntry a, MemberEntry b) {
    return a.origClass() == null ? b.origClass() == null : a.origClass().equals(b.origClass());
  }

  private static RetracedFrame frame(JvmClass c, MemberEntry e, int line, int alt) {
    return frame(c, e, line, -1 - alt, alt);
  }

  private static RetracedFrame frame(JvmClass c, MemberEntry e, int line, int chain, int alt) {
    String cls = e.origClass() == null ? c.originalName() : e.origClass();
    return new RetracedFrame(
        cls,
        e.name(),
        line,
        e.declaredFile(),
        c.sourceFile(),
        e.synthesized(),
        e.methodId(),
        chain,
        alt,
        e.rules());
  }

  /**
   * Applies R8 rewriteFrame rules for the first frame after an exception line: the rules of all
   * selected mapping lines whose conditions hold remove inner frames. Returns the frames left
   * (possibly none, in which case the frame line disappears from the output).
   */
  public static List<RetracedFrame> applyRewriteRules(
      List<RetracedFrame> frames, String thrownDescriptor) {
    if (frames.isEmpty() || thrownDescriptor == null) {
      return frames;
    }
    List<RetracedFrame> cur = frames;
    // Rules are evaluated in the order the frames carry them; each rule applies at most once.
    for (RetracedFrame f : frames) {
      for (RewriteRule r : f.rules()) {
        if (!r.matches(thrownDescriptor)) {
          continue;
        }
        int n = r.removeInnerFrames();
        cur = n >= cur.size() ? List.of() : cur.subList(n, cur.size());
        if (cur.isEmpty()) {
          return cur;
        }
      }
    }
    return cur;
  }
}

package io.symbolicate.symbols.jvm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Retraces a text stack trace line by line: frames and exception headers are rewritten,
 * everything else (messages, {@code ... N more}, log noise) is copied as is. One instance keeps
 * the state a trace needs (last exception for rewriteFrame rules, a pending outline position),
 * so use one per input stream and not from several threads.
 */
public final class TraceRetracer {

  /** How results are printed. */
  public enum Style {
    /**
     * Like R8's {@code retrace} tool: the frame line's indentation is kept, ambiguous
     * alternatives are sorted and printed with {@code <OR>}, missing lines are omitted.
     */
    R8,
    /** Like rust-proguard / Sentry: every frame as {@code "    at ..."}, alternatives in mapping order. */
    SENTRY
  }

  /** Receives each retraced frame line (for JSON output). */
  public interface FrameListener {
    void frame(StackTraceLine.Frame input, FrameResult result, List<RetracedFrame> frames);
  }

  private final Retracer retracer;
  private final Style style;

  /** R8 honours synthesized markers only in versioned maps, rewriteFrame and outlines from 2.0. */
  private final boolean dropSynthesized;

  private final boolean applyR8Rules;
  private FrameListener listener;
  private String thrownDescriptor;
  private boolean canRewrite;
  private int carriedOutlinePosition = -1;

  /** Reused for each frame's result (a frame's frames are printed before the next is looked up). */
  private final ArrayList<RetracedFrame> scratch = new ArrayList<>(8);

  /**
   * R8 file names derived from class names, direct-mapped by (class name, input file kind): the
   * class name Strings come from the decoded pages, so identity is a cheap exact check.
   */
  private final String[] fileCacheClass = new String[FILE_CACHE_SIZE * 3];

  private final String[] fileCacheName = new String[FILE_CACHE_SIZE * 3];
  private static final int FILE_CACHE_SIZE = 4096;

  public TraceRetracer(Retracer retracer, Style style) {
    this.retracer = retracer;
    this.style = style;
    int major = majorVersion(retracer.header().mapVersion());
    this.dropSynthesized = style == Style.R8 && major >= 1;
    this.applyR8Rules = style == Style.SENTRY || major >= 2;
  }

  private static int majorVersion(String v) {
    if (v == null) {
      return -1;
    }
    int n = 0;
    int i = 0;
    while (i < v.length() && i < 6 && Character.isDigit(v.charAt(i))) {
      n = n * 10 + (v.charAt(i++) - '0');
    }
    return i == 0 ? -1 : n;
  }

  public TraceRetracer listener(FrameListener l) {
    this.listener = l;
    return this;
  }

  /** Retraces a whole text; lines end with '\n' in the output. */
  public String retrace(String text) {
    // Retraced text is about four times the input (names, inline frames; 4.006x on the benchmark
    // traces): start a little above that, since a regrow of a builder this size copies and zeroes
    // more than twice the output.
    StringBuilder out = new StringBuilder((int) Math.min(4.5 * text.length() + 64, 1 << 27));
    int pos = 0;
    int len = text.length();
    while (pos < len) {
      int nl = text.indexOf('\n', pos);
      int end = nl < 0 ? len : nl;
      int e = end > pos && text.charAt(end - 1) == '\r' ? end - 1 : end;
      StackTraceLine.Frame f = StackTraceLine.parseFrame(text, pos, e);
      if (f != null) {
        frame(f, out);
      } else {
        other(text.substring(pos, e), out);
      }
      pos = end + 1;
    }
    return out.toString();
  }

  /**
   * Retraces a large text on several threads: the text is cut at blank lines (where a trace's
   * state resets), the pieces are retraced independently and handed to {@code sink} in input
   * order, so the output is the same as {@link #retrace(String)}'s. Mappings with outlines are
   * retraced on one thread, because an outline frame's position may carry over a blank line.
   */
  public static void retraceParallel(
      Retracer retracer, Style style, String text, int threads, Consumer<String> sink)
      throws InterruptedException {
    int target = Math.max(1 << 18, text.length() / Math.max(1, threads * 8));
    if (threads <= 1 || text.length() < 2 * target || retracer.header().outlineMethods() > 0) {
      sink.accept(new TraceRetracer(retracer, style).retrace(text));
      return;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "retrace");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<String>> parts = new ArrayList<>();
      int start = 0;
      while (start < text.length()) {
        int end =
            start + target >= text.length() ? text.length() : blankLineAfter(text, start + target);
        String chunk = text.substring(start, end);
        parts.add(pool.submit(() -> new TraceRetracer(retracer, style).retrace(chunk)));
        start = end;
      }
      for (Future<String> f : parts) {
        sink.accept(f.get());
      }
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Index just after the first blank line at or after from (or the end of the text). */
  private static int blankLineAfter(String text, int from) {
    int i = text.indexOf("\n\n", from);
    return i < 0 ? text.length() : i + 2;
  }

  /** Retraces one line (without its line break) and appends the result lines to out. */
  public void line(String line, StringBuilder out) {
    StackTraceLine.Frame f = StackTraceLine.parseFrame(line);
    if (f != null) {
      frame(f, out);
    } else {
      other(line, out);
    }
  }

  /** A line that is not a frame: an exception header is remapped, anything else copied. */
  private void other(String line, StringBuilder out) {
    StackTraceLine.Throwable t = StackTraceLine.parseThrowable(line);
    if (t != null) {
      String cls = line.substring(t.classStart(), t.classEnd());
      String orig = retracer.remapClass(cls);
      thrownDescriptor = RewriteRule.descriptorOf(orig != null ? orig : cls);
      canRewrite = true;
      if (orig == null) {
        out.append(line).append('\n');
      } else {
        out.append(line, 0, t.classStart())
            .append(orig)
            .append(line, t.classEnd(), line.length())
            .append('\n');
      }
      return;
    }
    canRewrite = false;
    thrownDescriptor = null;
    out.append(line).append('\n');
  }

  private void frame(StackTraceLine.Frame f, StringBuilder out) {
    if (applyR8Rules && retracer.isOutline(f.className(), f.method())) {
      carriedOutlinePosition = Math.max(f.line(), 0);
      return;
    }
    int lineNo = f.line();
    if (carriedOutlinePosition >= 0) {
      int mapped =
          retracer.mapOutlinePosition(f.className(), f.method(), lineNo, carriedOutlinePosition);
      carriedOutlinePosition = -1;
      if (mapped >= 0) {
        lineNo = mapped;
      }
    }
    JvmClass c = retracer.findClass(f.text, f.classStart, f.classEnd, f.classHash);
    ArrayList<RetracedFrame> found = scratch;
    found.clear();
    if (c != null) {
      Retracer.collect(
          c,
          c.method(f.text, f.classEnd + 1, f.methodEnd, f.methodHash),
          lineNo,
          style == Style.R8,
          found);
    }
    FrameResult.Status status =
        c == null
            ? FrameResult.Status.UNKNOWN_CLASS
            : found.isEmpty() ? FrameResult.Status.CLASS_ONLY : FrameResult.Status.MAPPED;
    List<RetracedFrame> frames = found;
    if (canRewrite && applyR8Rules && !frames.isEmpty()) {
      frames = Retracer.applyRewriteRules(frames, thrownDescriptor);
    }
    if (dropSynthesized && !frames.isEmpty()) {
      frames = withoutSynthesized(frames);
    }
    canRewrite = false;
    thrownDescriptor = null;
    if (listener != null) {
      FrameResult r =
          c == null
              ? FrameResult.UNKNOWN
              : new FrameResult(
                  status,
                  c.originalName(),
                  c.sourceFile(),
                  found.isEmpty() ? List.of() : List.copyOf(found));
      listener.frame(f, r, frames == found ? r.frames() : List.copyOf(frames));
    }
    switch (status) {
      case UNKNOWN_CLASS -> {
        if (style == Style.R8 && f.line() == 0) {
          // R8 re-prints the frame and drops a zero line
          f.appendIndent(out);
          out.append("at ");
          f.appendModule(out);
          f.appendClassAndMethod(out);
          out.append('(');
          f.appendFile(out);
          out.append(")\n");
        } else {
          f.appendLine(out);
          out.append('\n');
        }
      }
      case CLASS_ONLY -> classOnly(f, c, lineNo, out);
      case MAPPED -> {
        if (!frames.isEmpty()) {
          if (style == Style.R8) {
            r8Frames(f, frames, out);
          } else {
            for (RetracedFrame rf : frames) {
              out.append("    at ");
              f.appendModule(out);
              out.append(rf.className())
                  .append('.')
                  .append(rf.method())
                  .append('(')
                  .append(rf.sentryFile());
              if (rf.line() >= 0) {
                out.append(':').append(rf.line());
              }
              out.append(")\n");
            }
          }
        }
      }
      default -> throw new IllegalStateException();
    }
  }

  /** R8 leaves out frames of compiler-synthesized methods. */
  private static List<RetracedFrame> withoutSynthesized(List<RetracedFrame> frames) {
    boolean any = false;
    for (RetracedFrame rf : frames) {
      any |= rf.synthesized();
    }
    if (!any) {
      return frames;
    }
    List<RetracedFrame> kept = new ArrayList<>(frames.size());
    for (RetracedFrame rf : frames) {
      if (!rf.synthesized()) {
        kept.add(rf);
      }
    }
    return kept;
  }

  private void classOnly(StackTraceLine.Frame f, JvmClass c, int lineNo, StringBuilder out) {
    String cls = c.originalName();
    if (style == Style.R8) {
      f.appendIndent(out);
      out.append("at ");
      f.appendModule(out);
      out.append(cls).append('.').append(f.text, f.classEnd + 1, f.methodEnd).append('(');
      if (f.fileIs("Native Method")) {
        f.appendFile(out);
      } else {
        out.append(c.sourceFile() != null ? c.sourceFile() : r8File(cls, f.fileKind()));
      }
      if (lineNo > 0) {
        out.append(':').append(lineNo);
      }
      out.append(")\n");
    } else {
      out.append("    at ")
          .append(f.module())
          .append(cls)
          .append('.')
          .append(f.method())
          .append('(')
          .append(SourceFiles.synthesize(cls, f.file()))
          .append(':')
          .append(Math.max(lineNo, 0))
          .append(")\n");
    }
  }

  private static final Comparator<List<RetracedFrame>> R8_ORDER =
      (a, b) -> {
        RetracedFrame x = a.get(0);
        RetracedFrame y = b.get(0);
        int c = x.className().compareTo(y.className());
        if (c == 0) {
          c = x.method().compareTo(y.method());
        }
        if (c == 0) {
          c = Integer.compare(x.line(), y.line());
        }
        return c;
      };

  /** R8 prints alternatives row by row: row d holds the d-th inline frame of each alternative. */
  /** {@link SourceFiles#r8Synthesize(String, int)} through the cache. */
  private String r8File(String cls, int kind) {
    int slot = (cls.hashCode() & (FILE_CACHE_SIZE - 1)) * 3 + kind;
    if (fileCacheClass[slot] == cls) {
      return fileCacheName[slot];
    }
    String file = SourceFiles.r8Synthesize(cls, kind);
    fileCacheClass[slot] = cls;
    fileCacheName[slot] = file;
    return file;
  }

  private void r8Frames(StackTraceLine.Frame f, List<RetracedFrame> frames, StringBuilder out) {
    boolean native_ = f.fileIs("Native Method");
    int kind = native_ ? SourceFiles.NO_EXTENSION : f.fileKind();
    int firstAlt = frames.get(0).alternative();
    boolean single = true;
    for (RetracedFrame rf : frames) {
      single &= rf.alternative() == firstAlt;
    }
    if (single) {
      for (RetracedFrame rf : frames) {
        r8Line(f, rf, false, native_, kind, out);
      }
      return;
    }
    List<List<RetracedFrame>> chains = new ArrayList<>();
    int cur = Integer.MIN_VALUE;
    for (RetracedFrame rf : frames) {
      if (rf.alternative() != cur) {
        chains.add(new ArrayList<>(2));
        cur = rf.alternative();
      }
      chains.get(chains.size() - 1).add(rf);
    }
    // R8 keeps the first chain (in mapping order) per outer method, and drops a later chain
    // whose innermost frame prints the same as a kept one's.
    List<List<RetracedFrame>> alts = new ArrayList<>(chains.size());
    for (List<RetracedFrame> ch : chains) {
      boolean dup = false;
      for (List<RetracedFrame> a : alts) {
        if (sameOuterMethod(a, ch) || samePrinted(a.subList(0, 1), ch.subList(0, 1), f.file())) {
          dup = true;
          break;
        }
      }
      if (!dup) {
        alts.add(ch);
      }
    }
    alts.sort(R8_ORDER);
    int depth = 0;
    for (List<RetracedFrame> a : alts) {
      depth = Math.max(depth, a.size());
    }
    List<RetracedFrame> row = new ArrayList<>(alts.size());
    for (int d = 0; d < depth; d++) {
      row.clear();
      for (int k = 0; k < alts.size(); k++) {
        List<RetracedFrame> a = alts.get(k);
        if (d >= a.size()) {
          continue;
        }
        RetracedFrame rf = a.get(d);
        boolean printed = false;
        for (RetracedFrame x : row) {
          printed |= samePrinted(List.of(x), List.of(rf), f.file());
        }
        if (!printed) {
          // R8 prints a frame once per row even when several alternatives have it there.
          row.add(rf);
          r8Line(f, rf, k > 0, native_, kind, out);
        }
      }
    }
  }

  private static boolean sameOuterMethod(List<RetracedFrame> a, List<RetracedFrame> b) {
    RetracedFrame x = a.get(a.size() - 1);
    RetracedFrame y = b.get(b.size() - 1);
    // alternatives that only differ in the line of one ambiguous original range all stay
    return x.methodId() == y.methodId()
        && x.className().equals(y.className())
        && a.get(0).chainEntry() != b.get(0).chainEntry();
  }

  private static boolean samePrinted(
      List<RetracedFrame> a, List<RetracedFrame> b, String inputFile) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      RetracedFrame x = a.get(i);
      RetracedFrame y = b.get(i);
      if (!x.className().equals(y.className())
          || !x.method().equals(y.method())
          || Math.max(x.line(), 0) != Math.max(y.line(), 0)
          || !x.r8File(inputFile).equals(y.r8File(inputFile))) {
        return false;
      }
    }
    return true;
  }

  private void r8Line(
      StackTraceLine.Frame f,
      RetracedFrame rf,
      boolean or,
      boolean native_,
      int kind,
      StringBuilder out) {
    f.appendIndent(out);
    if (or) {
      out.append("<OR> ");
    }
    out.append("at ");
    f.appendModule(out);
    out.append(rf.className()).append('.').append(rf.method()).append('(');
    if (native_) {
      out.append("Native Method");
    } else {
      out.append(rf.declaredFile() != null ? rf.declaredFile() : r8File(rf.className(), kind));
    }
    if (rf.line() > 0) {
      out.append(':').append(rf.line());
    }
    out.append(")\n");
  }
}

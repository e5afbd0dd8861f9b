package io.symbolicate.demo;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

/** Prints what the demo produced, for a person to read. */
public final class DemoSummary {
  private DemoSummary() {}

  public static void print(PrintStream out, Demo.Result r) {
    out.println();
    out.printf("═══ %d symbolicated events on crash-events.symbolicated ═══%n", r.events().size());
    for (SymbolicatedEvent e : r.events()) {
      printEvent(out, e);
    }
    out.println();
    out.printf("═══ %d dead letters on crash-events.dlq ═══%n", r.deadLetters().size());
    for (DeadLetter d : r.deadLetters()) {
      String label =
          d.getOriginalKey() == null
              ? "?"
              : new String(bytes(d.getOriginalKey()), StandardCharsets.UTF_8);
      out.printf(
          "✗ %-26s offset %-3d %-16s %s%n",
          label, d.getSourceOffset(), d.getErrorKind(), abbreviate(d.getMessage()));
    }
    out.println();
    out.printf(
        "═══ %d event(s) reprocessed once libc.so.6's symbols arrived (reprocessed=true) ═══%n",
        r.reprocessed().size());
    for (SymbolicatedEvent e : r.reprocessed()) {
      printEvent(out, e);
    }
    out.println();
    int expected = r.inputs().size();
    int got = r.events().size() + r.deadLetters().size();
    out.printf(
        "%d records in, %d symbolicated + %d dead-lettered = %d out%s; %d of %d reprocessed came out again;"
            + " in %.1f s%n",
        expected,
        r.events().size(),
        r.deadLetters().size(),
        got,
        got == expected ? " (nothing lost)" : " (INCOMPLETE)",
        r.reprocessed().size(),
        r.reprocessedExpected(),
        r.elapsed().toMillis() / 1000.0);
  }

  private static void printEvent(PrintStream out, SymbolicatedEvent e) {
    out.printf(
        "%n● %s  platform=%s  scope=%s  release=%s%n",
        e.getEvent().getEventId(),
        Platforms.wireName(e.getEvent().getPlatform()),
        e.getEvent().getScope(),
        e.getEvent().getRelease());
    for (ModuleResult m : e.getModules()) {
      out.printf(
          "    module %d %-50s %s%n",
          m.getIndex(), m.getKey() == null ? "(no debug id)" : m.getKey(), m.getStatus());
    }
    for (SymbolicatedStack s : e.getStacks()) {
      out.printf("    %s %d:%n", s.getKind(), s.getIndex());
      for (SymbolicatedFrame f : s.getFrames()) {
        out.printf(
            "      #%-2d %-18s %-28s → %s%n",
            f.getOriginalIndex(), f.getStatus(), before(e, s, f), symbolicated(f));
      }
    }
    Map<FrameStatus, Integer> counts = new EnumMap<>(FrameStatus.class);
    e.getStacks()
        .forEach(s -> s.getFrames().forEach(f -> counts.merge(f.getStatus(), 1, Integer::sum)));
    out.printf("    frames by status: %s%n", counts);
  }

  /** The frame as the crash report had it ("before"). */
  private static String before(SymbolicatedEvent e, SymbolicatedStack s, SymbolicatedFrame f) {
    if (f.getModuleIndex() != null && f.getModuleOffset() != null) {
      return "module " + f.getModuleIndex() + " +0x" + Long.toHexString(f.getModuleOffset());
    }
    int i = f.getOriginalIndex();
    if (e.getEvent().getJavascript() != null) {
      var raw = e.getEvent().getJavascript().getExceptions().get(s.getIndex()).getFrames().get(i);
      String path = raw.getAbsPath() == null ? "?" : raw.getAbsPath().replaceFirst("^.*/", "");
      return path + ":" + raw.getLineno() + ":" + raw.getColno();
    }
    if (e.getEvent().getJvm() != null) {
      var raw = e.getEvent().getJvm().getExceptions().get(s.getIndex()).getFrames().get(i);
      return raw.getModule() + "." + raw.getFunction() + ":" + raw.getLineno();
    }
    return "";
  }

  /** What symbolication made of it ("after"), or why not. */
  private static String symbolicated(SymbolicatedFrame f) {
    if (f.getFunction() == null) {
      return f.getMessage() == null ? "" : "(" + f.getMessage() + ")";
    }
    StringBuilder b =
        new StringBuilder(f.getClassName() == null ? "" : f.getClassName() + ".")
            .append(f.getFunction());
    if (f.getFile() != null) {
      b.append("  ")
          .append(f.getFile())
          .append(f.getLine() == null ? "" : ":" + f.getLine())
          .append(f.getColumn() == null ? "" : ":" + f.getColumn());
    }
    if (f.getInlined()) {
      b.append("  [inlined]");
    }
    if (f.getAmbiguous()) {
      b.append("  [ambiguous]");
    }
    return b.toString();
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private static String abbreviate(String s) {
    return s.length() <= 110 ? s : s.substring(0, 107) + "...";
  }
}

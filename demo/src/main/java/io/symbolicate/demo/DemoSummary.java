package io.symbolicate.demo;

import com.fasterxml.jackson.databind.JsonNode;
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
    out.printf("═══ %d symbol files uploaded over HTTP ═══%n", r.uploads().size() + 1);
    for (Demo.Upload u : r.uploads()) {
      printUpload(out, u);
    }
    printUpload(out, r.lateUpload());
    out.println();
    out.printf("═══ the minidump posted to /submit ═══%n");
    if (r.crashId() == null) {
      out.println("✗ refused (see above)");
    } else {
      out.printf(
          "CrashID=bp-%s, stored at s3://%s/%s, walked and symbolicated in the stream:%n",
          r.crashId(), Demo.DUMPS_BUCKET, r.dumpKey());
    }
    out.println();
    out.printf(
        "═══ %d symbolicated events on crash-events.symbolicated (with their signatures) ═══%n",
        r.events().size());
    for (SymbolicatedEvent e : r.events()) {
      printEvent(out, e, r.crashId());
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
        "═══ top crashers, last 24 h: %d crashes (%s) ═══%n",
        r.topCrashersTotal(), r.api().resolve("api/top-crashers?since=24h&limit=5"));
    for (Demo.Crasher c : r.topCrashers()) {
      out.printf("%5d  %5.1f%%  %s%n", c.count(), 100 * c.share(), c.signature());
    }
    out.println();
    out.printf(
        "═══ %d event(s) reprocessed once libc.so.6's symbols were uploaded (reprocessed=true) ═══%n",
        r.reprocessed().size());
    for (SymbolicatedEvent e : r.reprocessed()) {
      printEvent(out, e, r.crashId());
    }
    out.println();
    out.printf(
        "═══ status page: %s (GET answered %d) ═══%n", r.api().resolve("status"), r.statusPage());
    if (r.status() != null) {
      JsonNode ev = r.status().path("events");
      JsonNode dl = r.status().path("dead_letters");
      out.printf(
          "events in %d, out %d; dead letters %d; figures as JSON on %s%n",
          ev.path("in_total").asLong(),
          ev.path("out_total").asLong(),
          dl.path("total").asLong(),
          r.api().resolve("status.json"));
    }
    out.println();
    int expected = r.expectedOutputs();
    int got = r.events().size() + r.deadLetters().size();
    out.printf(
        "%d records in (%d on crash-events.raw + %d via /submit), %d symbolicated + %d"
            + " dead-lettered = %d out%s; %d of %d reprocessed came out again; in %.1f s%n",
        expected,
        r.inputs().size(),
        expected - r.inputs().size(),
        r.events().size(),
        r.deadLetters().size(),
        got,
        got == expected ? " (nothing lost)" : " (INCOMPLETE)",
        r.reprocessed().size(),
        r.reprocessedExpected(),
        r.elapsed().toMillis() / 1000.0);
  }

  private static void printUpload(PrintStream out, Demo.Upload u) {
    out.printf(
        "%s %-24s %-16s %d%s%n",
        u.status() == 200 ? "✓" : "✗",
        u.route(),
        u.file(),
        u.status(),
        u.status() == 200 ? "" : " " + abbreviate(u.body()));
  }

  private static void printEvent(PrintStream out, SymbolicatedEvent e, String crashId) {
    String id = e.getEvent().getEventId();
    out.printf(
        "%n● %s%s  platform=%s  release=%s%n",
        id,
        id.equals(crashId) ? " (the crash from /submit)" : "",
        Platforms.wireName(e.getEvent().getPlatform()),
        e.getEvent().getRelease());
    out.printf("    signature: %s%n", e.getSignature() == null ? "(none)" : e.getSignature());
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

package io.symbolicate.symbols.symbfile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Turns a Breakpad .sym into a ranges symbfile (test and benchmark utility): each FUNC becomes a
 * depth-0 range, each INLINE range a range at its level + 1, and the LINE records are cut at the
 * range boundaries and put into the line table of the deepest range at each address, with a
 * line-0 entry where a range has a gap without lines (line 0 is "no line", as in DWARF). FILE
 * and INLINE_ORIGIN names go into one string table (up to {@link #TABLE_BUDGET} bytes), others
 * are written inline. PUBLIC and STACK records have no symbfile form and are left out.
 *
 * <p>Written independently of the .sym parser and of {@link SymbfileConverter}, so a round trip
 * checks both. A range whose lines name more than one file keeps the first ({@link #fileConflicts}).
 */
public final class SymToSymbfile {
  /** Bytes of names the string table may hold (the reader's message limit is 16 MiB). */
  static final int TABLE_BUDGET = 8 << 20;

  private final SymbfileWriter w;
  private final Map<Integer, String> files = new HashMap<>();
  private final Map<Integer, String> origins = new HashMap<>();
  private boolean tableWritten;
  private long funcs;
  private long rangesWritten;
  private long fileConflicts;
  private long droppedRanges;

  // the current FUNC
  private boolean inFunc;
  private int lastLevel;
  private long fStart;
  private long fSize;
  private String fName;
  private final List<long[]> lines = new ArrayList<>(); // {addr, size, line, file}
  private final List<Object[]> inlines =
      new ArrayList<>(); // {level, callLine, callFile, origin, long[] ranges}

  private SymToSymbfile(OutputStream out) throws IOException {
    this.w = new SymbfileWriter(out);
  }

  /** Converts; returns what was written. */
  public static Stats convert(InputStream sym, OutputStream out) throws IOException {
    SymToSymbfile c = new SymToSymbfile(out);
    BufferedReader r =
        new BufferedReader(new InputStreamReader(sym, StandardCharsets.UTF_8), 1 << 16);
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      c.line(line);
    }
    c.endFunc();
    out.flush();
    return new Stats(
        c.funcs, c.rangesWritten, c.fileConflicts, c.droppedRanges, c.w.messageCount());
  }

  /** FUNCs and ranges written, ranges whose lines named several files, ranges left out (holes). */
  public record Stats(
      long functions, long ranges, long fileConflicts, long droppedRanges, long messages) {}

  private void line(String line) throws IOException {
    if (line.startsWith("FILE ")) {
      String[] p = line.split(" ", 3);
      files.put(Integer.parseInt(p[1]), p[2]);
    } else if (line.startsWith("INLINE_ORIGIN ")) {
      String[] p = line.split(" ", 3);
      origins.put(Integer.parseInt(p[1]), p[2]);
    } else if (line.startsWith("FUNC ")) {
      endFunc();
      writeTable();
      String[] p = line.split(" ", 6);
      int at = p[1].equals("m") ? 2 : 1;
      fStart = Long.parseUnsignedLong(p[at], 16);
      fSize = Long.parseUnsignedLong(p[at + 1], 16);
      fName = at + 3 < p.length ? line.split(" ", at + 4)[at + 3] : "";
      inFunc = true;
      lastLevel = -1;
    } else if (line.startsWith("INLINE ")) {
      if (inFunc) {
        String[] p = line.split(" ");
        boolean withFile = (p.length - 1) % 2 == 0;
        int level = Integer.parseInt(p[1]);
        int callLine = Integer.parseInt(p[2]);
        int callFile = withFile ? Integer.parseInt(p[3]) : -1;
        int origin = Integer.parseInt(p[withFile ? 4 : 3]);
        int from = withFile ? 5 : 4;
        long[] ranges = new long[p.length - from];
        for (int i = 0; i < ranges.length; i++) {
          ranges[i] = Long.parseUnsignedLong(p[from + i], 16);
        }
        if (level
            <= lastLevel + 1) { // Breakpad ignores a record nested deeper than one below the last
          inlines.add(new Object[] {level, callLine, callFile, origin, ranges});
          lastLevel = level;
        } else {
          droppedRanges++;
        }
      }
    } else if (line.startsWith("PUBLIC ")
        || line.startsWith("STACK ")
        || line.startsWith("MODULE ")
        || line.startsWith("INFO ")) {
      endFunc();
    } else if (inFunc && !line.isEmpty()) {
      String[] p = line.split(" ");
      lines.add(
          new long[] {
            Long.parseUnsignedLong(p[0], 16),
            Long.parseUnsignedLong(p[1], 16),
            Long.parseLong(p[2]),
            Long.parseLong(p[3])
          });
    }
  }

  private void writeTable() throws IOException {
    if (tableWritten) {
      return;
    }
    tableWritten = true;
    List<String> strings = new ArrayList<>();
    long bytes = 0;
    for (Map<Integer, String> m : List.of(files, origins)) {
      for (String s : m.values()) {
        bytes += s.length() + 4;
        if (bytes > TABLE_BUDGET) {
          break;
        }
        strings.add(s);
      }
    }
    w.stringTable(strings);
  }

  private void endFunc() throws IOException {
    if (!inFunc) {
      return;
    }
    inFunc = false;
    funcs++;
    // ranges: 0 is the FUNC; then one per INLINE range, by (start, depth)
    List<long[]> rs = new ArrayList<>(); // {start, high, depth, inlineIndex}
    rs.add(new long[] {fStart, fStart + fSize - 1, 0, -1});
    for (int i = 0; i < inlines.size(); i++) {
      Object[] in = inlines.get(i);
      long[] ranges = (long[]) in[4];
      for (int k = 0; k + 1 < ranges.length; k += 2) {
        if (ranges[k + 1] != 0) {
          rs.add(new long[] {ranges[k], ranges[k] + ranges[k + 1] - 1, (int) in[0] + 1, i});
        }
      }
    }
    // depth by containment, like Breakpad's ContainedRangeMap (its INLINE levels are not
    // trusted): by start, longer first, then file order; a range partly overlapping the one it
    // starts in is dropped, as Breakpad drops it
    List<long[]> inl = new ArrayList<>(rs.subList(1, rs.size()));
    inl.sort(
        (a, b) ->
            a[0] != b[0] ? Long.compareUnsigned(a[0], b[0]) : Long.compareUnsigned(b[1], a[1]));
    List<long[]> kept = new ArrayList<>();
    kept.add(rs.get(0));
    List<long[]> stack = new ArrayList<>();
    stack.add(rs.get(0));
    for (long[] r : inl) {
      while (stack.size() > 1 && Long.compareUnsigned(stack.get(stack.size() - 1)[1], r[0]) < 0) {
        stack.remove(stack.size() - 1);
      }
      long[] top = stack.get(stack.size() - 1);
      if (Long.compareUnsigned(r[0], top[0]) < 0 || Long.compareUnsigned(r[1], top[1]) > 0) {
        droppedRanges++;
        continue;
      }
      long[] c = {r[0], r[1], stack.size(), r[3]};
      kept.add(c);
      stack.add(c);
    }
    int n = kept.size();
    // elementary intervals: boundaries of ranges and lines inside the FUNC
    lines.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
    long fHigh = fStart + fSize - 1;
    List<Long> pts = new ArrayList<>();
    pts.add(fStart);
    for (long[] r : kept) {
      addPoint(pts, r[0], fHigh);
      addPoint(pts, r[1] + 1, fHigh);
    }
    for (long[] l : lines) {
      addPoint(pts, l[0], fHigh);
      addPoint(pts, l[0] + l[1], fHigh);
    }
    long[] p = pts.stream().mapToLong(Long::longValue).sorted().distinct().toArray();
    // per range: entries (offset, line) and the first file
    List<List<long[]>> entries = new ArrayList<>();
    long[] rangeFile = new long[n];
    Arrays.fill(rangeFile, -1);
    for (int i = 0; i < n; i++) {
      entries.add(new ArrayList<>());
    }
    PriorityQueue<Integer> active =
        new PriorityQueue<>(
            (a, b) ->
                kept.get(a)[2] != kept.get(b)[2]
                    ? Long.compare(kept.get(b)[2], kept.get(a)[2])
                    : Integer.compare(b, a));
    int nextRange = 0;
    int li = 0;
    for (long at : p) {
      if (Long.compareUnsigned(at, fStart) < 0 || Long.compareUnsigned(at, fHigh) > 0) {
        continue;
      }
      while (nextRange < n && Long.compareUnsigned(kept.get(nextRange)[0], at) <= 0) {
        active.add(nextRange++);
      }
      while (!active.isEmpty() && Long.compareUnsigned(kept.get(active.peek())[1], at) < 0) {
        active.poll();
      }
      if (active.isEmpty()) {
        continue;
      }
      int r = active.peek();
      while (li < lines.size()
          && Long.compareUnsigned(lines.get(li)[0] + lines.get(li)[1] - 1, at) < 0) {
        li++;
      }
      long lineNo = 0;
      if (li < lines.size() && Long.compareUnsigned(lines.get(li)[0], at) <= 0) {
        long[] l = lines.get(li);
        lineNo = l[2];
        if (rangeFile[r] < 0) {
          rangeFile[r] = l[3];
        } else if (rangeFile[r] != l[3]) {
          fileConflicts++;
        }
      }
      List<long[]> e = entries.get(r);
      if (e.isEmpty() ? lineNo != 0 : e.get(e.size() - 1)[1] != lineNo) {
        e.add(new long[] {at - kept.get(r)[0], lineNo});
      }
    }
    for (int i = 0; i < n; i++) {
      long[] r = kept.get(i);
      List<long[]> e = entries.get(i);
      long[] offs = new long[e.size()];
      int[] nums = new int[e.size()];
      for (int k = 0; k < offs.length; k++) {
        offs[k] = e.get(k)[0];
        nums[k] = (int) e.get(k)[1];
      }
      String file = rangeFile[i] < 0 ? null : files.get((int) rangeFile[i]);
      if (r[2] == 0) {
        w.range(r[0], r[1] - r[0] + 1, fName, file, 0, null, 0, offs, nums);
      } else {
        Object[] in = inlines.get((int) r[3]);
        int callFile = (int) in[2];
        w.range(
            r[0],
            r[1] - r[0] + 1,
            origins.getOrDefault((int) in[3], ""),
            file,
            (int) in[1],
            callFile < 0 ? null : files.get(callFile),
            (int) r[2],
            offs,
            nums);
      }
      rangesWritten++;
    }
    lines.clear();
    inlines.clear();
  }

  private static void addPoint(List<Long> pts, long v, long fHigh) {
    pts.add(v);
  }
}

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
        inlines.add(new Object[] {level, callLine, callFile, origin, ranges});
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
    // depth by nest level, as the table builder nests them: a level-L range under each level
    // L-1 range it overlaps, cut to it; a part without one is dropped; ranges of one level kept
    // disjoint (a range cut to start after the one before it)
    List<long[]> inl = new ArrayList<>(rs.subList(1, rs.size()));
    inl.sort((a, b) -> a[2] != b[2] ? Long.compare(a[2], b[2]) : Long.compareUnsigned(a[0], b[0]));
    List<long[]> kept = new ArrayList<>();
    kept.add(rs.get(0));
    List<long[]> upper = List.of(rs.get(0));
    List<long[]> lower = new ArrayList<>();
    long depth = 1;
    for (long[] r : inl) {
      if (r[2] != depth) {
        if (r[2] != depth + 1) {
          droppedRanges++;
          continue;
        }
        upper = lower;
        lower = new ArrayList<>();
        depth = r[2];
      }
      long b = r[0];
      if (!lower.isEmpty()) {
        long prevHigh = lower.get(lower.size() - 1)[1];
        if (Long.compareUnsigned(r[1], prevHigh) <= 0) {
          droppedRanges++;
          continue;
        }
        if (Long.compareUnsigned(b, prevHigh) <= 0) {
          b = prevHigh + 1;
        }
      }
      boolean any = false;
      int lo = 0; // upper is sorted and disjoint: the first range ending at or after b
      int hi = upper.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (Long.compareUnsigned(upper.get(mid)[1], b) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      for (int k = lo; k < upper.size(); k++) {
        long[] u = upper.get(k);
        if (Long.compareUnsigned(u[0], r[1]) > 0) {
          break;
        }
        long s0 = Long.compareUnsigned(b, u[0]) < 0 ? u[0] : b;
        long e0 = Long.compareUnsigned(u[1], r[1]) < 0 ? u[1] : r[1];
        long[] c = {s0, e0, depth, r[3]};
        kept.add(c);
        lower.add(c);
        any = true;
      }
      if (!any) {
        droppedRanges++;
      }
    }
    // by start, then depth (the sweep below wants parents first)
    kept.sort((a, b) -> a[0] != b[0] ? Long.compareUnsigned(a[0], b[0]) : Long.compare(a[2], b[2]));
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

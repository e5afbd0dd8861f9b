package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.dwarf.FunctionBuilder.LineRec;
import io.symbolicate.symbols.dwarf.FunctionBuilder.Node;
import io.symbolicate.symbols.nativecode.SymHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a function's inline tree into the FUNC, line and INLINE records Mozilla's dump_syms
 * writes: leaf lines only (an inlined call's range is covered by INLINE records, not lines), a
 * line written only when its (line, file) changes, line sizes running to the next line (the last
 * one to the function's end), INLINE records grouped by (origin, depth, call line, call file)
 * with adjacent ranges merged. FILE and INLINE_ORIGIN ids are given in the order dump_syms gives
 * them (first use), so the records match its output id for id.
 */
final class RecordWriter {
  private final SymHandler handler;
  private final boolean inlines;
  private final boolean everyLine;
  private final Map<String, Integer> fileIds = new HashMap<>();
  private final Map<String, Integer> originIds = new HashMap<>();

  // the current function's records
  private int lineCount;
  private long[] lineAddr = new long[64];
  private int[] lineNum = new int[64];
  private int[] lineFile = new int[64];
  private boolean sorted;
  private final TreeMap<long[], List<long[]>> sites = new TreeMap<>(RecordWriter::compareSite);
  private long[] rangeScratch = new long[16];

  /** {@code everyLine}: Breakpad's records, a line for every line-table address, none merged. */
  RecordWriter(SymHandler handler, boolean inlines, boolean everyLine) {
    this.handler = handler;
    this.inlines = inlines;
    this.everyLine = everyLine;
  }

  /** Distinct file paths and origin names kept for their ids (the writer's lasting heap). */
  int keptNames() {
    return fileIds.size() + originIds.size();
  }

  private static int compareSite(long[] a, long[] b) {
    for (int i = 0; i < 4; i++) {
      int c = Long.compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private int fileId(String path) {
    Integer id = fileIds.get(path);
    if (id == null) {
      id = fileIds.size();
      fileIds.put(path, id);
      byte[] b = path.getBytes(StandardCharsets.UTF_8);
      handler.file(id, b, 0, b.length);
    }
    return id;
  }

  private int originId(String name) {
    Integer id = originIds.get(name);
    if (id == null) {
      id = originIds.size();
      originIds.put(name, id);
      String shown = name.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f) ? strip(name) : name;
      byte[] b = shown.getBytes(StandardCharsets.UTF_8);
      handler.inlineOrigin(id, b, 0, b.length);
    }
    return id;
  }

  private static String strip(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    s.chars().filter(ch -> ch >= 0x20 && ch != 0x7f).forEach(ch -> sb.append((char) ch));
    return sb.toString();
  }

  /** Writes a function whose address was already written: a FUNC marked multiple, no records. */
  void duplicate(long address, long size, String name) {
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    handler.func(true, address, size, b, 0, b.length);
  }

  void write(Node fn) {
    lineCount = 0;
    sorted = true;
    sites.clear();
    if (inlines) {
      collectWithInlines(fn, 0);
    } else {
      collectWithoutInlines(fn);
    }
    byte[] b = fn.name.getBytes(StandardCharsets.UTF_8);
    handler.func(false, fn.address, fn.size, b, 0, b.length);
    writeInlines();
    writeLines(fn.address, fn.size);
  }

  private void addLine(long addr, int num, int file) {
    if (lineCount == lineAddr.length) {
      int n = lineCount * 2;
      lineAddr = Arrays.copyOf(lineAddr, n);
      lineNum = Arrays.copyOf(lineNum, n);
      lineFile = Arrays.copyOf(lineFile, n);
    }
    if (lineCount > 0 && lineAddr[lineCount - 1] > addr) {
      sorted = false;
    }
    lineAddr[lineCount] = addr;
    lineNum[lineCount] = num;
    lineFile[lineCount] = file;
    lineCount++;
  }

  private void collectWithoutInlines(Node fn) {
    long prevLine = -1;
    int prevFile = -1;
    for (LineRec line : fn.lines) {
      if (line.line == 0) {
        continue;
      }
      int file = fileId(line.path);
      if (everyLine || line.line != prevLine || file != prevFile) {
        addLine(line.address, (int) line.line, file);
        prevLine = line.line;
        prevFile = file;
      }
    }
  }

  private void collectWithInlines(Node fn, int depth) {
    int n = 0;
    long[] ranges = new long[16]; // (start, end, origin) triples
    for (Node inlinee : fn.children) {
      if (inlinee.lines.isEmpty()) {
        continue;
      }
      int origin = originId(inlinee.name);
      for (LineRec line : inlinee.lines) {
        if (n + 3 > ranges.length) {
          ranges = Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[n] = line.address;
        ranges[n + 1] = line.address + (line.size < 0 ? 1 : line.size);
        ranges[n + 2] = origin;
        n += 3;
      }
      collectWithInlines(inlinee, depth + 1);
    }
    int count = n / 3;
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    final long[] r = ranges;
    Arrays.sort(order, Comparator.comparingLong(i -> r[3 * i]));
    int next = 0;
    long prevLine = -1;
    int prevFile = -1;
    List<LineRec> lines = fn.lines;
    int li = 0;
    while (li < lines.size()) {
      LineRec line = lines.get(li);
      long start = line.address;
      long end = line.address + (line.size < 0 ? 1 : line.size);
      int file = fileId(line.path);
      int num = (int) line.line;
      long current = start;
      while (current < end) {
        if (next >= count || r[3 * order[next]] > current) {
          if (everyLine || num != prevLine || file != prevFile) {
            addLine(current, num, file);
            prevLine = num;
            prevFile = file;
          }
        }
        if (next < count && r[3 * order[next]] < end) {
          int k = order[next];
          long[] site = {r[3 * k + 2], depth, num & 0xffffffffL, file};
          sites
              .computeIfAbsent(site, s -> new ArrayList<>())
              .add(new long[] {r[3 * k], r[3 * k + 1] - r[3 * k]});
          current = r[3 * k + 1];
          prevLine = -1;
          prevFile = -1;
          next++;
        } else {
          current = end;
        }
      }
      li++;
      while (li < lines.size() && lines.get(li).address < current) {
        li++;
      }
    }
  }

  private void writeInlines() {
    if (sites.isEmpty()) {
      return;
    }
    List<Map.Entry<long[], List<long[]>>> entries = new ArrayList<>(sites.size());
    for (Map.Entry<long[], List<long[]>> e : sites.entrySet()) {
      List<long[]> rs = e.getValue();
      rs.sort(Comparator.comparingLong(x -> x[0]));
      List<long[]> merged = new ArrayList<>(rs.size());
      for (long[] x : rs) {
        long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
        if (last != null && last[0] + last[1] == x[0]) {
          last[1] += x[1];
        } else {
          merged.add(new long[] {x[0], x[1]});
        }
      }
      e.setValue(merged);
      entries.add(e);
    }
    entries.sort(
        Comparator.<Map.Entry<long[], List<long[]>>>comparingLong(e -> e.getValue().get(0)[0])
            .thenComparingLong(e -> e.getKey()[1]));
    for (Map.Entry<long[], List<long[]>> e : entries) {
      long[] site = e.getKey();
      List<long[]> rs = e.getValue();
      if (rangeScratch.length < 2 * rs.size()) {
        rangeScratch = new long[2 * rs.size()];
      }
      for (int i = 0; i < rs.size(); i++) {
        rangeScratch[2 * i] = rs.get(i)[0];
        rangeScratch[2 * i + 1] = rs.get(i)[1];
      }
      handler.inline(
          (int) site[1], (int) site[2], (int) site[3], (int) site[0], rangeScratch, rs.size());
    }
  }

  private void writeLines(long fnAddress, long fnSize) {
    if (lineCount == 0) {
      return;
    }
    if (!sorted) {
      Integer[] order = new Integer[lineCount];
      for (int i = 0; i < lineCount; i++) {
        order[i] = i;
      }
      final long[] a = lineAddr;
      Arrays.sort(order, Comparator.comparingLong(i -> a[i]));
      long[] na = new long[lineCount];
      int[] nn = new int[lineCount];
      int[] nf = new int[lineCount];
      for (int i = 0; i < lineCount; i++) {
        na[i] = lineAddr[order[i]];
        nn[i] = lineNum[order[i]];
        nf[i] = lineFile[order[i]];
      }
      System.arraycopy(na, 0, lineAddr, 0, lineCount);
      System.arraycopy(nn, 0, lineNum, 0, lineCount);
      System.arraycopy(nf, 0, lineFile, 0, lineCount);
    }
    long fnEnd = fnAddress + fnSize;
    for (int i = 0; i < lineCount; i++) {
      long size;
      if (i + 1 < lineCount) {
        size = lineAddr[i + 1] - lineAddr[i];
      } else {
        size = lineAddr[i] < fnEnd ? fnEnd - lineAddr[i] : 0;
      }
      handler.line(lineAddr[i], size, lineNum[i], lineFile[i]);
    }
  }
}

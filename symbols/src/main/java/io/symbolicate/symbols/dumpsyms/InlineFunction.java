package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.pdb.PdbInlines;
import io.symbolicate.symbols.pdb.PdbLine;
import io.symbolicate.symbols.pdb.PdbTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The INLINE records and line records of one PDB procedure with inline sites, in the shape
 * Mozilla's dump_syms gives DWARF functions: an INLINE per site (depth, the caller's line and
 * file at the site's first address, the origin, the site's ranges merged and sorted), sorted by
 * first address then depth; line records of the innermost function at each address (a site's
 * lines over its caller's, the procedure's own lines below them), one per change of line or
 * file.
 */
final class InlineFunction {
  private record Inline(
      int depth, long callLine, String callFile, int origin, List<long[]> ranges) {}

  private final List<Inline> inlines;
  private final List<PdbLine> lines;

  private InlineFunction(List<Inline> inlines, List<PdbLine> lines) {
    this.inlines = inlines;
    this.lines = lines;
  }

  static InlineFunction of(
      PdbDumper.Proc c, List<PdbInlines.Site> sites, PdbTypes ids, Map<String, Integer> origins) {
    long start = c.proc().rva();
    long end = start + c.proc().size();
    List<PdbLine> own = new ArrayList<>();
    for (List<PdbLine> rows : c.lines().subMap(start, end).values()) {
      for (PdbLine l : rows) {
        own.add(new PdbLine(l.rva(), Math.min(l.size(), end - l.rva()), l.line(), l.file()));
      }
    }
    List<Inline> inlines = new ArrayList<>();
    List<List<PdbLine>> callers = new ArrayList<>(); // lines of the open site at each depth
    List<PdbLine> all = new ArrayList<>(own);
    List<Integer> priority = new ArrayList<>();
    for (int i = 0; i < own.size(); i++) {
      priority.add(0);
    }
    for (PdbInlines.Site s : sites) {
      List<PdbLine> mine = new ArrayList<>();
      for (PdbLine l : s.lines()) {
        long from = Math.max(start, l.rva());
        long to = Math.min(end, l.rva() + l.size());
        if (to > from) {
          mine.add(new PdbLine(from, to - from, l.line(), l.file()));
        }
      }
      while (callers.size() > s.depth()) {
        callers.remove(callers.size() - 1);
      }
      List<PdbLine> caller =
          s.depth() == 0 || callers.size() < s.depth() ? own : callers.get(s.depth() - 1);
      callers.add(mine);
      if (mine.isEmpty()) {
        continue;
      }
      List<long[]> ranges = merged(mine);
      PdbLine at = lineAt(caller, ranges.get(0)[0]);
      String name = ids.name(s.inlinee());
      int origin = origins.computeIfAbsent(name == null ? "" : name, k -> origins.size());
      inlines.add(
          new Inline(
              s.depth(), at == null ? 0 : at.line(), at == null ? "" : at.file(), origin, ranges));
      for (PdbLine l : mine) {
        all.add(l);
        priority.add(s.depth() + 1);
      }
    }
    inlines.sort(
        Comparator.<Inline>comparingLong(x -> x.ranges().get(0)[0])
            .thenComparingInt(Inline::depth));
    return new InlineFunction(inlines, innermost(all, priority));
  }

  /** The rows' ranges sorted, adjacent ones joined. */
  private static List<long[]> merged(List<PdbLine> rows) {
    List<long[]> rs = new ArrayList<>();
    for (PdbLine l : rows) {
      rs.add(new long[] {l.rva(), l.size()});
    }
    rs.sort(Comparator.comparingLong(x -> x[0]));
    List<long[]> out = new ArrayList<>();
    for (long[] r : rs) {
      long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last[0] + last[1] >= r[0]) {
        last[1] = Math.max(last[1], r[0] + r[1] - last[0]);
      } else {
        out.add(new long[] {r[0], r[1]});
      }
    }
    return out;
  }

  /** The row that answers for {@code address}: the last one starting at or before it. */
  private static PdbLine lineAt(List<PdbLine> rows, long address) {
    PdbLine best = null;
    for (PdbLine l : rows) {
      if (l.rva() <= address && (best == null || l.rva() >= best.rva())) {
        best = l;
      }
    }
    return best;
  }

  /** At each address the row of the highest priority (the latest of equals); rows joined. */
  private static List<PdbLine> innermost(List<PdbLine> rows, List<Integer> priority) {
    List<long[]> events = new ArrayList<>(); // {address, 0 end / 1 start, row}
    for (int i = 0; i < rows.size(); i++) {
      PdbLine l = rows.get(i);
      if (l.size() > 0) {
        events.add(new long[] {l.rva(), 1, i});
        events.add(new long[] {l.rva() + l.size(), 0, i});
      }
    }
    events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    TreeSet<Integer> active =
        new TreeSet<>(Comparator.<Integer>comparingInt(priority::get).thenComparingInt(i -> i));
    List<PdbLine> out = new ArrayList<>();
    int k = 0;
    while (k < events.size()) {
      long at = events.get(k)[0];
      while (k < events.size() && events.get(k)[0] == at) {
        long[] e = events.get(k++);
        if (e[1] == 0) {
          active.remove((int) e[2]);
        } else {
          active.add((int) e[2]);
        }
      }
      if (active.isEmpty() || k == events.size()) {
        continue;
      }
      long next = events.get(k)[0];
      PdbLine l = rows.get(active.last());
      PdbLine last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null
          && last.rva() + last.size() == at
          && last.line() == l.line()
          && last.file().equals(l.file())) {
        out.set(out.size() - 1, new PdbLine(last.rva(), next - last.rva(), l.line(), l.file()));
      } else {
        out.add(new PdbLine(at, next - at, l.line(), l.file()));
      }
    }
    return out;
  }

  List<PdbLine> lines() {
    return lines;
  }

  Set<String> callFiles() {
    Set<String> out = new LinkedHashSet<>();
    for (Inline i : inlines) {
      out.add(i.callFile());
    }
    return out;
  }

  /** The INLINE records, then the line records, of the FUNC just written. */
  void write(SymHandler out, Map<String, Integer> fileIds) {
    for (Inline i : inlines) {
      long[] ranges = new long[2 * i.ranges().size()];
      for (int r = 0; r < i.ranges().size(); r++) {
        ranges[2 * r] = i.ranges().get(r)[0];
        ranges[2 * r + 1] = i.ranges().get(r)[1];
      }
      out.inline(
          i.depth(),
          (int) i.callLine(),
          fileIds.get(i.callFile()),
          i.origin(),
          ranges,
          i.ranges().size());
    }
    for (PdbLine l : lines) {
      out.line(l.rva(), l.size(), (int) l.line(), fileIds.get(l.file()));
    }
  }
}

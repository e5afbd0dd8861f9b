package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.pdb.PdbFormatException;
import io.symbolicate.symbols.pdb.PdbInlines;
import io.symbolicate.symbols.pdb.PdbLine;
import io.symbolicate.symbols.pdb.PdbSignatures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /**
   * An inlinee's name with its argument list as symbolic prints it; where its types are refused,
   * the qualified name alone, or nothing when that is refused too.
   */
  static String name(PdbSignatures ids, long inlinee) {
    try {
      return ids.inlinee(inlinee);
    } catch (PdbFormatException e) {
      try {
        return ids.qualifiedName(inlinee);
      } catch (PdbFormatException again) {
        return null;
      }
    }
  }

  static InlineFunction of(
      PdbDumper.Proc c,
      List<PdbInlines.Site> sites,
      PdbSignatures ids,
      Map<String, Integer> origins) {
    long start = c.proc().rva();
    long end = start + c.proc().size();
    List<PdbLine> own = new ArrayList<>();
    for (PdbLine l : c.lines().between(start, end)) {
      own.add(new PdbLine(l.rva(), Math.min(l.size(), end - l.rva()), l.line(), l.file()));
    }
    List<Inline> inlines = new ArrayList<>();
    List<List<PdbLine>> callers = new ArrayList<>(); // lines of the open site at each depth
    List<PdbLine> all = new ArrayList<>(own);
    int[] priority = new int[Math.max(16, own.size() * 2)]; // own rows: 0
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
      String name = name(ids, s.inlinee());
      int origin = origins.computeIfAbsent(name == null ? "" : name, k -> origins.size());
      inlines.add(
          new Inline(
              s.depth(), at == null ? 0 : at.line(), at == null ? "" : at.file(), origin, ranges));
      for (PdbLine l : mine) {
        if (all.size() == priority.length) {
          priority = Arrays.copyOf(priority, priority.length * 2);
        }
        priority[all.size()] = s.depth() + 1;
        all.add(l);
      }
    }
    inlines.sort(
        Comparator.<Inline>comparingLong(x -> x.ranges().get(0)[0])
            .thenComparingInt(Inline::depth));
    return new InlineFunction(inlines, innermost(all, priority, start));
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

  /**
   * At each address the row of the highest priority (the latest of equals); rows joined. Rows
   * start at or after {@code base} and end within 2^31 bytes of it (one procedure): each start
   * and end is one {@code long} (offset, end before start, row), sorted as primitives; the rows
   * open at once are few (one per inline depth, a few more where rows overlap), so the answer
   * is a scan of them rather than an ordered set of boxed indexes.
   */
  private static List<PdbLine> innermost(List<PdbLine> rows, int[] priority, long base) {
    long[] events = new long[2 * rows.size()];
    int n = 0;
    for (int i = 0; i < rows.size(); i++) {
      PdbLine l = rows.get(i);
      if (l.size() > 0) {
        long from = l.rva() - base;
        events[n++] = from << 32 | 1L << 31 | i;
        events[n++] = (from + l.size()) << 32 | i;
      }
    }
    Arrays.sort(events, 0, n);
    int[] active = new int[8];
    int open = 0;
    List<PdbLine> out = new ArrayList<>();
    int k = 0;
    while (k < n) {
      long at = events[k] >>> 32;
      while (k < n && events[k] >>> 32 == at) {
        long e = events[k++];
        int row = (int) (e & 0x7fffffffL);
        if ((e & 1L << 31) == 0) {
          for (int j = 0; j < open; j++) {
            if (active[j] == row) {
              active[j] = active[--open];
              break;
            }
          }
        } else {
          if (open == active.length) {
            active = Arrays.copyOf(active, open * 2);
          }
          active[open++] = row;
        }
      }
      if (open == 0 || k == n) {
        continue;
      }
      int best = active[0];
      for (int j = 1; j < open; j++) {
        int r = active[j];
        if (priority[r] > priority[best] || priority[r] == priority[best] && r > best) {
          best = r;
        }
      }
      long from = base + at;
      long next = base + (events[k] >>> 32);
      PdbLine l = rows.get(best);
      PdbLine last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null
          && last.rva() + last.size() == from
          && last.line() == l.line()
          && last.file().equals(l.file())) {
        out.set(out.size() - 1, new PdbLine(last.rva(), next - last.rva(), l.line(), l.file()));
      } else {
        out.add(new PdbLine(from, next - from, l.line(), l.file()));
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

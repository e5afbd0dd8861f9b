package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.pdb.PdbFileNames;
import io.symbolicate.symbols.pdb.PdbFormatException;
import io.symbolicate.symbols.pdb.PdbInlines;
import io.symbolicate.symbols.pdb.PdbLineRows;
import io.symbolicate.symbols.pdb.PdbSignatures;
import java.util.Arrays;
import java.util.Map;

/**
 * The INLINE records and line records of one PDB procedure with inline sites, in the shape
 * Mozilla's dump_syms gives DWARF functions: an INLINE per site (depth, the caller's line and
 * file at the site's first address, the origin, the site's ranges merged and sorted), sorted by
 * first address then depth; line records of the innermost function at each address (a site's
 * lines over its caller's, the procedure's own lines below them), one per change of line or
 * file. The records of every function lie in one {@link Store} of columns (a function is a range
 * of it), built with scratch arrays reused from function to function: no object per row.
 */
final class InlineFunction {
  private final Store store;
  private final int inlinesFrom;
  private final int inlinesTo;
  private final int linesFrom;
  private final int linesTo;

  private InlineFunction(Store store, int inlinesFrom, int inlinesTo, int linesFrom, int linesTo) {
    this.store = store;
    this.inlinesFrom = inlinesFrom;
    this.inlinesTo = inlinesTo;
    this.linesFrom = linesFrom;
    this.linesTo = linesTo;
  }

  /** The records of all functions, and the scratch space of the one being built. */
  static final class Store {
    private final int emptyFile;
    // the line records of every function
    private final PdbLineRows lines = new PdbLineRows(1024);
    // the INLINE records of every function, each function's in their order
    private int[] depth = new int[256];
    private int[] callLine = new int[256];
    private int[] callFile = new int[256];
    private int[] origin = new int[256];
    private int[] rangesFrom = new int[256]; // into ranges, {address, size} pairs
    private int[] rangeCount = new int[256];
    private int inlineCount;
    private long[] ranges = new long[1024];
    private int rangeLongs;
    // scratch of the function being built: its rows (own, then each site's) and their priority
    private final PdbLineRows all = new PdbLineRows(256);
    private int[] priority = new int[256];
    private int[] callerFrom = new int[16]; // rows of the open site at each depth
    private int[] callerTo = new int[16];
    // its INLINE records before sorting, their ranges in tmpRanges
    private int[] tDepth = new int[64];
    private int[] tCallLine = new int[64];
    private int[] tCallFile = new int[64];
    private int[] tOrigin = new int[64];
    private int[] tRangesFrom = new int[64];
    private int[] tRangeCount = new int[64];
    private long[] tKey = new long[64];
    private long[] tRanges = new long[256];
    // sorting scratch
    private long[] keys = new long[64];
    private long[] packed = new long[64];
    private int[] order = new int[64];
    private long[] rowRva = new long[64];
    private long[] rowSize = new long[64];
    private long[] events = new long[256];
    private int[] owner = new int[1024];
    private int[] active = new int[8];
    private long[] writeRanges = new long[16];
    // inlinee (IPI index) -> origin id, open addressing
    private long[] originKeys = new long[1024];
    private int[] originIds = new int[1024];
    private boolean[] originUsed = new boolean[1024];
    private int origins;

    Store(PdbFileNames names) {
      this.emptyFile = names.intern("");
    }

    /**
     * Room for about {@code rows} line records and {@code sites} INLINE records of one range
     * each (grown by doubling past them).
     */
    void expect(long rows, long sites) {
      lines.reserve(Math.min(rows, 1 << 26));
      int n = (int) Math.min(sites, 1 << 24);
      if (n > depth.length) {
        depth = Arrays.copyOf(depth, n);
        callLine = Arrays.copyOf(callLine, n);
        callFile = Arrays.copyOf(callFile, n);
        origin = Arrays.copyOf(origin, n);
        rangesFrom = Arrays.copyOf(rangesFrom, n);
        rangeCount = Arrays.copyOf(rangeCount, n);
        ranges = Arrays.copyOf(ranges, 2 * n);
      }
    }

    /** The origin id of an inlinee: its name's, ids given in the order names first appear. */
    private int origin(long inlinee, PdbSignatures ids, Map<String, Integer> byName) {
      int mask = originKeys.length - 1;
      int h = Long.hashCode(inlinee * 0x9e3779b97f4a7c15L) & mask;
      while (originUsed[h]) {
        if (originKeys[h] == inlinee) {
          return originIds[h];
        }
        h = (h + 1) & mask;
      }
      String name = name(ids, inlinee);
      int id = byName.computeIfAbsent(name == null ? "" : name, k -> byName.size());
      originUsed[h] = true;
      originKeys[h] = inlinee;
      originIds[h] = id;
      if (++origins * 2 > originKeys.length) {
        rehash();
      }
      return id;
    }

    private void rehash() {
      long[] k = originKeys;
      int[] v = originIds;
      boolean[] u = originUsed;
      originKeys = new long[k.length * 2];
      originIds = new int[k.length * 2];
      originUsed = new boolean[k.length * 2];
      int mask = originKeys.length - 1;
      for (int i = 0; i < k.length; i++) {
        if (u[i]) {
          int h = Long.hashCode(k[i] * 0x9e3779b97f4a7c15L) & mask;
          while (originUsed[h]) {
            h = (h + 1) & mask;
          }
          originUsed[h] = true;
          originKeys[h] = k[i];
          originIds[h] = v[i];
        }
      }
    }

    /**
     * The positions {@code 0..n-1} in the order of {@code keys[0..n)} (all >= 0), stably, in
     * {@link #order}: an insertion sort for a few, a sort of primitives (key above, position
     * below) when they pack into a long, else boxed.
     */
    private int[] sortOrder(int n) {
      if (order.length < n) {
        order = new int[Math.max(n, order.length * 2)];
      }
      long max = 0;
      for (int i = 0; i < n; i++) {
        order[i] = i;
        max = Math.max(max, keys[i]);
      }
      if (n <= 16) {
        for (int i = 1; i < n; i++) {
          int o = order[i];
          int j = i - 1;
          while (j >= 0 && keys[order[j]] > keys[o]) {
            order[j + 1] = order[j];
            j--;
          }
          order[j + 1] = o;
        }
        return order;
      }
      int bits = 32 - Integer.numberOfLeadingZeros(n);
      if (max < 1L << (63 - bits)) {
        if (packed.length < n) {
          packed = new long[Math.max(n, packed.length * 2)];
        }
        for (int i = 0; i < n; i++) {
          packed[i] = keys[i] << bits | i;
        }
        Arrays.sort(packed, 0, n);
        long mask = (1L << bits) - 1;
        for (int i = 0; i < n; i++) {
          order[i] = (int) (packed[i] & mask);
        }
        return order;
      }
      Integer[] boxed = new Integer[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = i;
      }
      long[] k = keys;
      Arrays.sort(boxed, (x, y) -> Long.compare(k[x], k[y]));
      for (int i = 0; i < n; i++) {
        order[i] = boxed[i];
      }
      return order;
    }

    private void keys(int n) {
      if (keys.length < n) {
        keys = new long[Math.max(n, keys.length * 2)];
      }
    }
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
      int sitesFrom,
      int sitesTo,
      PdbSignatures ids,
      Map<String, Integer> origins,
      Store st) {
    long start = c.proc().rva();
    long end = start + c.proc().size();
    PdbLineRows module = c.module().lines();
    PdbInlines.Sites sites = c.module().sites();
    PdbLineRows siteRows = sites.rows();
    PdbLineRows all = st.all;
    all.clear();
    for (int i = module.firstAtOrAfter(start), to = module.firstAtOrAfter(end); i < to; i++) {
      long rva = module.rva(i);
      all.add(rva, Math.min(module.length(i), end - rva), module.line(i), module.file(i));
    }
    int own = all.count(); // sorted by address, as the module's rows are
    if (st.priority.length < own) {
      st.priority = new int[Math.max(own, st.priority.length * 2)];
    }
    Arrays.fill(st.priority, 0, own, 0); // own rows: 0
    int callers = 0;
    int inlines = 0;
    int rangeLongs = 0;
    for (int k = sitesFrom; k < sitesTo; k++) {
      int s = c.module().site(k);
      int depth = sites.depth(s);
      int a = all.count();
      for (int r = sites.rowsFrom(s); r < sites.rowsTo(s); r++) {
        long rva = siteRows.rva(r);
        long from = Math.max(start, rva);
        long to = Math.min(end, rva + siteRows.length(r));
        if (to > from) {
          all.add(from, to - from, siteRows.line(r), siteRows.file(r));
        }
      }
      int b = all.count();
      callers = Math.min(callers, depth);
      boolean byOwn = depth == 0 || callers < depth;
      int callerFrom = byOwn ? 0 : st.callerFrom[depth - 1];
      int callerTo = byOwn ? own : st.callerTo[depth - 1];
      if (callers == st.callerFrom.length) {
        st.callerFrom = Arrays.copyOf(st.callerFrom, callers * 2);
        st.callerTo = Arrays.copyOf(st.callerTo, callers * 2);
      }
      st.callerFrom[callers] = a;
      st.callerTo[callers] = b;
      callers++;
      if (a == b) {
        continue;
      }
      if (st.priority.length < b) {
        st.priority = Arrays.copyOf(st.priority, Math.max(b, st.priority.length * 2));
      }
      Arrays.fill(st.priority, a, b, depth + 1);
      int n = merged(st, all, a, b, start, rangeLongs);
      long first = st.tRanges[rangeLongs];
      int at = byOwn ? lastAtOrBefore(all, own, first) : lineAt(all, callerFrom, callerTo, first);
      if (inlines == st.tDepth.length) {
        int cap = inlines * 2;
        st.tDepth = Arrays.copyOf(st.tDepth, cap);
        st.tCallLine = Arrays.copyOf(st.tCallLine, cap);
        st.tCallFile = Arrays.copyOf(st.tCallFile, cap);
        st.tOrigin = Arrays.copyOf(st.tOrigin, cap);
        st.tRangesFrom = Arrays.copyOf(st.tRangesFrom, cap);
        st.tRangeCount = Arrays.copyOf(st.tRangeCount, cap);
        st.tKey = Arrays.copyOf(st.tKey, cap);
      }
      st.tDepth[inlines] = depth;
      st.tCallLine[inlines] = at < 0 ? 0 : all.line(at);
      st.tCallFile[inlines] = at < 0 ? st.emptyFile : all.file(at);
      st.tOrigin[inlines] = st.origin(sites.inlinee(s), ids, origins);
      st.tRangesFrom[inlines] = rangeLongs;
      st.tRangeCount[inlines] = n;
      st.tKey[inlines] = (first - start) << 9 | depth; // first address, then depth (< 512)
      inlines++;
      rangeLongs += 2 * n;
    }
    // the INLINE records by first address then depth, stably, into the store
    st.keys(inlines);
    System.arraycopy(st.tKey, 0, st.keys, 0, inlines);
    int[] order = st.sortOrder(inlines);
    int inlinesFrom = st.inlineCount;
    for (int i = 0; i < inlines; i++) {
      int t = order[i];
      appendInline(st, st.tDepth[t], st.tCallLine[t], st.tCallFile[t], st.tOrigin[t]);
      int n = st.tRangeCount[t];
      if (st.rangeLongs + 2 * n > st.ranges.length) {
        st.ranges = Arrays.copyOf(st.ranges, Math.max(st.rangeLongs + 2 * n, st.ranges.length * 2));
      }
      System.arraycopy(st.tRanges, st.tRangesFrom[t], st.ranges, st.rangeLongs, 2 * n);
      st.rangesFrom[st.inlineCount - 1] = st.rangeLongs;
      st.rangeCount[st.inlineCount - 1] = n;
      st.rangeLongs += 2 * n;
    }
    int linesFrom = st.lines.count();
    innermost(st, start, end - start);
    return new InlineFunction(st, inlinesFrom, st.inlineCount, linesFrom, st.lines.count());
  }

  private static void appendInline(Store st, int depth, int callLine, int callFile, int origin) {
    int i = st.inlineCount;
    if (i == st.depth.length) {
      int cap = i * 2;
      st.depth = Arrays.copyOf(st.depth, cap);
      st.callLine = Arrays.copyOf(st.callLine, cap);
      st.callFile = Arrays.copyOf(st.callFile, cap);
      st.origin = Arrays.copyOf(st.origin, cap);
      st.rangesFrom = Arrays.copyOf(st.rangesFrom, cap);
      st.rangeCount = Arrays.copyOf(st.rangeCount, cap);
    }
    st.depth[i] = depth;
    st.callLine[i] = callLine;
    st.callFile[i] = callFile;
    st.origin[i] = origin;
    st.inlineCount++;
  }

  /**
   * The ranges of rows {@code [a, b)} sorted, adjacent and overlapping ones joined, written as
   * {address, size} pairs to the scratch ranges at {@code at}; returns how many.
   */
  private static int merged(Store st, PdbLineRows all, int a, int b, long start, int at) {
    int n = b - a;
    if (st.tRanges.length < at + 2 * n) {
      st.tRanges = Arrays.copyOf(st.tRanges, Math.max(at + 2 * n, st.tRanges.length * 2));
    }
    if (n == 1) { // most sites: one row
      st.tRanges[at] = all.rva(a);
      st.tRanges[at + 1] = all.length(a);
      return 1;
    }
    if (st.rowRva.length < n) {
      st.rowRva = new long[Math.max(n, st.rowRva.length * 2)];
      st.rowSize = new long[st.rowRva.length];
    }
    st.keys(n);
    for (int i = 0; i < n; i++) {
      st.rowRva[i] = all.rva(a + i);
      st.rowSize[i] = all.length(a + i);
      st.keys[i] = st.rowRva[i] - start; // rows lie in the procedure
    }
    int[] order = st.sortOrder(n);
    long[] out = st.tRanges;
    int count = 0;
    for (int i = 0; i < n; i++) {
      long rva = st.rowRva[order[i]];
      long size = st.rowSize[order[i]];
      int last = at + 2 * (count - 1);
      if (count > 0 && out[last] + out[last + 1] >= rva) {
        out[last + 1] = Math.max(out[last + 1], rva + size - out[last]);
      } else {
        out[at + 2 * count] = rva;
        out[at + 2 * count + 1] = size;
        count++;
      }
    }
    return count;
  }

  /** Of rows {@code [0, n)} sorted by address, the last starting at or before {@code address}. */
  private static int lastAtOrBefore(PdbLineRows rows, int n, long address) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (rows.rva(mid) <= address) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }

  /**
   * Of rows {@code [from, to)} (in any order), the one that answers for {@code address}: the
   * last one starting at or before it; -1 when none.
   */
  private static int lineAt(PdbLineRows rows, int from, int to, long address) {
    int best = -1;
    for (int i = from; i < to; i++) {
      long rva = rows.rva(i);
      if (rva <= address && (best < 0 || rva >= rows.rva(best))) {
        best = i;
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
  private static void innermost(Store st, long base, long size) {
    PdbLineRows rows = st.all;
    long covered = 0;
    for (int i = 0; i < rows.count(); i++) {
      covered += rows.length(i);
    }
    if (size <= PAINT_MAX && covered <= 16 * size + 4096) {
      painted(st, base, (int) size);
      return;
    }
    int[] priority = st.priority;
    if (st.events.length < 2 * rows.count()) {
      st.events = new long[Math.max(2 * rows.count(), st.events.length * 2)];
    }
    long[] events = st.events;
    int n = 0;
    for (int i = 0; i < rows.count(); i++) {
      long length = rows.length(i);
      if (length > 0) {
        long from = rows.rva(i) - base;
        events[n++] = from << 32 | 1L << 31 | i;
        events[n++] = (from + length) << 32 | i;
      }
    }
    Arrays.sort(events, 0, n);
    int[] active = st.active;
    int open = 0;
    PdbLineRows out = st.lines;
    int outFrom = out.count();
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
            st.active = active;
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
      int line = rows.line(best);
      int file = rows.file(best);
      int last = out.count() - 1;
      if (last >= outFrom
          && out.rva(last) + out.length(last) == from
          && out.line(last) == line
          && out.file(last) == file) {
        out.setLength(last, next - out.rva(last));
      } else {
        out.add(from, next - from, line, file);
      }
    }
  }

  /** The largest procedure whose rows {@link #painted} lays out byte by byte. */
  static final int PAINT_MAX = 1 << 16;

  /**
   * What {@link #innermost} gives, for a procedure of at most {@link #PAINT_MAX} bytes whose rows
   * cover it a few times over: each row painted over its bytes in the order of priority, then
   * row (so the last paint at a byte is the row of the highest priority, the latest of equals),
   * then the runs of one line and file read off; no sort.
   */
  private static void painted(Store st, long base, int size) {
    PdbLineRows rows = st.all;
    int[] priority = st.priority;
    if (st.owner.length < size) {
      st.owner = new int[Math.max(size, st.owner.length * 2)];
    }
    int[] owner = st.owner;
    Arrays.fill(owner, 0, size, -1);
    int top = 0;
    for (int i = 0; i < rows.count(); i++) {
      top = Math.max(top, priority[i]);
    }
    for (int p = 0; p <= top; p++) {
      for (int i = 0; i < rows.count(); i++) {
        if (priority[i] == p && rows.length(i) > 0) {
          int from = (int) (rows.rva(i) - base);
          Arrays.fill(owner, from, (int) (from + rows.length(i)), i);
        }
      }
    }
    PdbLineRows out = st.lines;
    int at = 0;
    while (at < size) {
      int row = owner[at];
      if (row < 0) {
        at++;
        continue;
      }
      int line = rows.line(row);
      int file = rows.file(row);
      int next = at + 1;
      while (next < size) {
        int o = owner[next];
        if (o != row && (o < 0 || rows.line(o) != line || rows.file(o) != file)) {
          break;
        }
        next++;
      }
      out.add(base + at, next - at, line, file);
      at = next;
    }
  }

  /** Gives ids to the files of its line records, then of its INLINE records' call sites. */
  void addFiles(PdbDumper.FileIds files) {
    for (int r = linesFrom; r < linesTo; r++) {
      files.add(store.lines.file(r));
    }
    for (int i = inlinesFrom; i < inlinesTo; i++) {
      files.add(store.callFile[i]);
    }
  }

  /** The INLINE records, then the line records, of the FUNC just written. */
  void write(SymHandler out, PdbDumper.FileIds files) {
    Store st = store;
    for (int i = inlinesFrom; i < inlinesTo; i++) {
      int n = st.rangeCount[i];
      if (st.writeRanges.length < 2 * n) {
        st.writeRanges = new long[Math.max(2 * n, st.writeRanges.length * 2)];
      }
      System.arraycopy(st.ranges, st.rangesFrom[i], st.writeRanges, 0, 2 * n);
      out.inline(
          st.depth[i], st.callLine[i], files.id(st.callFile[i]), st.origin[i], st.writeRanges, n);
    }
    PdbLineRows lines = st.lines;
    for (int r = linesFrom; r < linesTo; r++) {
      out.line(lines.rva(r), lines.length(r), lines.line(r), files.id(lines.file(r)));
    }
  }
}

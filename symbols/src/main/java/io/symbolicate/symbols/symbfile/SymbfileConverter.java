package io.symbolicate.symbols.symbfile;

import io.symbolicate.symbols.io.BoundedInput;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.nativecode.Unsigned;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts symbfiles (ranges, return pads, or both; one executable) into the native compact
 * table, so lookups answer as for a Breakpad file: each depth-0 range becomes a FUNC, each
 * deeper range an INLINE record of its level, and the line tables LINE records; return pads are
 * kept beside them ({@link NativeTableBuilder#returnPad}) and win for caller frames.
 *
 * <p>Lines: at each address the line is the one of the deepest range there, from that range's
 * line table (a table's last entry holds to the range's end, through the inlinees inside it,
 * whose own tables answer there). Where the deepest range's table says nothing, there is no
 * line, as in the peer's lookups; an entry of line 0 is "no line" too (DWARF's meaning).
 *
 * <p>Ranges of one function must follow its depth-0 range, parents before children (the order
 * the peer writes and the reader's depth check enforces); FUNCs may come in any order, and an
 * overlapping one is dropped like in a .sym. Memory: one function's ranges and lines at a time,
 * plus the table builder's off-heap records.
 */
public final class SymbfileConverter implements AutoCloseable {
  /** Inline ranges of one function at most (the largest real one has tens of thousands). */
  public static final int MAX_RANGES_PER_FUNCTION = 1 << 20;
  /** Line-table entries of one function at most. */
  public static final int MAX_LINES_PER_FUNCTION = 4 << 20;
  /** File id of "no file": never given a name, so its lines and frames have none. */
  static final int NO_FILE = Integer.MAX_VALUE;

  /** What the table's header says of the module: its name, architecture and FileID (may be null). */
  public record Module(String name, String arch, FileId fileId) {}

  private final NativeTableBuilder builder;
  private final NativeSymbols.Options options;
  private final Map<String, Integer> fileIds = new HashMap<>();
  private final Map<String, Integer> originIds = new HashMap<>();
  private long sourceBytes;
  private long ranges;
  private long returnPads;

  // the current function: its ranges (index 0: the depth-0 one) and their line entries
  private boolean inFunc;
  private int rn;
  private long[] rStart = new long[64];
  private long[] rHigh = new long[64]; // inclusive
  private int[] rDepth = new int[64];
  private int[] rFile = new int[64];
  private int[] rLineFrom = new int[65];
  private int ln;
  private long[] eAddr = new long[256];
  private int[] eLine = new int[256];

  public SymbfileConverter(Module module) {
    this(module, NativeSymbols.Options.defaults());
  }

  /** {@code options}: input cap, page size and codec, as for a .sym. */
  public SymbfileConverter(Module module, NativeSymbols.Options options) {
    this.options = options;
    this.builder = new NativeTableBuilder(options.pageTargetBytes(), options.codec());
    FileId id = module.fileId();
    builder.module("Linux", module.arch() == null ? "" : module.arch(), id == null ? "" : id.toHex(),
        module.name() == null ? "" : module.name());
    builder.codeId(id == null ? "" : id.toBase64(), module.name() == null ? "" : module.name());
  }

  /** Converts one whole symbfile (plain or gzip) into a table. */
  public static NativeTable convert(Module module, InputStream... symbfiles)
      throws IOException, SymbfileException {
    try (SymbfileConverter c = new SymbfileConverter(module)) {
      for (InputStream in : symbfiles) {
        c.add(in);
      }
      List<TablePage> pages = new ArrayList<>();
      NativeHeader h = c.finish(pages::add);
      return new NativeTable(h, pages);
    }
  }

  /** Reads every record of one symbfile (plain or gzip, capped at the options' input size). */
  public void add(InputStream raw) throws IOException, SymbfileException {
    SymbfileReader reader = new SymbfileReader(BoundedInput.wrap(raw, options.maxInputBytes()));
    try {
      for (SymbfileRecord r = reader.next(); r != null; r = reader.next()) {
        if (r instanceof SymbfileRange range) {
          range(range);
        } else {
          returnPad((SymbfileReturnPad) r);
        }
      }
      endFunction();
    } catch (NativeTableBuilder.IndexTooLargeException e) {
      throw new SymbfileException(e.getMessage(), e);
    } finally {
      sourceBytes += reader.bytesRead();
    }
  }

  /** Cuts the pages (to {@code sink}, in key order) and returns the header. */
  public NativeHeader finish(NativeTableBuilder.PageSink sink) throws IOException {
    endFunction();
    return builder.finish(sink, sourceBytes);
  }

  /** Ranges read so far. */
  public long rangeCount() {
    return ranges;
  }

  /** Return pads read so far. */
  public long returnPadCount() {
    return returnPads;
  }

  @Override
  public void close() {
    builder.close();
  }

  // ---------------------------------------------------------------- records

  private void range(SymbfileRange r) throws SymbfileException {
    ranges++;
    if (r.depth() == 0) {
      endFunction();
      byte[] name = bytes(r.function());
      builder.func(false, r.elfVa(), r.length(), name, 0, name.length);
      inFunc = true;
    } else {
      if (rn >= MAX_RANGES_PER_FUNCTION) {
        throw new SymbfileException("the function at 0x" + Long.toHexString(rStart[0]) + " has more than "
            + MAX_RANGES_PER_FUNCTION + " inline ranges");
      }
      if (r.length() != 0) {
        int callFile = r.callFile() == null ? -1 : fileId(r.callFile());
        builder.inline(r.depth() - 1, r.callLine(), callFile, originId(r.function()),
            new long[] {r.elfVa(), r.length()}, 1);
      }
    }
    addToFunction(r);
  }

  private void addToFunction(SymbfileRange r) throws SymbfileException {
    if (r.length() == 0) {
      return; // covers nothing
    }
    if (rn == rStart.length) {
      int m = rn * 2;
      rStart = Arrays.copyOf(rStart, m);
      rHigh = Arrays.copyOf(rHigh, m);
      rDepth = Arrays.copyOf(rDepth, m);
      rFile = Arrays.copyOf(rFile, m);
      rLineFrom = Arrays.copyOf(rLineFrom, m + 1);
    }
    int k = r.lineCount();
    if (ln + k > MAX_LINES_PER_FUNCTION) {
      throw new SymbfileException("the function at 0x" + Long.toHexString(rn == 0 ? r.elfVa() : rStart[0])
          + " has more than " + MAX_LINES_PER_FUNCTION + " line-table entries");
    }
    if (ln + k > eAddr.length) {
      int m = Math.max(ln + k, eAddr.length * 2);
      eAddr = Arrays.copyOf(eAddr, m);
      eLine = Arrays.copyOf(eLine, m);
    }
    rStart[rn] = r.elfVa();
    rHigh[rn] = r.elfVa() + r.length() - 1;
    rDepth[rn] = r.depth();
    rFile[rn] = r.file() == null ? NO_FILE : fileId(r.file());
    rLineFrom[rn] = ln;
    long[] off = r.lineOffsets();
    int[] lines = r.lineNumbers();
    for (int i = 0; i < k; i++) {
      eAddr[ln] = r.elfVa() + off[i];
      eLine[ln] = lines[i];
      ln++;
    }
    rn++;
    rLineFrom[rn] = ln;
  }

  private void returnPad(SymbfileReturnPad p) {
    returnPads++;
    int n = p.depth();
    byte[][] names = new byte[n][];
    int[] files = new int[n];
    for (int i = 0; i < n; i++) {
      names[i] = bytes(p.functions()[i]);
      files[i] = p.files()[i] == null ? NO_FILE : fileId(p.files()[i]);
    }
    builder.returnPad(p.elfVa(), names, files, p.lines(), n);
  }

  // ---------------------------------------------------------------- lines of a function

  /**
   * Turns the function's line tables into LINE records: sweeps the addresses where a range or
   * line entry starts or a range ends; between two of them the deepest range there (ties: the
   * later one) and its last line entry at or before the address decide the line.
   */
  private void endFunction() {
    if (!inFunc) {
      return;
    }
    inFunc = false;
    int n = rn;
    rn = 0;
    ln = 0;
    if (n == 0 || rDepth[0] != 0) {
      return; // a depth-0 range of length 0: dropped, with everything inside it
    }
    long fs = rStart[0];
    long fh = rHigh[0];
    // points as offsets from the function start (all inside [0, fh - fs])
    long span = fh - fs;
    int total = rLineFrom[n];
    long[] pts = new long[1 + 2 * n + total];
    int np = 0;
    pts[np++] = 0;
    for (int r = 1; r < n; r++) {
      long s = clipStart(rStart[r], fs);
      long h = clipHigh(rHigh[r], fh);
      if (Long.compareUnsigned(s, h) > 0) {
        continue;
      }
      pts[np++] = s - fs;
      if (h != fh) {
        pts[np++] = h + 1 - fs;
      }
    }
    for (int e = 0; e < total; e++) {
      long a = eAddr[e] - fs;
      if (Long.compareUnsigned(a, span) <= 0) {
        pts[np++] = a;
      }
    }
    np = Unsigned.sortUnique(pts, np);
    // ranges by start; a max-heap of active ranges by (depth, index)
    Integer[] byStart = new Integer[n];
    for (int r = 0; r < n; r++) {
      byStart[r] = r;
    }
    Arrays.sort(byStart, (x, y) -> Long.compareUnsigned(clipStart(rStart[x], fs), clipStart(rStart[y], fs)));
    int[] heap = new int[n];
    int hn = 0;
    int[] cursor = new int[n];
    for (int r = 0; r < n; r++) {
      cursor[r] = rLineFrom[r] - 1; // last entry at or before the sweep point: none yet
    }
    int next = 0;
    long runStart = 0;
    int runLine = 0;
    int runFile = -1;
    boolean run = false;
    for (int k = 0; k < np; k++) {
      long p = pts[k] + fs;
      while (next < n && Long.compareUnsigned(clipStart(rStart[byStart[next]], fs), p) <= 0) {
        int r = byStart[next++];
        if (Long.compareUnsigned(clipStart(rStart[r], fs), clipHigh(rHigh[r], fh)) <= 0) {
          hn = heapPush(heap, hn, r);
        }
      }
      while (hn > 0 && Long.compareUnsigned(rHigh[heap[0]], p) < 0) {
        hn = heapPop(heap, hn);
      }
      boolean has = false;
      int line = 0;
      int file = 0;
      if (hn > 0) {
        int r = heap[0];
        int c = cursor[r];
        while (c + 1 < rLineFrom[r + 1] && Long.compareUnsigned(eAddr[c + 1], p) <= 0) {
          c++;
        }
        cursor[r] = c;
        if (c >= rLineFrom[r] && eLine[c] != 0) { // line 0: no line (DWARF's meaning)
          has = true;
          line = eLine[c];
          file = rFile[r];
        }
      }
      if (run && (!has || line != runLine || file != runFile)) {
        builder.line(runStart, p - runStart, runLine, runFile);
        run = false;
      }
      if (has && !run) {
        run = true;
        runStart = p;
        runLine = line;
        runFile = file;
      }
    }
    if (run) {
      builder.line(runStart, fh - runStart + 1, runLine, runFile);
    }
  }

  private static long clipStart(long s, long fs) {
    return Long.compareUnsigned(s, fs) < 0 ? fs : s;
  }

  private static long clipHigh(long h, long fh) {
    return Long.compareUnsigned(h, fh) > 0 ? fh : h;
  }

  private boolean deeper(int a, int b) {
    return rDepth[a] > rDepth[b] || rDepth[a] == rDepth[b] && a > b;
  }

  private int heapPush(int[] heap, int n, int r) {
    int i = n++;
    heap[i] = r;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!deeper(heap[i], heap[parent])) {
        break;
      }
      int t = heap[i];
      heap[i] = heap[parent];
      heap[parent] = t;
      i = parent;
    }
    return n;
  }

  private int heapPop(int[] heap, int n) {
    heap[0] = heap[--n];
    int i = 0;
    while (true) {
      int l = 2 * i + 1;
      if (l >= n) {
        break;
      }
      int c = l + 1 < n && deeper(heap[l + 1], heap[l]) ? l + 1 : l;
      if (!deeper(heap[c], heap[i])) {
        break;
      }
      int t = heap[i];
      heap[i] = heap[c];
      heap[c] = t;
      i = c;
    }
    return n;
  }

  // ---------------------------------------------------------------- names

  private int fileId(String file) {
    Integer id = fileIds.get(file);
    if (id == null) {
      id = fileIds.size();
      fileIds.put(file, id);
      byte[] b = bytes(file);
      builder.file(id, b, 0, b.length);
    }
    return id;
  }

  private int originId(String function) {
    String f = function == null ? "" : function;
    Integer id = originIds.get(f);
    if (id == null) {
      id = originIds.size();
      originIds.put(f, id);
      byte[] b = bytes(f);
      builder.inlineOrigin(id, b, 0, b.length);
    }
    return id;
  }

  private static byte[] bytes(String s) {
    return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
  }
}

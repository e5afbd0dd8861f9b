package io.symbolicate.symbols.symbfile;

import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.nativecode.Unsigned;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
  private long sourceBytes;
  private long ranges;
  private long returnPads;

  // names: files and inline origins by their bytes. A file gets its table id at first use, so
  // the files of ranges that cover nothing (known for their inlinees' call files) take none.
  private final NameIds files = new NameIds();
  private int[] fileTableId = new int[256]; // table id + 1 by name id; 0: none yet
  private int filesInTable;
  private final NameIds origins = new NameIds();
  // what the current string table's refs resolved to (+ 1; 0: not yet), dropped with the table
  private int generation = -1;
  private int[] refFile;
  private int[] refOrigin;
  private byte[][] refName;

  // the file of each depth of the current inline chain (name id, -1: none)
  private int[] chainFile = new int[16];
  private final long[] oneRange = new long[2];
  private byte[][] padNames = new byte[16][];
  private int[] padFiles = new int[16];

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
  // the sweep's work arrays, reused from function to function
  private long[] pts = new long[256];
  private long[] sKey = new long[64];
  private int[] byStart = new int[64];
  private int[] sortTmp = new int[64];
  private int[] heap = new int[64];
  private int[] cursor = new int[64];

  public SymbfileConverter(Module module) {
    this(module, NativeSymbols.Options.defaults());
  }

  /** {@code options}: input cap, page size and codec, as for a .sym. */
  public SymbfileConverter(Module module, NativeSymbols.Options options) {
    this.options = options;
    this.builder = new NativeTableBuilder(options.pageTargetBytes(), options.codec());
    FileId id = module.fileId();
    builder.module(
        "Linux",
        module.arch() == null ? "" : module.arch(),
        id == null ? "" : id.toHex(),
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
    SymbfileReader reader = new SymbfileReader(DebugFileInput.wrap(raw, options.maxInputBytes()));
    generation = -1;
    try {
      for (int k = reader.advance(); k != SymbfileReader.END; k = reader.advance()) {
        if (reader.tableGeneration() != generation) {
          generation = reader.tableGeneration();
          refFile = null;
          refOrigin = null;
          refName = null;
        }
        if (k == SymbfileReader.RANGE) {
          range(reader);
        } else {
          returnPad(reader);
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

  private void range(SymbfileReader r) throws SymbfileException {
    ranges++;
    int depth = r.depth();
    long va = r.elfVa();
    long length = r.length();
    int file = fileOf(r, SymbfileReader.FILE);
    int callFile =
        r.kindOf(SymbfileReader.CALL_FILE) != SymbfileReader.ABSENT
            ? fileOf(r, SymbfileReader.CALL_FILE)
            : depth > 0 ? chainFile[depth - 1] : -1; // unset: the parent's file
    if (depth == chainFile.length) {
      chainFile = Arrays.copyOf(chainFile, depth * 2);
    }
    chainFile[depth] = file;
    if (depth == 0) {
      endFunction();
      if (r.kindOf(SymbfileReader.FUNC) == SymbfileReader.ABSENT) {
        builder.func(false, va, length, NO_BYTES, 0, 0);
      } else {
        builder.func(
            false,
            va,
            length,
            r.bytesOf(SymbfileReader.FUNC),
            r.offsetOf(SymbfileReader.FUNC),
            r.lengthOf(SymbfileReader.FUNC));
      }
      inFunc = true;
    } else {
      if (rn >= MAX_RANGES_PER_FUNCTION) {
        throw new SymbfileException(
            "the function at 0x"
                + Long.toHexString(rStart[0])
                + " has more than "
                + MAX_RANGES_PER_FUNCTION
                + " inline ranges");
      }
      if (length != 0) {
        int cf = callFile < 0 ? -1 : fileTableId(callFile);
        int origin = originOf(r);
        oneRange[0] = va;
        oneRange[1] = length;
        builder.inline(depth - 1, r.callLine(), cf, origin, oneRange, 1);
      }
    }
    if (length != 0) { // else it covers nothing
      addToFunction(r, va, length, depth, file);
    }
  }

  private void addToFunction(SymbfileReader r, long va, long length, int depth, int file)
      throws SymbfileException {
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
      throw new SymbfileException(
          "the function at 0x"
              + Long.toHexString(rn == 0 ? va : rStart[0])
              + " has more than "
              + MAX_LINES_PER_FUNCTION
              + " line-table entries");
    }
    if (ln + k > eAddr.length) {
      int m = Math.max(ln + k, eAddr.length * 2);
      eAddr = Arrays.copyOf(eAddr, m);
      eLine = Arrays.copyOf(eLine, m);
    }
    rStart[rn] = va;
    rHigh[rn] = va + length - 1;
    rDepth[rn] = depth;
    rFile[rn] = file < 0 ? NO_FILE : fileTableId(file);
    rLineFrom[rn] = ln;
    long[] off = r.lineOffsets();
    int[] lines = r.lineNumbers();
    for (int i = 0; i < k; i++) {
      eAddr[ln] = va + off[i];
      eLine[ln] = lines[i];
      ln++;
    }
    rn++;
    rLineFrom[rn] = ln;
  }

  private void returnPad(SymbfileReader r) throws SymbfileException {
    returnPads++;
    int n = r.padDepth();
    if (padNames.length < n) {
      padNames = new byte[Math.max(n, 2 * padNames.length)][];
      padFiles = new int[padNames.length];
    }
    int[] funcs = r.padFuncs();
    int[] fs = r.padFiles();
    for (int i = 0; i < n; i++) {
      padNames[i] = nameOfRef(r, funcs[i]);
      padFiles[i] = fileTableId(fileOfRef(r, fs[i]));
    }
    builder.returnPad(r.elfVa(), padNames, padFiles, r.padLines(), n);
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
    if (pts.length < 1 + 2 * n + total) {
      pts = new long[Math.max(1 + 2 * n + total, 2 * pts.length)];
    }
    if (heap.length < n) {
      int m = Math.max(n, 2 * heap.length);
      sKey = new long[m];
      byStart = new int[m];
      sortTmp = new int[m];
      heap = new int[m];
      cursor = new int[m];
    }
    long[] pts = this.pts;
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
    long[] sKey = this.sKey;
    int[] byStart = this.byStart;
    for (int r = 0; r < n; r++) {
      sKey[r] = clipStart(rStart[r], fs) - fs;
      byStart[r] = r;
    }
    sortByKey(byStart, n, sKey);
    int[] heap = this.heap;
    int hn = 0;
    int[] cursor = this.cursor;
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
      while (next < n && Long.compareUnsigned(sKey[byStart[next]], pts[k]) <= 0) {
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

  /** Sorts {@code idx[0..n)} by {@code key} (unsigned): usually sorted already (parents first), else merged bottom-up. */
  private void sortByKey(int[] idx, int n, long[] key) {
    boolean sorted = true;
    for (int i = 1; i < n && sorted; i++) {
      sorted = Long.compareUnsigned(key[idx[i - 1]], key[idx[i]]) <= 0;
    }
    if (sorted) {
      return;
    }
    int[] a = idx;
    int[] b = sortTmp;
    for (int w = 1; w < n; w *= 2) {
      for (int lo = 0; lo < n; lo += 2 * w) {
        int mid = Math.min(lo + w, n);
        int hi = Math.min(lo + 2 * w, n);
        int i = lo;
        int j = mid;
        for (int o = lo; o < hi; o++) {
          b[o] =
              j >= hi || i < mid && Long.compareUnsigned(key[a[i]], key[a[j]]) <= 0
                  ? a[i++]
                  : a[j++];
        }
      }
      int[] t = a;
      a = b;
      b = t;
    }
    if (a != idx) {
      System.arraycopy(a, 0, idx, 0, n);
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

  /** The file of a range's string field (name id), or -1 when it has none. */
  private int fileOf(SymbfileReader r, int field) throws SymbfileException {
    int kind = r.kindOf(field);
    if (kind == SymbfileReader.ABSENT) {
      return -1;
    }
    if (kind == SymbfileReader.REF) {
      return fileOfRef(r, r.refOf(field));
    }
    return files.id(r.bytesOf(field), r.offsetOf(field), r.lengthOf(field));
  }

  private int fileOfRef(SymbfileReader r, int ref) throws SymbfileException {
    if (refFile == null) {
      refFile = new int[r.tableSize()];
    }
    int v = refFile[ref];
    if (v == 0) {
      v = files.id(r.tableBytes(), r.tableOffset(ref), r.tableLength(ref)) + 1;
      refFile[ref] = v;
    }
    return v - 1;
  }

  /** The table's id of a file (by name id), given to the builder at first use. */
  private int fileTableId(int nameId) {
    if (nameId >= fileTableId.length) {
      fileTableId = Arrays.copyOf(fileTableId, Math.max(nameId + 1, 2 * fileTableId.length));
    }
    int v = fileTableId[nameId];
    if (v == 0) {
      v = ++filesInTable;
      fileTableId[nameId] = v;
      builder.file(v - 1, files.bytes(), files.offset(nameId), files.length(nameId));
    }
    return v - 1;
  }

  /** The inline origin of a range's function (no function: the empty name). */
  private int originOf(SymbfileReader r) throws SymbfileException {
    int kind = r.kindOf(SymbfileReader.FUNC);
    if (kind == SymbfileReader.REF) {
      int ref = r.refOf(SymbfileReader.FUNC);
      if (refOrigin == null) {
        refOrigin = new int[r.tableSize()];
      }
      int v = refOrigin[ref];
      if (v == 0) {
        v = origin(r.tableBytes(), r.tableOffset(ref), r.tableLength(ref)) + 1;
        refOrigin[ref] = v;
      }
      return v - 1;
    }
    if (kind == SymbfileReader.INLINE) {
      return origin(
          r.bytesOf(SymbfileReader.FUNC),
          r.offsetOf(SymbfileReader.FUNC),
          r.lengthOf(SymbfileReader.FUNC));
    }
    return origin(NO_BYTES, 0, 0);
  }

  private int origin(byte[] b, int off, int len) throws SymbfileException {
    int id = origins.id(b, off, len);
    if (origins.wasNew()) {
      builder.inlineOrigin(id, b, off, len);
    }
    return id;
  }

  /** A function name of the string table as its own array (return pads), made once per table. */
  private byte[] nameOfRef(SymbfileReader r, int ref) {
    if (refName == null) {
      refName = new byte[r.tableSize()][];
    }
    byte[] b = refName[ref];
    if (b == null) {
      int off = r.tableOffset(ref);
      b = Arrays.copyOfRange(r.tableBytes(), off, off + r.tableLength(ref));
      refName[ref] = b;
    }
    return b;
  }

  private static final byte[] NO_BYTES = new byte[0];
}

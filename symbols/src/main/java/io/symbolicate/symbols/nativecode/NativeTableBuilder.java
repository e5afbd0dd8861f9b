package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.io.Sizes;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Turns parsed records into a paged native table, applying Breakpad's load rules as it goes:
 * zero-size, overflowing or overlapping FUNCs and line records are dropped (first one wins),
 * PUBLICs at address 0 and repeated PUBLIC addresses are dropped, INLINE ranges are nested by
 * their nest levels ({@link InlineRangeTree}).
 *
 * <p>Two phases, because a .sym lists every FUNC before the PUBLICs that interleave with them by
 * address: (1) each accepted FUNC is encoded into a compact record (lines and inline ranges
 * already in page format) kept in a chunked store with a primitive index; (2) {@link #finish}
 * merges FUNCs and PUBLICs by address and cuts pages, copying the records into them.
 */
public final class NativeTableBuilder implements SymHandler, AutoCloseable {
  /** 2: pages carry the unwind records (STACK CFI, STACK WIN, FUNC parameter sizes). */
  static final int FORMAT_VERSION = 2;

  static final int PAGE_VERSION = 2;
  static final int CODEC_RAW = 0;
  static final int CODEC_DEFLATE = 1;
  static final int CODEC_LZ = 2;
  public static final int DEFAULT_PAGE_TARGET = 128 << 10;
  public static final PageCompression DEFAULT_CODEC = PageCompression.LZ;
  private static final int MAX_BAD_SAMPLES = 10;
  private static final long BAD = -1L;

  /**
   * Line records, INLINE records (zero-size ones too) or inline ranges read per FUNC (real
   * maximum seen: 51k); bounds memory and time.
   */
  static final int MAX_PER_FUNC = 4 << 20;

  /**
   * Element moves allowed per FUNC for out-of-order inserts (input is normally ascending: zero
   * moves); bounds the time a hostile ordering can cost.
   */
  static final long MOVE_BUDGET = 64L << 20;

  /**
   * The heap one conversion's index of FUNC, PUBLIC, FILE and INLINE_ORIGIN records may take: a
   * quarter of the max heap, the share the in-heap parsers of mappings and sourcemaps get (the
   * records themselves are off the heap). A FUNC takes 28 bytes in the index (16 more when FUNCs
   * come out of order), a PUBLIC 17, a FILE or INLINE_ORIGIN 12 and two to four slots of 8, as
   * the arrays are allocated (they double as they fill). ceph-osd.sym (130 MB; 33k FUNCs, 6k
   * PUBLICs, 2k FILEs, 71k INLINE_ORIGINs) needs 3.6 MB; at -Xmx512m the limit is 128 MB.
   */
  public static long maxIndexBytesForHeap() {
    return Runtime.getRuntime().maxMemory() / 4;
  }

  /**
   * An index larger than the builder may hold: the file is too big for this heap, a reason to
   * give, where the heap would otherwise run out under every other thread of the process.
   */
  public static final class IndexTooLargeException extends RuntimeException {
    IndexTooLargeException(String message) {
      super(message);
    }
  }

  /** Receives pages in ascending key order as they are cut. */
  @FunctionalInterface
  public interface PageSink {
    void accept(TablePage page) throws IOException;
  }

  private final int pageTarget;
  private final PageCompression codec;
  private final long maxIndexBytes;

  private String os = "";
  private String arch = "";
  private String debugId = "";
  private String moduleName = "";
  private String codeId = "";
  private String codeFile = "";
  private final IdStrings files;
  private final IdStrings origins;
  private long badLines;
  private final List<String> badSamples = new ArrayList<>();
  private long droppedFuncs;
  private long lastRawBytes; // uncompressed page bytes of the last finish(), for stats
  private long lineTotal;
  private long rangeTotal;

  // unwind records, paged beside the FUNCs and PUBLICs
  private final UnwindRecords unwind;

  // phase 1: accepted FUNCs
  private final ChunkedBytes funcStore;
  private long[] fStart = new long[1024];
  private long[] fSize = new long[1024];
  private long[] fOff = new long[1024];
  private int[] fLen = new int[1024];
  private int fCount;
  private boolean fSorted = true;
  private DisjointRanges fRanges; // the accepted FUNCs, only once they arrive out of order

  // the FUNC being read
  private static final int NONE = 0;
  private static final int DROPPED = 1;
  private static final int ACTIVE = 2;
  private int cur = NONE;
  private long cStart;
  private long cSize;
  private boolean cMultiple;
  private byte[] cName = new byte[256];
  private int cNameLen;
  private long[] lAddr = new long[256];
  private long[] lSize = new long[256];
  private int[] lLine = new int[256];
  private int[] lFile = new int[256];
  private int lCount;
  // every line so far non-empty and after the one before: all accepted as they are (the usual case)
  private boolean lOrdered = true;
  private int[] iCallLine = new int[64];
  private int[] iCallFile = new int[64];
  private int[] iOrigin = new int[64];
  private int iCount; // INLINE records stored: those with a range in the tree
  private int iRead; // INLINE records read in this FUNC, stored or not
  private long overflowLines; // line/inline records beyond the per-FUNC limits
  private long moves; // element moves spent on out-of-order inserts in this FUNC
  private final InlineRangeTree tree = new InlineRangeTree();
  private final ByteWriter body = new ByteWriter(1 << 16);
  private final ByteWriter rec = new ByteWriter(1 << 16);
  private final IntSet fileIds = new IntSet();
  private final IntSet originIds = new IntSet();

  // phase 1: PUBLICs
  private final ChunkedBytes pubStore;
  private long[] pAddr = new long[256];
  private long[] pOff = new long[256];
  private boolean[] pMulti = new boolean[256];
  private int pCount;
  private boolean pSorted = true;

  // phase 1: return pads (symbfile ReturnPadV1: the inline trace after a call instruction)
  private final ChunkedBytes padStore;
  private long[] rpAddr = new long[64];
  private long[] rpOff = new long[64];
  private int rpCount;
  private boolean rpSorted = true;

  /** Frames of one return pad at most (real chains are tens deep). */
  public static final int MAX_PAD_FRAMES = 1 << 12;

  public NativeTableBuilder() {
    this(DEFAULT_PAGE_TARGET);
  }

  public NativeTableBuilder(int pageTarget) {
    this(pageTarget, DEFAULT_CODEC);
  }

  /** {@code pageTarget}: uncompressed bytes per page (a page may exceed it by one FUNC). */
  public NativeTableBuilder(int pageTarget, PageCompression codec) {
    this(pageTarget, codec, ChunkedBytes.DIRECT);
  }

  /** With another allocator for the off-heap stores (tests: one that runs out). */
  NativeTableBuilder(int pageTarget, PageCompression codec, IntFunction<ByteBuffer> allocate) {
    this(pageTarget, codec, allocate, maxIndexBytesForHeap());
  }

  /** With a limit on the index's heap ({@link #maxIndexBytesForHeap()} by default). */
  NativeTableBuilder(
      int pageTarget, PageCompression codec, IntFunction<ByteBuffer> allocate, long maxIndexBytes) {
    this.maxIndexBytes = maxIndexBytes;
    this.pageTarget = pageTarget;
    this.codec = codec;
    this.funcStore = new ChunkedBytes(allocate);
    this.pubStore = new ChunkedBytes(allocate);
    this.padStore = new ChunkedBytes(allocate);
    this.files = new IdStrings(allocate);
    this.origins = new IdStrings(allocate);
    this.unwind = new UnwindRecords(allocate);
  }

  /** Direct memory held now by the records and names. */
  long heldBytes() {
    return funcStore.heldBytes()
        + pubStore.heldBytes()
        + files.heldBytes()
        + origins.heldBytes()
        + padStore.heldBytes()
        + unwind.heldBytes();
  }

  /** Uncompressed page bytes written by the last {@link #finish}. */
  public long rawPageBytes() {
    return lastRawBytes;
  }

  // ---------------------------------------------------------------- parse events

  @Override
  public void module(String os, String arch, String debugId, String name) {
    this.os = os;
    this.arch = arch;
    this.debugId = debugId;
    this.moduleName = name;
  }

  @Override
  public void codeId(String id, String file) {
    this.codeId = id;
    this.codeFile = file;
  }

  @Override
  public void file(int id, byte[] buf, int off, int len) {
    files.putIfAbsent(id, buf, off, len);
    checkRecords();
  }

  @Override
  public void inlineOrigin(int id, byte[] buf, int off, int len) {
    origins.putIfAbsent(id, buf, off, len);
    checkRecords();
  }

  private void checkRecords() {
    checkGrowth(0);
  }

  /** Refuses the file before arrays of {@code newBytes} are allocated beside the index past the limit. */
  private void checkGrowth(long newBytes) {
    if (indexHeapBytes() + newBytes > maxIndexBytes) {
      throw new IndexTooLargeException(
          "the index of its FUNC, PUBLIC, FILE and INLINE_ORIGIN records takes more than "
              + Sizes.of(maxIndexBytes)
              + " of heap, a quarter of the max heap ("
              + Sizes.of(Runtime.getRuntime().maxMemory())
              + "; raise -Xmx to convert this file)");
    }
  }

  /** Heap bytes of the record index, as allocated. */
  long indexHeapBytes() {
    return 28L * fStart.length
        + 17L * pAddr.length
        + 16L * rpAddr.length
        + files.heapBytes()
        + origins.heapBytes()
        + (fRanges == null ? 0 : fRanges.heapBytes())
        + unwind.heapBytes();
  }

  /** The limit on {@link #indexHeapBytes()}. */
  long maxIndexBytes() {
    return maxIndexBytes;
  }

  @Override
  public void badLine(long lineNumber, String reason) {
    badLines++;
    if (badSamples.size() < MAX_BAD_SAMPLES) {
      badSamples.add("line " + lineNumber + ": " + reason);
    }
  }

  @Override
  public void func(
      boolean multiple, long address, long size, byte[] buf, int nameOff, int nameLen) {
    endFunc();
    if (address == BAD && nameLen == 0) {
      cur = NONE; // the FUNC line did not parse
      return;
    }
    long high = address + size - 1;
    if (size == 0 || Unsigned.lt(high, address) || !acceptFunc(address, high)) {
      droppedFuncs++;
      cur = DROPPED;
      return;
    }
    cur = ACTIVE;
    cStart = address;
    cSize = size;
    cMultiple = multiple;
    if (cName.length < nameLen) {
      cName = new byte[Math.max(nameLen, cName.length * 2)];
    }
    System.arraycopy(buf, nameOff, cName, 0, nameLen);
    cNameLen = nameLen;
  }

  /** Breakpad's RangeMap: a FUNC overlapping an already stored one is not stored. */
  private boolean acceptFunc(long start, long high) {
    if (fRanges == null) {
      if (fCount == 0) {
        return true;
      }
      long prevStart = fStart[fCount - 1];
      long prevHigh = prevStart + fSize[fCount - 1] - 1;
      if (Unsigned.lt(prevHigh, start)) {
        return true;
      }
      if (Unsigned.le(prevStart, start)) {
        return false; // overlaps the previous one
      }
      fSorted = false;
      fRanges = new DisjointRanges();
      for (int i = 0; i < fCount; i++) {
        fRanges.add(fStart[i], fStart[i] + fSize[i] - 1);
      }
    }
    if (fRanges.overlaps(start, high)) {
      return false;
    }
    fRanges.add(start, high);
    if (fCount > 0 && Unsigned.lt(start, fStart[fCount - 1])) {
      fSorted = false;
    }
    return true;
  }

  @Override
  public boolean line(long address, long size, int line, int fileId) {
    if (cur != ACTIVE) {
      return cur == DROPPED;
    }
    if (lCount >= MAX_PER_FUNC) {
      overflowLines++;
      return true;
    }
    if (lCount == lAddr.length) {
      int n = lCount * 2;
      lAddr = Arrays.copyOf(lAddr, n);
      lSize = Arrays.copyOf(lSize, n);
      lLine = Arrays.copyOf(lLine, n);
      lFile = Arrays.copyOf(lFile, n);
    }
    if (lOrdered
        && (size == 0
            || Unsigned.lt(address + size - 1, address)
            || (lCount > 0 && !Unsigned.lt(lAddr[lCount - 1] + lSize[lCount - 1] - 1, address)))) {
      lOrdered = false;
    }
    lAddr[lCount] = address;
    lSize[lCount] = size;
    lLine[lCount] = line;
    lFile[lCount] = fileId;
    lCount++;
    return true;
  }

  @Override
  public boolean inline(int level, int callLine, int callFile, int origin, long[] ranges, int n) {
    if (cur != ACTIVE) {
      return cur == DROPPED;
    }
    // not Breakpad's Function::AppendInline rule (a level at most one deeper than the record
    // before): Mozilla's records come sorted by first address, so a call's callers may all have
    // come before the record just read; the tree drops a range no range a level up overlaps
    if (level < 0) {
      return true;
    }
    // the limits before anything is kept: past them, every record (zero-size ones too) is a bad
    // line
    if (iRead >= MAX_PER_FUNC || tree.added() >= MAX_PER_FUNC) {
      overflowLines++;
      return true;
    }
    iRead++;
    int r = -1; // stored with its first range: a record without one is never looked up
    for (int i = 0; i < n; i++) {
      long base = ranges[2 * i];
      long size = ranges[2 * i + 1];
      long high = base + size - 1;
      if (size != 0 && !Unsigned.lt(high, base)) {
        if (tree.added() >= MAX_PER_FUNC) {
          overflowLines++;
          return true;
        }
        if (r < 0) {
          r = storeInline(callLine, callFile, origin);
        }
        tree.add(base, high, r, level);
      }
    }
    return true;
  }

  private int storeInline(int callLine, int callFile, int origin) {
    if (iCount == iOrigin.length) {
      int m = iCount * 2;
      iCallLine = Arrays.copyOf(iCallLine, m);
      iCallFile = Arrays.copyOf(iCallFile, m);
      iOrigin = Arrays.copyOf(iOrigin, m);
    }
    int r = iCount++;
    iCallLine[r] = callLine;
    iCallFile[r] = callFile;
    iOrigin[r] = origin;
    return r;
  }

  /** INLINE records the current FUNC can hold without growing (tests: what its records cost). */
  int inlineRecordCapacity() {
    return iOrigin.length;
  }

  /** Before an unwind record: the index is checked when its arrays are about to grow. */
  private void checkUnwindGrowth() {
    long g = unwind.growthBytes();
    if (g > 0) {
      checkGrowth(g);
    }
  }

  @Override
  public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
    checkUnwindGrowth();
    unwind.cfiInit(address, size, buf, off, len);
  }

  @Override
  public void stackCfiDelta(long address, byte[] buf, int off, int len) {
    checkUnwindGrowth();
    unwind.cfiDelta(address, buf, off, len);
  }

  @Override
  public void stackWin(int type, long rva, long size, byte[] buf, int off, int len) {
    checkUnwindGrowth();
    unwind.win(type, rva, size, buf, off, len);
  }

  @Override
  public void funcParameterSize(long address, long parameterSize) {
    checkUnwindGrowth();
    unwind.param(address, parameterSize);
  }

  @Override
  public void publicSymbol(boolean multiple, long address, byte[] buf, int nameOff, int nameLen) {
    endFunc();
    cur = NONE; // line records after a PUBLIC belong to no function
    if (address == BAD && nameLen == 0) {
      return;
    }
    if (address == 0) {
      return; // Breakpad ignores PUBLICs at address 0 (seen in ntdll.pdb)
    }
    if (pCount == pAddr.length) {
      checkGrowth(17L * 2 * pCount);
      int n = pCount * 2;
      pAddr = Arrays.copyOf(pAddr, n);
      pOff = Arrays.copyOf(pOff, n);
      pMulti = Arrays.copyOf(pMulti, n);
    }
    if (pCount > 0 && Unsigned.lt(address, pAddr[pCount - 1])) {
      pSorted = false;
    }
    rec.reset();
    rec.writeBlob(buf, nameOff, nameLen);
    pAddr[pCount] = address;
    pMulti[pCount] = multiple;
    pOff[pCount] = pubStore.append(rec.array(), 0, rec.size());
    pCount++;
    checkRecords();
  }

  /**
   * A return pad (symbfile's ReturnPadV1): the whole inline trace at {@code address}, which is a
   * return address minus one, outermost frame first; {@code fileIds} as given to {@link #file}
   * (an id never given names no file). Lookups of caller frames prefer it to the FUNC's answer
   * ({@link NativePage#returnPad}). The first pad at an address wins; frames past
   * {@link #MAX_PAD_FRAMES} are dropped and counted as a bad line.
   */
  public void returnPad(long address, byte[][] names, int[] fileIds, int[] lines, int n) {
    if (n > MAX_PAD_FRAMES) {
      badLine(
          0,
          "return pad at "
              + Unsigned.hex(address)
              + " has "
              + n
              + " frames, more than "
              + MAX_PAD_FRAMES);
      n = MAX_PAD_FRAMES;
    }
    rec.reset();
    rec.writeVar(n);
    for (int i = 0; i < n; i++) {
      rec.writeBlob(names[i], 0, names[i].length);
      rec.writeVar(fileIds[i] + 1L);
      rec.writeVar(Integer.toUnsignedLong(lines[i]));
    }
    if (rpCount == rpAddr.length) {
      checkGrowth(16L * rpCount);
      rpAddr = Arrays.copyOf(rpAddr, rpCount * 2);
      rpOff = Arrays.copyOf(rpOff, rpCount * 2);
    }
    if (rpCount > 0 && Unsigned.lt(address, rpAddr[rpCount - 1])) {
      rpSorted = false;
    }
    rpAddr[rpCount] = address;
    rpOff[rpCount] = padStore.append(rec.array(), 0, rec.size());
    rpCount++;
  }

  // ---------------------------------------------------------------- end of a FUNC

  private void endFunc() {
    if (cur != ACTIVE) {
      resetFunc();
      return;
    }
    int nLines = acceptLines();
    body.reset();
    fileIds.clear();
    originIds.clear();
    long cursor = cStart;
    int prevLine = 0;
    int prevFile = -1;
    // varints go straight into the body's array, room made once per record (4 and 6 values)
    for (int i = 0; i < nLines; i++) {
      byte[] b = body.reserve(4 * ByteWriter.MAX_VAR);
      int p = body.size();
      p = ByteWriter.putSigned(b, p, lAddr[i] - cursor);
      p = ByteWriter.putVar(b, p, lSize[i]);
      int f = lFile[i];
      long d = (long) lLine[i] - prevLine;
      p = ByteWriter.putVar(b, p, (((d << 1) ^ (d >> 63)) << 1) | (f != prevFile ? 1 : 0));
      if (f != prevFile) {
        p = ByteWriter.putVar(b, p, f);
        fileIds.add(f);
        prevFile = f;
      }
      body.setSize(p);
      prevLine = lLine[i];
      cursor = lAddr[i] + lSize[i];
    }
    int nRanges = tree.flatten(MAX_PER_FUNC);
    overflowLines += tree.dropped();
    for (int i = 0; i < nRanges; i++) {
      int r = tree.record(i);
      byte[] b = body.reserve(6 * ByteWriter.MAX_VAR);
      int p = body.size();
      p = ByteWriter.putVar(b, p, tree.parent(i) + 1L);
      p = ByteWriter.putSigned(b, p, tree.start(i) - cStart);
      p = ByteWriter.putVar(b, p, tree.high(i) - tree.start(i));
      p = ByteWriter.putVar(b, p, iOrigin[r]);
      originIds.add(iOrigin[r]);
      p = ByteWriter.putVar(b, p, iCallLine[r]);
      p = ByteWriter.putVar(b, p, iCallFile[r] + 1L);
      body.setSize(p);
      if (iCallFile[r] >= 0) {
        fileIds.add(iCallFile[r]);
      }
    }
    rec.reset();
    rec.writeBlob(cName, 0, cNameLen);
    rec.writeVar(cMultiple ? 1 : 0);
    rec.writeVar(nLines);
    rec.writeVar(nRanges);
    rec.writeBlob(body.array(), 0, body.size());
    rec.writeVar(fileIds.size());
    for (int i = 0; i < fileIds.size(); i++) {
      rec.writeVar(fileIds.get(i));
    }
    rec.writeVar(originIds.size());
    for (int i = 0; i < originIds.size(); i++) {
      rec.writeVar(originIds.get(i));
    }
    if (fCount == fStart.length) {
      checkGrowth(28L * 2 * fCount);
      int m = fCount * 2;
      fStart = Arrays.copyOf(fStart, m);
      fSize = Arrays.copyOf(fSize, m);
      fOff = Arrays.copyOf(fOff, m);
      fLen = Arrays.copyOf(fLen, m);
    }
    fStart[fCount] = cStart;
    fSize[fCount] = cSize;
    fOff[fCount] = funcStore.append(rec.array(), 0, rec.size());
    fLen[fCount] = rec.size();
    fCount++;
    checkRecords();
    lineTotal += nLines;
    rangeTotal += nRanges;
    resetFunc();
  }

  private void resetFunc() {
    if (overflowLines > 0) {
      badLines += overflowLines;
      if (badSamples.size() < MAX_BAD_SAMPLES) {
        badSamples.add(
            "FUNC at "
                + Unsigned.hex(cStart)
                + ": "
                + overflowLines
                + " line/INLINE records beyond the per-FUNC limits (count or out-of-order inserts)");
      }
      overflowLines = 0;
    }
    moves = 0;
    cur = NONE;
    lCount = 0;
    lOrdered = true;
    iCount = 0;
    iRead = 0;
    tree.clear();
  }

  /**
   * Applies Breakpad's RangeMap rules to this FUNC's line records in file order (zero size,
   * overflow and overlap with an earlier line drop the line) and leaves the accepted lines
   * sorted by address in lAddr..lFile[0, result).
   */
  private int acceptLines() {
    if (lOrdered) {
      return lCount; // what the loop below would leave: every line, in place
    }
    int n = 0;
    for (int i = 0; i < lCount; i++) {
      long a = lAddr[i];
      long s = lSize[i];
      long high = a + s - 1;
      if (s == 0 || Unsigned.lt(high, a)) {
        continue;
      }
      int pos;
      if (n == 0 || Unsigned.lt(lAddr[n - 1] + lSize[n - 1] - 1, a)) {
        pos = n; // the common case: after everything accepted so far
      } else {
        int j = Unsigned.floor(lAddr, n, a);
        if (j >= 0 && Unsigned.le(a, lAddr[j] + lSize[j] - 1)) {
          continue;
        }
        if (j + 1 < n && Unsigned.le(lAddr[j + 1], high)) {
          continue;
        }
        pos = j + 1;
      }
      // i >= n always, so shifting [pos, n) right by one never overwrites an unread line
      long la = a;
      int ll = lLine[i];
      int lf = lFile[i];
      if (pos < n) {
        moves += n - pos;
        if (moves > MOVE_BUDGET) {
          overflowLines += lCount - i;
          break;
        }
        System.arraycopy(lAddr, pos, lAddr, pos + 1, n - pos);
        System.arraycopy(lSize, pos, lSize, pos + 1, n - pos);
        System.arraycopy(lLine, pos, lLine, pos + 1, n - pos);
        System.arraycopy(lFile, pos, lFile, pos + 1, n - pos);
      }
      lAddr[pos] = la;
      lSize[pos] = s;
      lLine[pos] = ll;
      lFile[pos] = lf;
      n++;
    }
    return n;
  }

  // ---------------------------------------------------------------- phase 2

  /** Flushes everything: pages go to {@code sink} in key order; returns the header. */
  public NativeHeader finish(PageSink sink, long sourceBytes) throws IOException {
    endFunc();
    fRanges = null; // only phase 1 needs it
    int[] fOrder = order(fStart, fCount, fSorted);
    int[] pOrder = order(pAddr, pCount, pSorted);
    int[] rpOrder = order(rpAddr, rpCount, rpSorted);
    int q = 0;
    PageWriter pw = new PageWriter(sink, pageTarget, codec, files, origins);
    int i = 0;
    int j = 0;
    long publics = 0;
    long lastPub = 0;
    boolean anyPub = false;
    byte[] scratch = new byte[1 << 16];
    int[] unread = unreadPerChunk();
    int[] uOrder = unwind.order();
    int u = 0;
    int uCount = uOrder.length;
    while (i < fCount || j < pCount || q < rpCount || u < uCount) {
      if (u < uCount
          && (i >= fCount || Unsigned.lt(unwind.address(uOrder[u]), fStart[fOrder[i]]))
          && (j >= pCount || Unsigned.lt(unwind.address(uOrder[u]), pAddr[pOrder[j]]))
          && (q >= rpCount || Unsigned.le(unwind.address(uOrder[u]), rpAddr[rpOrder[q]]))) {
        int k = uOrder[u++];
        if (scratch.length < unwind.length(k)) {
          scratch = new byte[Math.max(unwind.length(k), scratch.length * 2)];
        }
        unwind.read(k, scratch);
        pw.addUnwind(unwind.address(k), unwind.end(k), k, scratch, unwind.length(k));
        continue;
      }
      if (q < rpCount
          && (i >= fCount || Unsigned.lt(rpAddr[rpOrder[q]], fStart[fOrder[i]]))
          && (j >= pCount || Unsigned.lt(rpAddr[rpOrder[q]], pAddr[pOrder[j]]))) {
        // a return pad sorts after a FUNC or PUBLIC at its address, so it never starts that page
        int k = rpOrder[q++];
        if (q > 1 && rpAddr[rpOrder[q - 2]] == rpAddr[k]) {
          continue; // the first pad at an address wins
        }
        scratch = readPad(k, scratch);
        pw.addReturnPad(rpAddr[k], scratch, padLength(k));
        continue;
      }
      boolean takeFunc =
          j >= pCount || (i < fCount && Unsigned.le(fStart[fOrder[i]], pAddr[pOrder[j]]));
      if (takeFunc) {
        int k = fOrder[i++];
        if (scratch.length < fLen[k]) {
          scratch = new byte[Math.max(fLen[k], scratch.length * 2)];
        }
        funcStore.read(fOff[k], scratch, 0, fLen[k]);
        freeRead(unread, k);
        pw.addFunc(fStart[k], fSize[k], scratch, fLen[k]);
      } else {
        int k = pOrder[j++];
        if (anyPub && pAddr[k] == lastPub) {
          continue; // Breakpad's AddressMap keeps the first PUBLIC at an address
        }
        anyPub = true;
        lastPub = pAddr[k];
        int len = readPubName(k, scratch);
        if (len > scratch.length) {
          scratch = new byte[len];
          len = readPubName(k, scratch);
        }
        pw.addPublic(pAddr[k], pMulti[k], scratch, len);
        publics++;
      }
    }
    pw.finish();
    lastRawBytes = pw.rawBytes();
    int fileCount = files.size();
    int originCount = origins.size();
    close();
    return new NativeHeader(
        FORMAT_VERSION,
        os,
        arch,
        debugId,
        moduleName,
        codeId,
        codeFile,
        fCount,
        publics,
        lineTotal,
        rangeTotal,
        fileCount,
        originCount,
        pw.pages(),
        badLines,
        droppedFuncs,
        sourceBytes,
        List.copyOf(badSamples));
  }

  /**
   * Releases the records and names held off the heap ({@link ChunkedBytes}); {@link #finish} does
   * it too, and a conversion that fails before it must (the collector would, but late).
   */
  @Override
  public void close() {
    funcStore.close();
    pubStore.close();
    padStore.close();
    files.close();
    origins.close();
    unwind.close();
  }

  /**
   * FUNC records not yet copied into pages, per chunk of the FUNC store: a chunk is freed as soon
   * as its last record is read, so the store shrinks while the pages are cut instead of staying
   * whole until the end (in file order, the usual case, chunks go one after the other).
   */
  private int[] unreadPerChunk() {
    int[] unread = new int[funcStore.chunks()];
    for (int k = 0; k < fCount; k++) {
      int first = firstChunk(k);
      int n = chunkCount(k, first);
      for (int x = 0; x < n; x++) {
        unread[first + x]++;
      }
    }
    return unread;
  }

  // the chunks FUNC k spans are walked as first + [0, n): a 'c <= last' loop made C2 guard its
  // limit, and the guard failed in the first large file, throwing the compiled page cutter away
  // mid-load
  private int firstChunk(int k) {
    return ChunkedBytes.chunkOf(fOff[k]);
  }

  private int chunkCount(int k, int first) {
    return ChunkedBytes.chunkOf(fOff[k] + fLen[k] - 1) - first + 1;
  }

  private void freeRead(int[] unread, int k) {
    int first = firstChunk(k);
    int n = chunkCount(k, first);
    for (int x = 0; x < n; x++) {
      if (--unread[first + x] == 0) {
        funcStore.free(first + x);
      }
    }
  }

  /** Reads PUBLIC k's name into dst; returns its length (larger than dst: nothing read). */
  private int readPubName(int k, byte[] dst) {
    byte[] head = new byte[10];
    int n = (int) Math.min(10, pubStore.size() - pOff[k]);
    pubStore.read(pOff[k], head, 0, n);
    ByteReader r = new ByteReader(head, 0, n);
    int len = r.readInt();
    if (len <= dst.length) {
      pubStore.read(pOff[k] + r.position(), dst, 0, len);
    }
    return len;
  }

  /** Return pad k's stored bytes in {@code dst} (grown when short); {@link #padLength} of them. */
  private byte[] readPad(int k, byte[] dst) {
    int len = padLength(k);
    if (dst.length < len) {
      dst = new byte[Math.max(len, dst.length * 2)];
    }
    padStore.read(rpOff[k], dst, 0, len);
    return dst;
  }

  private int padLength(int k) {
    long end = k + 1 < rpCount && rpOff[k + 1] > rpOff[k] ? rpOff[k + 1] : padStore.size();
    return (int) (end - rpOff[k]);
  }

  /** Index order by unsigned address; stable, so equal addresses keep file order. */
  private static int[] order(long[] keys, int n, boolean sorted) {
    int[] out = new int[n];
    if (sorted) {
      for (int i = 0; i < n; i++) {
        out[i] = i;
      }
      return out;
    }
    Integer[] idx = new Integer[n];
    for (int i = 0; i < n; i++) {
      idx[i] = i;
    }
    Arrays.sort(idx, Comparator.comparing(i -> keys[i], Long::compareUnsigned));
    for (int i = 0; i < n; i++) {
      out[i] = idx[i];
    }
    return out;
  }
}

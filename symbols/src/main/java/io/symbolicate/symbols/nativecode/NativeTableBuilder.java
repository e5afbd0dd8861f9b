package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.Deflater;

/**
 * Turns parsed records into a paged native table, applying Breakpad's load rules as it goes:
 * zero-size, overflowing or overlapping FUNCs and line records are dropped (first one wins),
 * PUBLICs at address 0 and repeated PUBLIC addresses are dropped, INLINE ranges are nested by
 * containment like Breakpad's ContainedRangeMap.
 *
 * <p>Two phases, because a .sym lists every FUNC before the PUBLICs that interleave with them by
 * address: (1) each accepted FUNC is encoded into a compact record (lines and inline ranges
 * already in page format) kept in a chunked store with a primitive index; (2) {@link #finish}
 * merges FUNCs and PUBLICs by address and cuts pages, copying the records into them.
 */
public final class NativeTableBuilder implements SymHandler {
  static final int FORMAT_VERSION = 1;
  static final int PAGE_VERSION = 1;
  static final int CODEC_RAW = 0;
  static final int CODEC_DEFLATE = 1;
  static final int CODEC_LZ = 2;
  /** Uncompressed page bytes of the last {@link #finish} (for stats). */
  private long lastRawBytes;

  public long rawPageBytes() {
    return lastRawBytes;
  }
  public static final int DEFAULT_PAGE_TARGET = 128 << 10;
  public static final PageCodec DEFAULT_CODEC = PageCodec.LZ;
  private static final int MAX_BAD_SAMPLES = 10;
  private static final long BAD = -1L;
  /** Line records or inline ranges kept per FUNC (real maximum seen: 51k); bounds memory. */
  static final int MAX_PER_FUNC = 4 << 20;
  /**
   * Element moves allowed per FUNC for out-of-order inserts (input is normally ascending: zero
   * moves); bounds the time a hostile ordering can cost.
   */
  static final long MOVE_BUDGET = 64L << 20;

  /** Receives pages in ascending key order as they are cut. */
  @FunctionalInterface
  public interface PageSink {
    void accept(TablePage page) throws IOException;
  }

  private final int pageTarget;
  private final PageCodec codec;

  private String os = "";
  private String arch = "";
  private String debugId = "";
  private String moduleName = "";
  private String codeId = "";
  private String codeFile = "";
  private final Map<Integer, byte[]> files = new HashMap<>();
  private final Map<Integer, byte[]> origins = new HashMap<>();
  private long badLines;
  private final List<String> badSamples = new ArrayList<>();
  private long droppedFuncs;
  private long lineTotal;
  private long rangeTotal;

  // phase 1: accepted FUNCs
  private final ChunkedBytes funcStore = new ChunkedBytes();
  private long[] fStart = new long[1024];
  private long[] fSize = new long[1024];
  private long[] fOff = new long[1024];
  private int[] fLen = new int[1024];
  private int fCount;
  private boolean fSorted = true;
  private TreeMap<Long, Long> fTree; // start -> high, only once FUNCs arrive out of order

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
  private int[] iCallLine = new int[64];
  private int[] iCallFile = new int[64];
  private int[] iOrigin = new int[64];
  private int iCount;
  private int lastLevel = -1;
  private long overflowLines; // line/inline records beyond the per-FUNC limits
  private long moves; // element moves spent on out-of-order inserts in this FUNC
  private long rangeCount; // inline ranges stored in this FUNC
  private final RangeNode root = new RangeNode(0, 0, -1);
  private RangeNode[] preorder = new RangeNode[64];
  private int[] preorderParent = new int[64];
  private int preorderCount;
  private final ByteWriter body = new ByteWriter(1 << 16);
  private final ByteWriter rec = new ByteWriter(1 << 16);
  private final IntSet fileIds = new IntSet();
  private final IntSet originIds = new IntSet();

  // phase 1: PUBLICs
  private final ChunkedBytes pubStore = new ChunkedBytes();
  private long[] pAddr = new long[256];
  private long[] pOff = new long[256];
  private boolean[] pMulti = new boolean[256];
  private int pCount;
  private boolean pSorted = true;

  public NativeTableBuilder() {
    this(DEFAULT_PAGE_TARGET);
  }

  public NativeTableBuilder(int pageTarget) {
    this(pageTarget, DEFAULT_CODEC);
  }

  /** {@code pageTarget}: uncompressed bytes per page (a page may exceed it by one FUNC). */
  public NativeTableBuilder(int pageTarget, PageCodec codec) {
    this.pageTarget = pageTarget;
    this.codec = codec;
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
    files.putIfAbsent(id, Arrays.copyOfRange(buf, off, off + len));
  }

  @Override
  public void inlineOrigin(int id, byte[] buf, int off, int len) {
    origins.putIfAbsent(id, Arrays.copyOfRange(buf, off, off + len));
  }

  @Override
  public void badLine(long lineNumber, String reason) {
    badLines++;
    if (badSamples.size() < MAX_BAD_SAMPLES) {
      badSamples.add("line " + lineNumber + ": " + reason);
    }
  }

  @Override
  public void func(boolean multiple, long address, long size, byte[] buf, int nameOff, int nameLen) {
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
    if (fTree == null) {
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
      fTree = new TreeMap<>(Long::compareUnsigned);
      for (int i = 0; i < fCount; i++) {
        fTree.put(fStart[i], fStart[i] + fSize[i] - 1);
      }
    }
    Map.Entry<Long, Long> below = fTree.floorEntry(start);
    if (below != null && Unsigned.le(start, below.getValue())) {
      return false;
    }
    Map.Entry<Long, Long> above = fTree.ceilingEntry(start);
    if (above != null && Unsigned.le(above.getKey(), high)) {
      return false;
    }
    fTree.put(start, high);
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
    // Breakpad's Function::AppendInline: a nest level may only go one deeper than the last one
    if (level > lastLevel + 1) {
      return true;
    }
    lastLevel = level;
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
    for (int i = 0; i < n; i++) {
      long base = ranges[2 * i];
      long size = ranges[2 * i + 1];
      long high = base + size - 1;
      if (size != 0 && !Unsigned.lt(high, base)) {
        if (rangeCount >= MAX_PER_FUNC || moves > MOVE_BUDGET) {
          overflowLines++;
          return true;
        }
        if (root.insert(base, high, r, this)) {
          rangeCount++;
        }
      }
    }
    return true;
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
    for (int i = 0; i < nLines; i++) {
      body.writeSigned(lAddr[i] - cursor);
      body.writeVar(lSize[i]);
      int f = lFile[i];
      long d = (long) lLine[i] - prevLine;
      body.writeVar((((d << 1) ^ (d >> 63)) << 1) | (f != prevFile ? 1 : 0));
      if (f != prevFile) {
        body.writeVar(f);
        fileIds.add(f);
        prevFile = f;
      }
      prevLine = lLine[i];
      cursor = lAddr[i] + lSize[i];
    }
    preorderCount = 0;
    flatten(root, -1);
    int nRanges = preorderCount;
    for (int i = 0; i < nRanges; i++) {
      RangeNode n = preorder[i];
      preorder[i] = null;
      int r = n.rec;
      body.writeVar(preorderParent[i] + 1L);
      body.writeSigned(n.start - cStart);
      body.writeVar(n.high - n.start);
      body.writeVar(iOrigin[r]);
      originIds.add(iOrigin[r]);
      body.writeVar(iCallLine[r]);
      body.writeVar(iCallFile[r] + 1L);
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
    lineTotal += nLines;
    rangeTotal += nRanges;
    resetFunc();
  }

  /** Lists the inline range tree parent-first, so a range's parent always has a lower index. */
  private void flatten(RangeNode top, int topIndex) {
    // explicit stack of (node, its index, next child): hostile nesting can be very deep
    ArrayList<RangeNode> nodes = new ArrayList<>();
    int[] idx = new int[16];
    int[] next = new int[16];
    nodes.add(top);
    idx[0] = topIndex;
    int sp = 1;
    while (sp > 0) {
      RangeNode node = nodes.get(sp - 1);
      int k = next[sp - 1];
      if (k == node.nk) {
        nodes.remove(--sp);
        continue;
      }
      next[sp - 1] = k + 1;
      if (preorderCount == preorder.length) {
        preorder = Arrays.copyOf(preorder, preorderCount * 2);
        preorderParent = Arrays.copyOf(preorderParent, preorderCount * 2);
      }
      int at = preorderCount++;
      preorder[at] = node.kids[k];
      preorderParent[at] = idx[sp - 1];
      if (sp == idx.length) {
        idx = Arrays.copyOf(idx, sp * 2);
        next = Arrays.copyOf(next, sp * 2);
      }
      nodes.add(node.kids[k]);
      idx[sp] = at;
      next[sp] = 0;
      sp++;
    }
  }

  private void resetFunc() {
    if (overflowLines > 0) {
      badLines += overflowLines;
      if (badSamples.size() < MAX_BAD_SAMPLES) {
        badSamples.add("FUNC at " + Unsigned.hex(cStart) + ": " + overflowLines
            + " line/INLINE records beyond the per-FUNC limits (count or out-of-order inserts)");
      }
      overflowLines = 0;
    }
    moves = 0;
    rangeCount = 0;
    cur = NONE;
    lCount = 0;
    iCount = 0;
    lastLevel = -1;
    root.clearChildren();
  }

  /**
   * Applies Breakpad's RangeMap rules to this FUNC's line records in file order (zero size,
   * overflow and overlap with an earlier line drop the line) and leaves the accepted lines
   * sorted by address in lAddr..lFile[0, result).
   */
  private int acceptLines() {
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
    int[] fOrder = order(fStart, fCount, fSorted);
    int[] pOrder = order(pAddr, pCount, pSorted);
    PageWriter pw = new PageWriter(sink);
    int i = 0;
    int j = 0;
    long publics = 0;
    long lastPub = 0;
    boolean anyPub = false;
    byte[] scratch = new byte[1 << 16];
    while (i < fCount || j < pCount) {
      boolean takeFunc = j >= pCount
          || (i < fCount && Unsigned.le(fStart[fOrder[i]], pAddr[pOrder[j]]));
      if (takeFunc) {
        int k = fOrder[i++];
        if (scratch.length < fLen[k]) {
          scratch = new byte[Math.max(fLen[k], scratch.length * 2)];
        }
        funcStore.read(fOff[k], scratch, 0, fLen[k]);
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
    pw.flush();
    if (pw.deflater != null) {
      pw.deflater.end();
    }
    lastRawBytes = pw.rawBytes;
    funcStore.clear();
    pubStore.clear();
    return new NativeHeader(FORMAT_VERSION, os, arch, debugId, moduleName, codeId, codeFile,
        fCount, publics, lineTotal, rangeTotal, files.size(), origins.size(), pw.pages, badLines,
        droppedFuncs, sourceBytes, List.copyOf(badSamples));
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

  /** Cuts pages at entry boundaries no accepted FUNC spans, so each page decodes alone. */
  private final class PageWriter {
    private final PageSink sink;
    private final Deflater deflater = newDeflater();
    private final byte[] chunk = new byte[1 << 16];
    private final PageLz lz = new PageLz();
    private final ByteWriter funcs = new ByteWriter(1 << 17);
    private final ByteWriter pubs = new ByteWriter(1 << 12);
    private final BytesInterner names = new BytesInterner();
    private final IntSet pageFiles = new IntSet();
    private final IntSet pageOrigins = new IntSet();
    private long stringBytes;
    private long firstKey;
    private long prevFunc;
    private long prevPub;
    private int nFuncs;
    private int nPubs;
    private long nLines;
    private long nRanges;
    private long lastAddr;
    private long activeEnd; // exclusive end of the last FUNC
    private boolean activeToTop; // the last FUNC ends at 2^64
    private boolean empty = true;
    long pages;
    long rawBytes;

    PageWriter(PageSink sink) {
      this.sink = sink;
    }

    private void beforeEntry(long addr) throws IOException {
      if (!empty && funcs.size() + pubs.size() + stringBytes >= pageTarget && addr != lastAddr
          && !activeToTop && Unsigned.le(activeEnd, addr)) {
        flush();
      }
      if (empty) {
        empty = false;
        firstKey = addr;
        prevFunc = addr;
        prevPub = addr;
      }
      lastAddr = addr;
    }

    void addPublic(long addr, boolean multiple, byte[] name, int len) throws IOException {
      beforeEntry(addr);
      int idx = names.intern(name, 0, len);
      pubs.writeVar(addr - prevPub);
      pubs.writeVar(((long) idx << 1) | (multiple ? 1 : 0));
      prevPub = addr;
      nPubs++;
    }

    void addFunc(long start, long size, byte[] rec, int len) throws IOException {
      beforeEntry(start);
      ByteReader r = new ByteReader(rec, 0, len);
      int nameLen = r.readCount();
      int nameOff = r.position();
      r = new ByteReader(rec, nameOff + nameLen, len - nameOff - nameLen);
      boolean multiple = r.readVar() != 0;
      int lines = r.readInt();
      int ranges = r.readInt();
      int bodyLen = r.readCount();
      int bodyOff = r.position();
      r = new ByteReader(rec, bodyOff + bodyLen, len - bodyOff - bodyLen);
      int nf = r.readInt();
      for (int i = 0; i < nf; i++) {
        int id = r.readInt();
        if (pageFiles.add(id)) {
          byte[] s = files.get(id);
          stringBytes += s == null ? 0 : s.length + 2;
        }
      }
      int no = r.readInt();
      for (int i = 0; i < no; i++) {
        int id = r.readInt();
        if (pageOrigins.add(id)) {
          byte[] s = origins.get(id);
          stringBytes += s == null ? 0 : s.length + 2;
        }
      }
      int idx = names.intern(rec, nameOff, nameLen);
      funcs.writeVar(start - prevFunc);
      funcs.writeVar(size);
      funcs.writeVar(((long) idx << 1) | (multiple ? 1 : 0));
      funcs.writeVar(lines);
      funcs.writeVar(ranges);
      funcs.writeBytes(rec, bodyOff, bodyLen);
      prevFunc = start;
      nFuncs++;
      nLines += lines;
      nRanges += ranges;
      long end = start + size;
      activeToTop = end == 0;
      activeEnd = end;
    }

    void flush() throws IOException {
      if (empty) {
        return;
      }
      ByteWriter out = new ByteWriter(funcs.size() + pubs.size() + names.data().size()
          + (int) stringBytes + 64);
      writeStrings(out, pageFiles, files);
      writeStrings(out, pageOrigins, origins);
      out.writeVar(names.count());
      names.data().writeTo(out);
      out.writeVar(nPubs);
      out.writeVar(nFuncs);
      out.writeVar(nLines);
      out.writeVar(nRanges);
      pubs.writeTo(out);
      funcs.writeTo(out);
      sink.accept(new TablePage(firstKey, compress(out)));
      pages++;
      funcs.reset();
      pubs.reset();
      names.clear();
      pageFiles.clear();
      pageOrigins.clear();
      stringBytes = 0;
      nFuncs = 0;
      nPubs = 0;
      nLines = 0;
      nRanges = 0;
      activeToTop = false;
      empty = true;
    }

    private Deflater newDeflater() {
      return codec == PageCodec.DEFLATE ? new Deflater(Deflater.BEST_SPEED) : null;
    }

    /** [version][firstKey][raw length][codec][body]: names dominate and compress well. */
    private byte[] compress(ByteWriter raw) {
      ByteWriter page = new ByteWriter(raw.size() / 3 + 64);
      page.writeByte(PAGE_VERSION);
      page.writeVar(firstKey);
      page.writeVar(raw.size());
      rawBytes += raw.size();
      page.writeByte(codec.id);
      if (codec == PageCodec.STORED) {
        page.writeBytes(raw.array(), 0, raw.size());
        return page.toByteArray();
      }
      if (codec == PageCodec.LZ) {
        lz.compress(raw.array(), raw.size(), page);
        return page.toByteArray();
      }
      deflater.reset();
      deflater.setInput(raw.array(), 0, raw.size());
      deflater.finish();
      while (!deflater.finished()) {
        int n = deflater.deflate(chunk);
        page.writeBytes(chunk, 0, n);
      }
      return page.toByteArray();
    }

    private void writeStrings(ByteWriter out, IntSet ids, Map<Integer, byte[]> table) {
      int[] sorted = ids.sortedKeys();
      int present = 0;
      for (int id : sorted) {
        if (table.containsKey(id)) {
          present++;
        }
      }
      out.writeVar(present);
      for (int id : sorted) {
        byte[] s = table.get(id);
        if (s != null) {
          out.writeVar(id);
          out.writeBlob(s, 0, s.length);
        }
      }
    }
  }

  /** A node of the per-FUNC inline range tree (Breakpad's ContainedRangeMap). */
  private static final class RangeNode {
    static final RangeNode[] EMPTY = new RangeNode[0];
    final long start;
    final long high;
    final int rec;
    RangeNode[] kids = EMPTY;
    int nk;

    RangeNode(long start, long high, int rec) {
      this.start = start;
      this.high = high;
      this.rec = rec;
    }

    void clearChildren() {
      kids = EMPTY;
      nk = 0;
    }

    /**
     * Stores [base, high]: inside the one child that contains it (equal ranges nest inside the
     * earlier one), or around the children it contains; a partial overlap is rejected.
     */
    boolean insert(long base, long hi, int r, NativeTableBuilder budget) {
      RangeNode node = this;
      while (true) {
        RangeNode[] kids = node.kids;
        int nk = node.nk;
        int lo = 0;
        int up = nk;
        while (lo < up) {
          int mid = (lo + up) >>> 1;
          if (Unsigned.lt(kids[mid].high, base)) {
            lo = mid + 1;
          } else {
            up = mid;
          }
        }
        int i = lo;
        int j = i;
        while (j < nk && Unsigned.le(kids[j].start, hi)) {
          j++;
        }
        if (j - i == 1 && Unsigned.le(kids[i].start, base) && Unsigned.le(hi, kids[i].high)) {
          node = kids[i]; // descend: iterative, so deep (hostile) nesting cannot overflow
          budget.moves++;
          continue;
        }
        return node.insertHere(base, hi, r, i, j, budget);
      }
    }

    private boolean insertHere(long base, long hi, int r, int i, int j,
        NativeTableBuilder budget) {
      for (int m = i; m < j; m++) {
        if (Unsigned.lt(kids[m].start, base) || Unsigned.lt(hi, kids[m].high)) {
          return false;
        }
      }
      RangeNode n = new RangeNode(base, hi, r);
      int removed = j - i;
      if (removed > 0) {
        n.kids = Arrays.copyOfRange(kids, i, j);
        n.nk = removed;
      }
      int newCount = nk - removed + 1;
      if (newCount > kids.length) {
        kids = Arrays.copyOf(kids, Math.max(4, kids.length * 2));
      }
      System.arraycopy(kids, j, kids, i + 1, nk - j);
      budget.moves += nk - j + removed;
      kids[i] = n;
      for (int m = newCount; m < nk; m++) {
        kids[m] = null;
      }
      nk = newCount;
      return true;
    }
  }
}

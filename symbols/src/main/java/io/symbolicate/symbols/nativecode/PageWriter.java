package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.util.zip.Deflater;

/**
 * Cuts pages at entry boundaries no accepted FUNC spans (and never between two entries at the
 * same address), so each page decodes alone; writes strings, PUBLICs and FUNC records into it
 * and compresses it with the chosen codec.
 */
final class PageWriter {
  private final NativeTableBuilder.PageSink sink;
  private final int pageTarget;
  private final PageCompression codec;
  private final IdStrings files;
  private final IdStrings origins;
  private int[] entries = new int[256];
  private final Deflater deflater;
  private final byte[] chunk = new byte[1 << 16];
  private final PageLz lz = new PageLz();
  private final ByteWriter funcs = new ByteWriter(1 << 17);
  private final ByteWriter pubs = new ByteWriter(1 << 12);
  private final ByteWriter pads = new ByteWriter(1 << 10);
  private final ByteWriter unwinds = new ByteWriter(1 << 12);
  // a page's raw body and its compressed form, reused: sized on the first pages, they no longer
  // grow (a fresh body per page overflowed its estimate and was copied whole, at every flush)
  private final ByteWriter body = new ByteWriter(1 << 17);
  private final ByteWriter packed = new ByteWriter(1 << 16);
  private int nUnwinds;
  // the FUNC bodies in the page's raw body: packed varints that LZ shrinks by a sixth at most,
  // while searching them for matches took 40% of its time; they go out as literals
  private int funcsFrom;
  private int funcsTo;
  private long prevUnwind;
  private long unwindFirstKey; // key of a page that starts with unwind records
  private long unwindEnd; // exclusive end of the unwind ranges in this page, unsigned max
  private boolean unwindToTop;
  private final BytesInterner names = new BytesInterner();
  private final IntSet pageFiles = new IntSet();
  private final IntSet pageOrigins = new IntSet();
  private long stringBytes;
  private long firstKey;
  private long prevFunc;
  private long prevPub;
  private long prevPad;
  private int nPads;
  private int nFuncs;
  private int nPubs;
  private long nLines;
  private long nRanges;
  private long lastAddr;
  private long activeEnd; // exclusive end of the last FUNC
  private boolean activeToTop; // the last FUNC ends at 2^64
  private boolean empty = true;
  private long pages;
  private long rawBytes;

  PageWriter(
      NativeTableBuilder.PageSink sink,
      int pageTarget,
      PageCompression codec,
      IdStrings files,
      IdStrings origins) {
    this.sink = sink;
    this.pageTarget = pageTarget;
    this.codec = codec;
    this.files = files;
    this.origins = origins;
    this.deflater = codec == PageCompression.DEFLATE ? new Deflater(Deflater.BEST_SPEED) : null;
  }

  long pages() {
    return pages;
  }

  long rawBytes() {
    return rawBytes;
  }

  void finish() throws IOException {
    flush();
    if (deflater != null) {
      deflater.end();
    }
  }

  /**
   * Before a FUNC or PUBLIC. Pages are cut only there, so unwind records never split the symbols
   * differently; unwind records below the first symbol start the first page (the page answers
   * no lookup below its first symbol).
   */
  private void beforeEntry(long addr) throws IOException {
    if (empty && nUnwinds > 0) {
      empty = false;
      firstKey = unwindFirstKey;
      prevFunc = unwindFirstKey;
      prevPub = unwindFirstKey;
      prevPad = unwindFirstKey;
    }
    if (!empty
        && funcs.size() + pubs.size() + pads.size() + unwinds.size() + stringBytes >= pageTarget
        && addr != lastAddr
        && !activeToTop
        && Unsigned.le(activeEnd, addr)
        && !unwindToTop
        && Unsigned.le(unwindEnd, addr)) {
      flush();
    }
    if (empty) {
      empty = false;
      firstKey = addr;
      prevFunc = addr;
      prevPub = addr;
      prevPad = addr;
      prevUnwind = addr;
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

  /**
   * A return pad as {@link NativeTableBuilder#returnPad} stored it: frame count, then per frame
   * name, file id + 1 and line. In the page: address delta, frame count, then per frame the
   * page's name index, file id + 1 and line; the pads follow the FUNCs (a page without pads ends
   * after its FUNCs, as before pads existed).
   */
  void addReturnPad(long addr, byte[] rec, int len) throws IOException {
    beforeEntry(addr);
    ByteReader r = new ByteReader(rec, 0, len);
    int n = r.readInt();
    pads.writeVar(addr - prevPad);
    pads.writeVar(n);
    for (int i = 0; i < n; i++) {
      int nameLen = r.readCount();
      int nameOff = r.position();
      r = new ByteReader(rec, nameOff + nameLen, len - nameOff - nameLen);
      pads.writeVar(names.intern(rec, nameOff, nameLen));
      long file = r.readVar();
      if (file > 0 && pageFiles.add((int) (file - 1))) {
        int fl = files.length((int) (file - 1));
        stringBytes += fl < 0 ? 0 : fl + 2;
      }
      pads.writeVar(file);
      pads.writeVar(r.readVar());
    }
    prevPad = addr;
    nPads++;
  }

  /**
   * An unwind record ({@link UnwindRecords} encoding) covering [addr, end); pages are not cut
   * inside it, so the page of any address it covers holds it. {@code seq} is its file order.
   */
  void addUnwind(long addr, long end, long seq, byte[] rec, int len) {
    if (empty && nUnwinds == 0) {
      unwindFirstKey = addr;
      prevUnwind = addr;
    }
    unwinds.writeVar(addr - prevUnwind);
    unwinds.writeVar(seq);
    unwinds.writeBytes(rec, 0, len);
    prevUnwind = addr;
    nUnwinds++;
    if (end == 0) {
      unwindToTop = true;
    } else if (Unsigned.lt(unwindEnd, end)) {
      unwindEnd = end;
    }
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
        int n = files.length(id);
        stringBytes += n < 0 ? 0 : n + 2;
      }
    }
    int no = r.readInt();
    for (int i = 0; i < no; i++) {
      int id = r.readInt();
      if (pageOrigins.add(id)) {
        int n = origins.length(id);
        stringBytes += n < 0 ? 0 : n + 2;
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
    if (empty && nUnwinds == 0) {
      return;
    }
    if (empty) {
      firstKey = unwindFirstKey; // unwind records only
    }
    ByteWriter out = body;
    out.reset();
    writeStrings(out, pageFiles, files);
    writeStrings(out, pageOrigins, origins);
    out.writeVar(names.count());
    names.data().writeTo(out);
    out.writeVar(nPubs);
    out.writeVar(nFuncs);
    out.writeVar(nLines);
    out.writeVar(nRanges);
    pubs.writeTo(out);
    funcsFrom = out.size();
    funcs.writeTo(out);
    funcsTo = out.size();
    // format 2: the return pads (symbfile tables), then the unwind records, each with its count
    out.writeVar(nPads);
    pads.writeTo(out);
    out.writeVar(nUnwinds);
    unwinds.writeTo(out);
    sink.accept(new TablePage(firstKey, compress(out)));
    pages++;
    funcs.reset();
    pubs.reset();
    pads.reset();
    nPads = 0;
    unwinds.reset();
    nUnwinds = 0;
    unwindEnd = 0;
    unwindToTop = false;
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

  /** [version][firstKey][raw length][codec][body]: names dominate and compress well. */
  private byte[] compress(ByteWriter raw) {
    ByteWriter page = packed;
    page.reset();
    page.writeByte(NativeTableBuilder.PAGE_VERSION);
    page.writeVar(firstKey);
    page.writeVar(raw.size());
    rawBytes += raw.size();
    return compressed(raw, codec, page);
  }

  private byte[] compressed(ByteWriter raw, PageCompression codec, ByteWriter page) {
    page.writeByte(codec.id);
    int header = page.size();
    if (codec == PageCompression.STORED) {
      page.writeBytes(raw.array(), 0, raw.size());
      return page.toByteArray();
    }
    if (codec == PageCompression.LZ) {
      lz.compress(raw.array(), raw.size(), page, funcsFrom, funcsTo);
    } else {
      deflater.reset();
      deflater.setInput(raw.array(), 0, raw.size());
      deflater.finish();
      while (!deflater.finished()) {
        int n = deflater.deflate(chunk);
        page.writeBytes(chunk, 0, n);
      }
    }
    if (raw.size() > NativePageDecoder.maxExpanded(page.size() - header)) {
      // readers refuse a body that expands this much (a bomb): keep such a page raw
      ByteWriter stored = new ByteWriter(raw.size() + 16);
      stored.writeByte(NativeTableBuilder.PAGE_VERSION);
      stored.writeVar(firstKey);
      stored.writeVar(raw.size());
      return compressed(raw, PageCompression.STORED, stored);
    }
    return page.toByteArray();
  }

  private void writeStrings(ByteWriter out, IntSet ids, IdStrings table) {
    int[] sorted = ids.sortedKeys();
    if (entries.length < sorted.length) {
      entries = new int[Math.max(sorted.length, entries.length * 2)];
    }
    int present = 0;
    for (int k = 0; k < sorted.length; k++) {
      int e = table.entry(sorted[k]); // looked up once, used twice
      entries[k] = e;
      if (e >= 0) {
        present++;
      }
    }
    out.writeVar(present);
    for (int k = 0; k < sorted.length; k++) {
      int e = entries[k];
      if (e >= 0) {
        int n = table.entryLength(e);
        out.writeVar(sorted[k]);
        out.writeVar(n);
        byte[] dst = out.reserve(n); // the name straight from the store into the page
        table.readEntry(e, dst, out.size());
        out.setSize(out.size() + n);
      }
    }
  }
}

package io.symbolicate.symbols.nativecode;

import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * One decoded page: FUNCs, PUBLICs, line records and inline ranges in primitive arrays, plus a
 * segment index built at decode time. A segment is a maximal address range with one answer
 * (function or public or nothing, line record, innermost inline range), so a lookup is a bucket
 * read and a short scan, then one record, then the inline chain.
 */
public final class NativePage implements io.symbolicate.symbols.table.HeapSized {
  static final String NAME_OMITTED = "<name omitted>";
  private static final SharedUtf8 OMITTED = SharedUtf8.of(NAME_OMITTED);

  private final long firstKey;
  // names and paths as UTF-8 bytes, which the output encoder copies as they are (SharedUtf8)
  private SharedUtf8[] strings;
  // FUNCs, PUBLICs, line records and inline ranges as decoded: the segment index is built from
  // them; once the dense records carry everything a lookup reads, they are released
  // FUNCs
  private long[] fStart;
  private long[] fSize;
  private int[] fName;
  private boolean[] fMulti;
  // PUBLICs
  private long[] pAddr;
  private int[] pName;
  private boolean[] pMulti;
  // line records (per FUNC, sorted, disjoint)
  private long[] lStart;
  private int[] lLine;
  private int[] lFile;
  // inline ranges (per FUNC, parent first)
  private long[] rStart;
  // per range, side by side (one cache line serves a chain step): parent, origin string,
  // call-site line, call-site file string, start (low, high 32 bits), chain length
  private static final int R = 8;
  private int[] rInfo;
  // segments
  private long[] sStart;
  private int[] sSym; // >= 0 FUNC index, -1 nothing, <= -2 PUBLIC (-2 - index)
  private int[] sLine;
  private int[] sRange;
  private int nSeg;
  // frozen segment index: offsets from firstKey (when the page spans < 2^31 bytes) and a
  // bucket table (2^bucketShift bytes of address per bucket, about four buckets per segment)
  // giving the segment at each bucket's start, so a search touches one bucket and, only when a
  // segment starts inside that bucket, a short scan of segOff
  private int[] segOff;
  private int[] bucket;
  private int bucketShift;
  // bucket flag: a segment starts inside the bucket, so the search scans segOff from there
  private static final int SCAN = 0x80000000;
  // answers per segment (sym, line, range) until densified
  private int[] seg;
  // denormalised answers for narrow pages, side by side: kind, name, base, flags, line, file,
  // line base, range (one cache line per lookup instead of one per array) ...
  private static final int D = 8;
  private int[] dense;
  // ... and the references a result needs: name, line file, innermost inline range. The
  // Strings themselves are not touched by a lookup.
  private Object[] segRef;
  private InlineRange[] rangeObj;
  // the answer per segment, built on the segment's first lookup (see lookup) ...
  private NativeFrame[] answers;
  // ... and per bucket that lies inside one segment, so such a lookup reads one array slot and
  // the answer instead of the bucket, the segment's slot and the answer (misses in a row)
  private NativeFrame[] byBucket;
  // estimate of the heap this page holds once every segment was looked up
  private long heapBytes;
  // return pads (symbfile): sorted addresses, each with frames padFrom[i] until padFrom[i + 1],
  // outermost first; null on pages without pads
  private long[] padAddr;
  private int[] padFrom;
  private SharedUtf8[] padName;
  private SharedUtf8[] padFile;
  private int[] padLine;

  /** One accepted inline range, linked to its parent: a chain walk is a pointer chase. */
  private static final class InlineRange {
    final SharedUtf8 name;
    final SharedUtf8 callFile; // null: keep the line record's file (old format, unknown id)
    final int callLine;
    final long start;
    final int depth;
    final InlineRange parent;

    InlineRange(
        SharedUtf8 name, SharedUtf8 callFile, int callLine, long start, InlineRange parent) {
      this.name = name;
      this.callFile = callFile;
      this.callLine = callLine;
      this.start = start;
      this.parent = parent;
      this.depth = parent == null ? 1 : parent.depth + 1;
    }
  }

  private NativePage(
      long firstKey, SharedUtf8[] strings, int nFuncs, int nPubs, int nLines, int nRanges) {
    this.firstKey = firstKey;
    this.strings = strings;
    fStart = new long[nFuncs];
    fSize = new long[nFuncs];
    fName = new int[nFuncs];
    fMulti = new boolean[nFuncs];
    pAddr = new long[nPubs];
    pName = new int[nPubs];
    pMulti = new boolean[nPubs];
    lStart = new long[nLines];
    lLine = new int[nLines];
    lFile = new int[nLines];
    rStart = new long[nRanges];
    rInfo = new int[R * nRanges];
  }

  public long firstKey() {
    return firstKey;
  }

  public int segmentCount() {
    return nSeg;
  }

  /**
   * Estimate of the heap this page holds, including the answers a lookup may still memoise;
   * what a bounded cache of decoded pages should weigh it at.
   */
  @Override
  public long heapBytes() {
    // the unwind records weigh about three times their stored bytes once decoded
    return heapBytes + (unwindBytes == null ? 0 : 4L * unwindBytes.length);
  }

  /** Decodes a page written by {@link NativeTableBuilder}; throws CorruptTableException. */
  public static NativePage decode(byte[] bytes) {
    return decode(bytes, true);
  }

  /**
   * Decodes a page; with {@code memo} false, lookups build each answer afresh instead of keeping
   * one per segment: a third of the memory and no old-to-young references for the garbage
   * collector, at a few tens of nanoseconds per lookup (the stream's choice: its pages live
   * in a bounded cache beside everything else, and its addresses rarely repeat within a page).
   */
  public static NativePage decode(byte[] bytes, boolean memo) {
    try {
      return decodeUnchecked(bytes, memo);
    } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException e) {
      throw new CorruptTableException("native page does not decode: " + e.getMessage());
    }
  }

  /** Pages inflate to at most this; a larger claim is a corrupt or hostile page. */
  static final int MAX_RAW_PAGE = 256 << 20;

  /**
   * A compressed body inflates to at most this many times its length (deflate's own limit is
   * about 1032) ... (a few tiny LZ bytes can claim a run of hundreds of MB: a bomb)
   */
  static final int MAX_EXPANSION = 1024;

  /** ... or to this, whichever is more. PageWriter stores a page that compresses better raw. */
  static final int MIN_EXPANSION_BOUND = 1 << 20;

  /** The most a compressed body of {@code bodyBytes} may inflate to. */
  static long maxExpanded(int bodyBytes) {
    return Math.max(MIN_EXPANSION_BOUND, (long) MAX_EXPANSION * bodyBytes);
  }

  private static NativePage decodeUnchecked(byte[] bytes, boolean memo) {
    ByteReader head = new ByteReader(bytes);
    int version = head.readByte();
    if (version != NativeTableBuilder.PAGE_VERSION) {
      throw new CorruptTableException("unsupported native page version " + version);
    }
    long firstKey = head.readVar();
    int rawLen = head.readInt();
    if (rawLen > MAX_RAW_PAGE) {
      throw new CorruptTableException("page claims " + rawLen + " bytes uncompressed");
    }
    int codec = head.readByte();
    if (codec != NativeTableBuilder.CODEC_RAW
        && rawLen > maxExpanded(bytes.length - head.position())) {
      throw new CorruptTableException(
          "page claims "
              + rawLen
              + " bytes uncompressed from a "
              + (bytes.length - head.position())
              + "-byte body");
    }
    byte[] raw;
    if (codec == NativeTableBuilder.CODEC_RAW) {
      if (bytes.length - head.position() != rawLen) {
        throw new CorruptTableException("stored page body length mismatch");
      }
      raw = Arrays.copyOfRange(bytes, head.position(), bytes.length);
    } else if (codec == NativeTableBuilder.CODEC_LZ) {
      raw = PageLz.decompress(bytes, head.position(), bytes.length, rawLen);
    } else if (codec == NativeTableBuilder.CODEC_DEFLATE) {
      raw = inflate(bytes, head.position(), rawLen);
    } else {
      throw new CorruptTableException("unknown page codec " + codec);
    }
    return decodeBody(firstKey, raw, memo);
  }

  private static byte[] inflate(byte[] bytes, int off, int rawLen) {
    // grown as the body inflates, not allocated at the length the page claims (see PageLz)
    byte[] raw = new byte[PageLz.initialOutput(bytes.length - off, rawLen)];
    Inflater inf = new Inflater();
    try {
      inf.setInput(bytes, off, bytes.length - off);
      int n = 0;
      while (n < rawLen) {
        raw = PageLz.grow(raw, n + 1, rawLen);
        int k = inf.inflate(raw, n, raw.length - n);
        if (k == 0 && (inf.finished() || inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        n += k;
      }
      if (n != rawLen || !inf.finished()) {
        throw new CorruptTableException("page body does not inflate to its declared length");
      }
    } catch (DataFormatException e) {
      throw new CorruptTableException("page body is not valid deflate data: " + e.getMessage());
    } finally {
      inf.end();
    }
    return raw;
  }

  private static NativePage decodeBody(long firstKey, byte[] raw, boolean memo) {
    ByteReader r = new ByteReader(raw);
    int nFiles = r.readCount();
    int[] fileIds = new int[nFiles];
    SharedUtf8[] fileStr = new SharedUtf8[nFiles];
    for (int i = 0; i < nFiles; i++) {
      fileIds[i] = r.readInt();
      fileStr[i] = r.readUtf8();
    }
    int nOrigins = r.readCount();
    int[] originIds = new int[nOrigins];
    SharedUtf8[] originStr = new SharedUtf8[nOrigins];
    for (int i = 0; i < nOrigins; i++) {
      originIds[i] = r.readInt();
      originStr[i] = r.readUtf8();
    }
    int nNames = r.readCount();
    SharedUtf8[] strings = new SharedUtf8[nFiles + nOrigins + nNames];
    System.arraycopy(fileStr, 0, strings, 0, nFiles);
    System.arraycopy(originStr, 0, strings, nFiles, nOrigins);
    int nameBase = nFiles + nOrigins;
    for (int i = 0; i < nNames; i++) {
      strings[nameBase + i] = r.readUtf8();
    }
    int nPubs = r.readCount();
    int nFuncs = r.readCount();
    int nLines = r.readCount();
    int nRanges = r.readCount();
    NativePage p = new NativePage(firstKey, strings, nFuncs, nPubs, nLines, nRanges);
    long prev = firstKey;
    for (int i = 0; i < nPubs; i++) {
      prev += r.readVar();
      p.pAddr[i] = prev;
      long v = r.readVar();
      p.pName[i] = nameIndex(v >>> 1, nameBase, nNames);
      p.pMulti[i] = (v & 1) != 0;
    }
    int[] lineFrom = new int[nFuncs + 1];
    int[] rangeFrom = new int[nFuncs + 1];
    long[] lHigh = new long[nLines];
    long[] rHigh = new long[nRanges];
    int li = 0;
    int ri = 0;
    prev = firstKey;
    int lastFileId = Integer.MIN_VALUE;
    int lastFileIdx = -1;
    for (int f = 0; f < nFuncs; f++) {
      prev += r.readVar();
      long start = prev;
      p.fStart[f] = start;
      p.fSize[f] = r.readVar();
      long v = r.readVar();
      p.fName[f] = nameIndex(v >>> 1, nameBase, nNames);
      p.fMulti[f] = (v & 1) != 0;
      int lines = r.readCount();
      int ranges = r.readCount();
      if (li + lines > nLines || ri + ranges > nRanges) {
        throw new CorruptTableException("page line or inline counts do not add up");
      }
      lineFrom[f] = li;
      rangeFrom[f] = ri;
      long cursor = start;
      int line = 0;
      int fileIdx = -1;
      for (int k = 0; k < lines; k++, li++) {
        long a = cursor + r.readSigned();
        long size = r.readVar();
        long d = r.readVar();
        long zz = d >>> 1;
        line += (int) ((zz >>> 1) ^ -(zz & 1));
        if ((d & 1) != 0) {
          int id = r.readInt();
          if (id != lastFileId) {
            lastFileId = id;
            lastFileIdx = indexOf(fileIds, id);
          }
          fileIdx = lastFileIdx;
        }
        p.lStart[li] = a;
        lHigh[li] = a + size - 1;
        p.lLine[li] = line;
        p.lFile[li] = fileIdx;
        cursor = a + size;
      }
      for (int k = 0; k < ranges; k++, ri++) {
        int parent = r.readInt() - 1;
        if (parent >= k) {
          throw new CorruptTableException("inline range parent out of order");
        }
        int globalParent = parent < 0 ? -1 : rangeFrom[f] + parent;
        p.rInfo[R * ri] = globalParent;
        p.rInfo[R * ri + 6] = parent < 0 ? 1 : p.rInfo[R * globalParent + 6] + 1;
        long a = start + r.readSigned();
        p.rStart[ri] = a;
        p.rInfo[R * ri + 4] = (int) a;
        p.rInfo[R * ri + 5] = (int) (a >>> 32);
        rHigh[ri] = a + r.readVar();
        int o = indexOf(originIds, r.readInt());
        p.rInfo[R * ri + 1] = o < 0 ? -1 : nFiles + o;
        p.rInfo[R * ri + 2] = r.readInt();
        long cf = r.readVar() - 1;
        p.rInfo[R * ri + 3] = cf < 0 ? -1 : indexOf(fileIds, (int) cf);
      }
    }
    lineFrom[nFuncs] = li;
    rangeFrom[nFuncs] = ri;
    if (!r.atEnd()) {
      p.decodeReturnPads(r, firstKey, fileIds, strings, nameBase, nNames);
    }
    p.buildSegments(lineFrom, rangeFrom, lHigh, rHigh, memo);
    if (r.position() < raw.length) {
      p.unwindBytes = Arrays.copyOfRange(raw, r.position(), raw.length);
    }
    return p;
  }

  /** The return-pad section that follows the FUNCs on pages of symbfile tables (PageWriter#addReturnPad). */
  private void decodeReturnPads(
      ByteReader r, long firstKey, int[] fileIds, SharedUtf8[] strs, int nameBase, int nNames) {
    int n = r.readCount();
    padAddr = new long[n];
    padFrom = new int[n + 1];
    int cap = Math.max(4, n);
    SharedUtf8[] names = new SharedUtf8[cap];
    SharedUtf8[] fileOf = new SharedUtf8[cap];
    int[] lines = new int[cap];
    int k = 0;
    long prev = firstKey;
    for (int i = 0; i < n; i++) {
      prev += r.readVar();
      if (i > 0 && !Unsigned.lt(padAddr[i - 1], prev)) {
        throw new CorruptTableException("return pads out of order");
      }
      padAddr[i] = prev;
      padFrom[i] = k;
      int frames = r.readCount();
      for (int j = 0; j < frames; j++, k++) {
        if (k == names.length) {
          names = Arrays.copyOf(names, k * 2);
          fileOf = Arrays.copyOf(fileOf, k * 2);
          lines = Arrays.copyOf(lines, k * 2);
        }
        names[k] = strs[nameIndex(r.readVar(), nameBase, nNames)];
        long f = r.readVar();
        int fi = f == 0 || f - 1 > Integer.MAX_VALUE ? -1 : indexOf(fileIds, (int) (f - 1));
        fileOf[k] = fi < 0 ? null : strs[fi];
        lines[k] = (int) r.readVar();
      }
    }
    padFrom[n] = k;
    padName = Arrays.copyOf(names, k);
    padFile = Arrays.copyOf(fileOf, k);
    padLine = Arrays.copyOf(lines, k);
  }

  // ---------------------------------------------------------------- unwind records

  /** The unwind section as stored (null: none), decoded on first use. */
  private byte[] unwindBytes;

  private volatile UnwindSection unwind;

  private UnwindSection unwind() {
    UnwindSection u = unwind;
    if (u == null && unwindBytes != null) {
      try {
        u = UnwindSection.decode(unwindBytes, firstKey);
      } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException e) {
        throw new CorruptTableException(
            "native page unwind records do not decode: " + e.getMessage());
      }
      unwind = u;
    }
    return u;
  }

  /**
   * The CFI rule sets in effect at {@code address}: the STACK CFI INIT record's rules, then the
   * deltas up to the address in order; empty when no INIT range holds it.
   */
  public List<String> cfiRuleSets(long address) {
    UnwindSection u = unwind();
    return u == null ? List.of() : u.cfiRuleSets(address);
  }

  /** The STACK WIN record (frame data preferred to FPO) holding {@code address}, or null. */
  public StackWinRecord stackWin(long address) {
    UnwindSection u = unwind();
    return u == null ? null : u.stackWin(address);
  }

  /** The parameter size of the FUNC starting at {@code funcStart} (0 when not given). */
  public long parameterSize(long funcStart) {
    UnwindSection u = unwind();
    return u == null ? 0 : u.parameterSize(funcStart);
  }

  private static int nameIndex(long idx, int nameBase, int nNames) {
    if (idx >= nNames) {
      throw new CorruptTableException("name index out of range");
    }
    return nameBase + (int) idx;
  }

  private static int indexOf(int[] sortedIds, int id) {
    int i = Arrays.binarySearch(sortedIds, id);
    return i < 0 ? -1 : i;
  }

  // ---------------------------------------------------------------- segment index

  private void emit(long start, int sym, int line, int range) {
    if (nSeg > 0 && sSym[nSeg - 1] == sym && sLine[nSeg - 1] == line && sRange[nSeg - 1] == range) {
      return;
    }
    if (nSeg == sStart.length) {
      int n = Math.max(16, nSeg * 2);
      sStart = Arrays.copyOf(sStart, n);
      sSym = Arrays.copyOf(sSym, n);
      sLine = Arrays.copyOf(sLine, n);
      sRange = Arrays.copyOf(sRange, n);
    }
    sStart[nSeg] = start;
    sSym[nSeg] = sym;
    sLine[nSeg] = line;
    sRange[nSeg] = range;
    nSeg++;
  }

  /**
   * Evaluates Breakpad's rule at every FUNC start/end and PUBLIC address: the FUNC containing
   * the address; else the nearest PUBLIC below if it lies above the nearest FUNC start below;
   * else nothing. Inside a FUNC, line and inline boundaries refine the segments.
   */
  private void buildSegments(
      int[] lineFrom, int[] rangeFrom, long[] lHigh, long[] rHigh, boolean memo) {
    int nf = fStart.length;
    int np = pAddr.length;
    int cap = lStart.length + 2 * rStart.length + 2 * nf + np + 4;
    sStart = new long[cap];
    sSym = new int[cap];
    sLine = new int[cap];
    sRange = new int[cap];
    long[] points = new long[2 * nf + np];
    int n = 0;
    for (int f = 0; f < nf; f++) {
      points[n++] = fStart[f];
      long end = fStart[f] + fSize[f];
      if (end != 0) {
        points[n++] = end;
      }
    }
    for (int i = 0; i < np; i++) {
      points[n++] = pAddr[i];
    }
    n = Unsigned.sortUnique(points, n);
    long[] bounds = new long[16];
    int[] stack = new int[16];
    int lastFunc = -1;
    if (n == 0 || Unsigned.lt(firstKey, points[0])) {
      emit(firstKey, -1, -1, -1); // unwind records below the first symbol: no answer there
    }
    for (int k = 0; k < n; k++) {
      long b = points[k];
      int f = Unsigned.floor(fStart, nf, b);
      if (f >= 0 && Unsigned.contains(fStart[f], fSize[f], b)) {
        if (f != lastFunc) {
          lastFunc = f;
          bounds = funcSegments(f, lineFrom, rangeFrom, lHigh, rHigh, bounds, stack);
          if (stack.length < rangeFrom[f + 1] - rangeFrom[f]) {
            stack = new int[rangeFrom[f + 1] - rangeFrom[f]];
          }
        }
        continue;
      }
      int p = Unsigned.floor(pAddr, np, b);
      if (p >= 0 && (f < 0 || Unsigned.lt(fStart[f], pAddr[p]))) {
        emit(b, -2 - p, -1, -1);
      } else {
        emit(b, -1, -1, -1);
      }
    }
    // FUNCs that overlap (the builder drops them, so only a corrupt page has them) leave
    // segments out of order, and the bucket index and the binary search would then give
    // different answers for one address (fuzz finding: memo vs plain at the top address)
    for (int i = 1; i < nSeg; i++) {
      if (!Unsigned.lt(sStart[i - 1], sStart[i])) {
        throw new CorruptTableException(
            "native page symbols overlap or are out of order at 0x" + Long.toHexString(sStart[i]));
      }
    }
    freeze(memo);
  }

  private void freeze(boolean memo) {
    long strs = 0;
    for (SharedUtf8 str : strings) {
      // the SharedUtf8, its bytes and their array header; plus the String (and its bytes) that
      // a page memoising its answers keeps (see str)
      int len = str == null ? 0 : str.getByteLength();
      strs += 16 + 40 + len + (memo ? 24 + 16 + len : 0);
    }
    int nr = rStart.length;
    long ranges = 40L * nr;
    rangeObj = new InlineRange[nr];
    for (int r = 0; r < nr; r++) {
      int at = R * r;
      int origin = rInfo[at + 1];
      int cf = rInfo[at + 3];
      int parent = rInfo[at];
      rangeObj[r] =
          new InlineRange(
              origin >= 0 ? strings[origin] : OMITTED,
              cf >= 0 ? strings[cf] : null,
              rInfo[at + 2],
              rStart[r],
              parent >= 0 ? rangeObj[parent] : null);
    }
    answers = memo ? new NativeFrame[nSeg] : null;
    seg = new int[3 * nSeg];
    for (int i = 0; i < nSeg; i++) {
      seg[3 * i] = sSym[i];
      seg[3 * i + 1] = sLine[i];
      seg[3 * i + 2] = sRange[i];
    }
    sSym = null;
    sLine = null;
    sRange = null;
    long span = nSeg == 0 ? 0 : sStart[nSeg - 1] - firstKey;
    if (nSeg > 0 && span >= 0 && span <= Integer.MAX_VALUE) {
      segOff = new int[nSeg];
      for (int i = 0; i < nSeg; i++) {
        segOff[i] = (int) (sStart[i] - firstKey);
      }
      sStart = null;
      int last = segOff[nSeg - 1];
      int shift = 0;
      while (((long) last >>> shift) + 1 > 4L * nSeg + 16) {
        shift++;
      }
      bucketShift = shift;
      bucket = new int[(last >>> shift) + 1];
      byBucket = memo ? new NativeFrame[bucket.length] : null;
      int at = 0;
      for (int b = 0; b < bucket.length; b++) {
        long start = (long) b << shift;
        while (at + 1 < nSeg && segOff[at + 1] <= start) {
          at++;
        }
        long end = start + (1L << shift);
        bucket[b] = at + 1 < nSeg && segOff[at + 1] < end ? at | SCAN : at;
      }
      dense = densify();
      if (dense != null) {
        // the dense records and their references carry everything a lookup reads
        seg = null;
        fStart = null;
        fSize = null;
        fName = null;
        fMulti = null;
        pAddr = null;
        pName = null;
        pMulti = null;
        lStart = null;
        lLine = null;
        lFile = null;
        rStart = null;
        rInfo = null;
        rangeObj = null;
        strings = null;
      }
    } else {
      sStart = Arrays.copyOf(sStart, nSeg);
    }
    heapBytes = estimateHeap(memo, strs, ranges);
  }

  /** Arrays still held, plus strings, inline ranges and (with the memo) one answer per segment. */
  private long estimateHeap(boolean memo, long strs, long ranges) {
    long b = 64 + strs + ranges;
    for (Object a :
        new Object[] {
          fStart, fSize, fName, fMulti, pAddr, pName, pMulti, lStart, lLine, lFile, rStart, rInfo,
          sStart, seg, segOff, bucket, dense, segRef, rangeObj, answers, byBucket, padAddr, padFrom,
          padName, padFile, padLine
        }) {
      b += arrayBytes(a);
    }
    if (memo) {
      b += 96L * nSeg; // a NativeFrame with its boxed line and line base
    }
    return b;
  }

  private static long arrayBytes(Object a) {
    if (a == null) {
      return 0;
    }
    int n = java.lang.reflect.Array.getLength(a);
    Class<?> t = a.getClass().getComponentType();
    int each = t == long.class ? 8 : t == int.class ? 4 : t == boolean.class ? 1 : 4;
    return 16 + (long) n * each;
  }

  /** Per segment: kind, name, base, flags, line, file, line base, range; null if a base is wide. */
  private int[] densify() {
    int[] d = new int[D * nSeg];
    Object[] ss = new Object[3 * nSeg];
    for (int i = 0; i < nSeg; i++) {
      int at = D * i;
      int sym = seg[3 * i];
      int line = seg[3 * i + 1];
      d[at + 7] = seg[3 * i + 2];
      ss[3 * i + 2] = seg[3 * i + 2] >= 0 ? rangeObj[seg[3 * i + 2]] : null;
      d[at + 5] = -1;
      if (sym == -1) {
        d[at] = -1;
        continue;
      }
      long base;
      if (sym < -1) {
        int p = -2 - sym;
        d[at] = 1;
        d[at + 1] = pName[p];
        base = pAddr[p];
        d[at + 3] = pMulti[p] ? 1 : 0;
      } else {
        d[at] = 0;
        d[at + 1] = fName[sym];
        base = fStart[sym];
        d[at + 3] = fMulti[sym] ? 1 : 0;
      }
      long baseOff = base - firstKey;
      if (baseOff < 0 || baseOff > Integer.MAX_VALUE) {
        return null;
      }
      d[at + 2] = (int) baseOff;
      if (line >= 0) {
        long lineOff = lStart[line] - firstKey;
        if (lineOff < Integer.MIN_VALUE || lineOff > Integer.MAX_VALUE) {
          return null;
        }
        d[at + 3] |= 2;
        d[at + 4] = lLine[line];
        d[at + 5] = lFile[line];
        d[at + 6] = (int) lineOff;
        ss[3 * i + 1] = lFile[line] >= 0 ? strings[lFile[line]] : null;
      }
      ss[3 * i] = strings[d[at + 1]];
    }
    segRef = ss;
    return d;
  }

  /**
   * A name as the String an answer carries: kept with the name on pages that memoise their
   * answers (counted in their size), built anew on pages in the shared cache, whose size
   * estimate must hold however they are used.
   */
  private String str(SharedUtf8 s) {
    return s == null ? null : answers != null ? s.cachedString() : s.toString();
  }

  /** Index of the segment containing {@code address}, or -1. */
  private int segmentAt(long address) {
    if (segOff == null) {
      return Unsigned.floor(sStart, nSeg, address);
    }
    if (Unsigned.lt(address, firstKey)) {
      return -1;
    }
    long rel = address - firstKey;
    if (rel >>> 31 != 0) {
      return nSeg - 1; // 2^31 or more past the first key (unsigned: up to 2^64 - 1)
    }
    int key = (int) rel;
    int[] bk = bucket;
    int bi = key >>> bucketShift;
    int e = bk[Math.min(bi, bk.length - 1)];
    if (e >= 0) {
      return e; // no segment starts inside this bucket: segOff is not read
    }
    int i = e & ~SCAN;
    int[] o = segOff;
    int n = nSeg;
    while (i + 1 < n && o[i + 1] <= key) {
      i++;
    }
    return i;
  }

  private long[] funcSegments(
      int f,
      int[] lineFrom,
      int[] rangeFrom,
      long[] lHigh,
      long[] rHigh,
      long[] bounds,
      int[] stack) {
    long s = fStart[f];
    long last = s + fSize[f] - 1;
    int l0 = lineFrom[f];
    int l1 = lineFrom[f + 1];
    int r0 = rangeFrom[f];
    int r1 = rangeFrom[f + 1];
    int need = 1 + 2 * (l1 - l0) + 2 * (r1 - r0);
    if (bounds.length < need) {
      bounds = new long[need];
    }
    if (stack.length < r1 - r0) {
      stack = new int[r1 - r0];
    }
    int n = 0;
    bounds[n++] = s;
    for (int i = l0; i < l1; i++) {
      n = addInside(bounds, n, lStart[i], s, last);
      n = addInside(bounds, n, lHigh[i] + 1, s, last);
    }
    for (int i = r0; i < r1; i++) {
      n = addInside(bounds, n, rStart[i], s, last);
      n = addInside(bounds, n, rHigh[i] + 1, s, last);
    }
    n = Unsigned.sortUnique(bounds, n);
    int li = l0;
    int ri = r0;
    int sp = 0;
    for (int k = 0; k < n; k++) {
      long b = bounds[k];
      while (li < l1 && Unsigned.lt(lHigh[li], b)) {
        li++;
      }
      int line = li < l1 && Unsigned.le(lStart[li], b) ? li : -1;
      while (sp > 0 && Unsigned.lt(rHigh[stack[sp - 1]], b)) {
        sp--;
      }
      while (ri < r1 && Unsigned.le(rStart[ri], b)) {
        if (Unsigned.le(b, rHigh[ri])) {
          stack[sp++] = ri;
        }
        ri++;
      }
      emit(b, f, line, sp > 0 ? stack[sp - 1] : -1);
    }
    return bounds;
  }

  private static int addInside(long[] a, int n, long v, long s, long last) {
    if (Unsigned.lt(s, v) && Unsigned.le(v, last)) {
      a[n++] = v;
    }
    return n;
  }

  // ---------------------------------------------------------------- lookup

  /** Breakpad's answer for a module-relative address in this page, or null. */
  public NativeFrame lookup(long address) {
    NativeFrame[] bb = byBucket;
    int bi = -1;
    if (bb != null && !Unsigned.lt(address, firstKey)) {
      long rel = address - firstKey;
      bi = rel >>> 31 != 0 ? bb.length - 1 : Math.min((int) rel >>> bucketShift, bb.length - 1);
      NativeFrame t = bb[bi];
      if (t != null) {
        return at(t, address);
      }
    }
    int i = segmentAt(address);
    if (i < 0) {
      return null;
    }
    if (answers == null) {
      return buildAnswer(i, address);
    }
    NativeFrame t = answers[i];
    if (t == null) {
      t = answer(i);
      // Benign race: the answer is immutable (final fields only), so a thread that sees the
      // reference sees it fully built, and two threads building it build equal answers.
      answers[i] = t;
    }
    if (bi >= 0 && bucket[bi] >= 0) {
      bb[bi] = t; // the bucket lies inside segment i (no SCAN flag)
    }
    return at(t, address);
  }

  /**
   * Looks up {@code n} addresses at once and hands each answer to {@code sink}, in order of
   * {@code k}: the answer of {@code pages[k].lookup(addresses[k])}, or nothing where
   * {@code pages[k]} is null. The answers go to the sink as values, not as {@link NativeFrame}
   * objects, which the caller would only copy into its own output. Same answers as one by one,
   * but faster over a working set much larger than the CPU caches (the stream's case: uniformly
   * spread addresses over many pages): a lookup is a chain of dependent reads that mostly miss
   * (bucket, segment row and references, name), and between single lookups the caller does
   * enough other work that the CPU waits for each miss in turn. Here every step is done for all
   * addresses before the next, so the misses of different addresses are in flight together and
   * each step costs about one memory latency for the whole batch.
   *
   * @param segments scratch of at least {@code n} ints
   */
  public static void lookupAll(
      NativePage[] pages, long[] addresses, int n, AnswerSink sink, int[] segments) {
    // step 1: the bucket (and, for buckets where a segment starts, segment offsets) per address
    for (int k = 0; k < n; k++) {
      NativePage p = pages[k];
      segments[k] = p == null || p.answers != null ? -1 : p.segmentAt(addresses[k]);
    }
    // step 2: the segment's dense row and references, and the objects they point to (the name
    // string and its bytes, which the caller's encoder reads too, and the inline chain's head)
    int touched = 0;
    for (int k = 0; k < n; k++) {
      int i = segments[k];
      NativePage p = pages[k];
      if (i < 0 || p.dense == null) {
        continue;
      }
      // both ends of the row: a row of 8 ints starts mid-line every other time, and the answer
      // reads the kind and base from its first half and the line from its second
      touched += p.dense[D * i] + p.dense[D * i + 4];
      Object[] refs = p.segRef;
      Object name = refs[3 * i];
      Object range = refs[3 * i + 2];
      if (name != null) {
        // the name's last byte: its bytes span two cache lines more often than not
        SharedUtf8 n1 = (SharedUtf8) name;
        int len = n1.getByteLength();
        touched += len == 0 ? 0 : n1.getBytes()[len - 1];
      }
      if (range != null) {
        touched += ((InlineRange) range).depth;
      }
    }
    touchedSink = touched;
    // step 3: the answers, from cached lines
    for (int k = 0; k < n; k++) {
      NativePage p = pages[k];
      if (p == null) {
        sink.nothing(k);
      } else if (p.answers != null || p.dense == null) {
        send(k, p.lookup(addresses[k]), sink);
      } else {
        int i = segments[k];
        if (i < 0) {
          sink.nothing(k);
        } else {
          p.sendAnswer(k, i, sink);
        }
      }
    }
  }

  /**
   * Receives the answers of {@link #lookupAll}: for each address, in order, either
   * {@link #nothing} or its inlined frames (innermost first) followed by {@link #frame}. A line
   * is {@link #NO_LINE} when unknown. Names and files come as the page's own {@link SharedUtf8}
   * (Avro writes their bytes as they are), or as Strings from pages that hold answers.
   */
  public interface AnswerSink {
    int NO_LINE = Integer.MIN_VALUE;

    /** No page, or Breakpad finds nothing at address {@code k}. */
    void nothing(int k);

    /** An inlined frame at address {@code k}: the inlinee, its start, and the location in it. */
    void inlined(int k, CharSequence function, long functionBase, CharSequence file, int line);

    /**
     * The real function at address {@code k}, its start, and the source location of the address
     * (the outermost call site when there are inlined frames).
     */
    void frame(int k, CharSequence function, long functionBase, CharSequence file, int line);
  }

  private static void send(int k, NativeFrame f, AnswerSink sink) {
    if (f == null || f.function() == null) {
      sink.nothing(k);
      return;
    }
    List<InlineFrame> inlines = f.inlines();
    for (int j = 0; j < inlines.size(); j++) {
      InlineFrame in = inlines.get(j);
      sink.inlined(
          k,
          in.function(),
          in.functionBase(),
          in.file(),
          in.line() == null ? AnswerSink.NO_LINE : in.line());
    }
    sink.frame(
        k,
        f.function(),
        f.functionBase(),
        f.file(),
        f.line() == null ? AnswerSink.NO_LINE : f.line());
  }

  /**
   * As {@code send(k, buildAnswer(i, address), sink)} on a dense page, without the objects (the
   * address is the caller's: it only goes into the function offsets).
   */
  private void sendAnswer(int k, int i, AnswerSink sink) {
    int at = D * i;
    int[] d = dense;
    int kind = d[at];
    Object[] refs = segRef;
    SharedUtf8 name = (SharedUtf8) refs[3 * i];
    if (kind < 0 || name == null) {
      sink.nothing(k);
      return;
    }
    long base = firstKey + d[at + 2];
    int flags = d[at + 3];
    if (kind == 1) {
      sink.frame(k, name, base, null, AnswerSink.NO_LINE);
      return;
    }
    SharedUtf8 file = null;
    int line = AnswerSink.NO_LINE;
    if ((flags & 2) != 0) {
      file = (SharedUtf8) refs[3 * i + 1];
      line = d[at + 4];
    }
    SharedUtf8 lineFile = file;
    for (InlineRange r = (InlineRange) refs[3 * i + 2]; r != null; r = r.parent) {
      sink.inlined(k, r.name, r.start, file, line);
      line = r.callLine;
      file = r.callFile != null ? r.callFile : lineFile;
    }
    sink.frame(k, name, base, file, line);
  }

  // keeps step 2's reads from being optimised away
  @SuppressWarnings("unused")
  private static int touchedSink;

  /** The answer {@code t} (or nothing) for {@code address} in the same segment. */
  private static NativeFrame at(NativeFrame t, long address) {
    if (t == NOTHING) {
      return null;
    }
    if (t.address() == address) {
      return t;
    }
    return new NativeFrame(
        address,
        t.function(),
        t.functionBase(),
        t.file(),
        t.line(),
        t.lineBase(),
        t.multiple(),
        t.fromPublic(),
        t.inlines());
  }

  /** Marks a segment where Breakpad finds nothing in the answer cache. */
  private static final NativeFrame NOTHING =
      new NativeFrame(0, null, 0, null, null, null, false, false, List.of());

  /**
   * Builds the answer for segment {@code i} at its start address. Everything but the address is
   * the same for every address in a segment (name, line record, the whole inline chain), so the
   * answer is built once per segment, on its first lookup, and later lookups only copy it with
   * their own address.
   */
  private NativeFrame answer(int i) {
    long start = segOff != null ? firstKey + segOff[i] : sStart[i];
    NativeFrame f = buildAnswer(i, start);
    return f == null ? NOTHING : f;
  }

  private NativeFrame buildAnswer(int i, long address) {
    int[] d = dense;
    if (d != null) {
      int at = D * i;
      int kind = d[at];
      if (kind < 0) {
        return null;
      }
      Object[] refs = segRef;
      String name = str((SharedUtf8) refs[3 * i]);
      long base = firstKey + d[at + 2];
      int flags = d[at + 3];
      boolean multiple = (flags & 1) != 0;
      if (kind == 1) {
        return new NativeFrame(address, name, base, null, null, null, multiple, true, List.of());
      }
      String lineFile = null;
      Integer lineNo = null;
      Long lineBase = null;
      if ((flags & 2) != 0) {
        lineFile = str((SharedUtf8) refs[3 * i + 1]);
        lineNo = d[at + 4];
        lineBase = firstKey + d[at + 6];
      }
      InlineRange range = (InlineRange) refs[3 * i + 2];
      if (range == null) {
        return new NativeFrame(
            address, name, base, lineFile, lineNo, lineBase, multiple, false, List.of());
      }
      return withInlines(address, name, base, multiple, lineFile, lineNo, lineBase, range);
    }
    int sym = seg[3 * i];
    if (sym == -1) {
      return null;
    }
    if (sym < -1) {
      int p = -2 - sym;
      return new NativeFrame(
          address, str(strings[pName[p]]), pAddr[p], null, null, null, pMulti[p], true, List.of());
    }
    int line = seg[3 * i + 1];
    String lineFile = line >= 0 && lFile[line] >= 0 ? str(strings[lFile[line]]) : null;
    Integer lineNo = line >= 0 ? lLine[line] : null;
    Long lineBase = line >= 0 ? lStart[line] : null;
    int range = seg[3 * i + 2];
    if (range < 0) {
      return new NativeFrame(
          address,
          str(strings[fName[sym]]),
          fStart[sym],
          lineFile,
          lineNo,
          lineBase,
          fMulti[sym],
          false,
          List.of());
    }
    return withInlines(
        address,
        str(strings[fName[sym]]),
        fStart[sym],
        fMulti[sym],
        lineFile,
        lineNo,
        lineBase,
        rangeObj[range]);
  }

  /**
   * The return pad at {@code address} (a return address minus one) as a frame, or null where
   * the page has none: the function is the pad's outermost frame, its file and line the call
   * into the next frame; the inline chain innermost first, as {@link #lookup} gives it. Function
   * starts come from the FUNC and inline ranges at the address where their names agree (a pad
   * does not carry them), else they are the address.
   */
  public NativeFrame returnPad(long address) {
    long[] pa = padAddr;
    if (pa == null) {
      return null;
    }
    int i = Unsigned.floor(pa, pa.length, address);
    if (i < 0 || pa[i] != address) {
      return null;
    }
    int from = padFrom[i];
    int n = padFrom[i + 1] - from;
    if (n == 0) {
      return null;
    }
    NativeFrame ranges = lookup(address);
    List<InlineFrame> rin = ranges == null ? List.of() : ranges.inlines();
    InlineFrame[] inlines = new InlineFrame[n - 1];
    for (int d = n - 1, k = 0; d >= 1; d--, k++) {
      String name = str(padName[from + d]);
      int ri = rin.size() - d; // the ranges' frame at depth d (their list is innermost first)
      long base =
          ri >= 0 && name.equals(rin.get(ri).function()) ? rin.get(ri).functionBase() : address;
      inlines[k] = new InlineFrame(name, base, str(padFile[from + d]), padLine[from + d], null);
    }
    String outer = str(padName[from]);
    long base = ranges != null && outer.equals(ranges.function()) ? ranges.functionBase() : address;
    return new NativeFrame(
        address,
        outer,
        base,
        str(padFile[from]),
        padLine[from],
        null,
        false,
        false,
        n == 1 ? List.of() : new FrameList(inlines));
  }

  /** Return pads on this page (symbfile tables; 0 elsewhere). */
  public int returnPadCount() {
    return padAddr == null ? 0 : padAddr.length;
  }

  private NativeFrame withInlines(
      long address,
      String function,
      long base,
      boolean multiple,
      String lineFile,
      Integer lineNo,
      Long lineBase,
      InlineRange innermost) {
    InlineFrame[] inlines = new InlineFrame[innermost.depth];
    int k = 0;
    String file = lineFile;
    Integer ln = lineNo;
    for (InlineRange r = innermost; r != null; r = r.parent) {
      inlines[k++] = new InlineFrame(str(r.name), r.start, file, ln, lineBase);
      ln = r.callLine;
      file = r.callFile != null ? str(r.callFile) : lineFile;
    }
    return new NativeFrame(
        address, function, base, file, ln, lineBase, multiple, false, new FrameList(inlines));
  }
}

package io.symbolicate.symbols.nativecode;

import static io.symbolicate.symbols.nativecode.NativeSegmentIndex.D;
import static io.symbolicate.symbols.nativecode.NativeSegmentIndex.SCAN;

import io.symbolicate.symbols.table.HeapSized;
import java.util.List;

/**
 * One decoded page: FUNCs, PUBLICs, line records and inline ranges in primitive arrays, plus a
 * segment index built at decode time. A segment is a maximal address range with one answer
 * (function or public or nothing, line record, innermost inline range), so a lookup is a bucket
 * read and a short scan, then one record, then the inline chain. This class does the lookups;
 * {@link NativePageDecoder} decodes the bytes and {@link NativeSegmentIndex} builds the index.
 */
public final class NativePage implements HeapSized {
  private final long firstKey;
  // names and paths as UTF-8 bytes, which the output encoder copies as they are (SharedUtf8);
  // the records below are null on pages whose dense records carry what a lookup reads
  private final SharedUtf8[] strings;
  // FUNCs
  private final long[] fStart;
  private final int[] fName;
  private final boolean[] fMulti;
  // PUBLICs
  private final long[] pAddr;
  private final int[] pName;
  private final boolean[] pMulti;
  // line records (per FUNC, sorted, disjoint)
  private final long[] lStart;
  private final int[] lLine;
  private final int[] lFile;
  // segment starts, on pages that span 2^31 bytes or more (else segOff)
  private final long[] sStart;
  private final int nSeg;
  // the segment index (see NativeSegmentIndex): offsets from firstKey and the bucket table
  private final int[] segOff;
  private final int[] bucket;
  private final int bucketShift;
  // answers per segment (sym, line, range) when not densified
  private final int[] seg;
  // denormalised answers for narrow pages, D ints per segment side by side: kind, name, base,
  // flags, line, file, line base, range ...
  private final int[] dense;
  // ... and the references a result needs: name, line file, innermost inline range. The
  // Strings themselves are not touched by a lookup.
  private final Object[] segRef;
  private final InlineRange[] rangeObj;
  // the answer per segment, built on the segment's first lookup (see lookup) ...
  private final NativeFrame[] answers;
  // ... and per bucket that lies inside one segment, so such a lookup reads one array slot and
  // the answer instead of the bucket, the segment's slot and the answer (misses in a row)
  private final NativeFrame[] byBucket;
  // estimate of the heap this page holds once every segment was looked up
  private final long heapBytes;
  // of which what consumers may keep with the page's names (SharedUtf8.keep)
  private final long keptBytes;
  // return pads (symbfile): sorted addresses, each with frames padFrom[i] until padFrom[i + 1],
  // outermost first; null on pages without pads
  private final long[] padAddr;
  private final int[] padFrom;
  private final SharedUtf8[] padName;
  private final SharedUtf8[] padFile;
  private final int[] padLine;

  /** The page {@code built} decoded and indexed, with its unwind section as stored (or null). */
  NativePage(NativeSegmentIndex built, byte[] unwindBytes) {
    firstKey = built.firstKey;
    strings = built.strings;
    fStart = built.fStart;
    fName = built.fName;
    fMulti = built.fMulti;
    pAddr = built.pAddr;
    pName = built.pName;
    pMulti = built.pMulti;
    lStart = built.lStart;
    lLine = built.lLine;
    lFile = built.lFile;
    sStart = built.sStart;
    nSeg = built.nSeg;
    segOff = built.segOff;
    bucket = built.bucket;
    bucketShift = built.bucketShift;
    seg = built.seg;
    dense = built.dense;
    segRef = built.segRef;
    rangeObj = built.rangeObj;
    answers = built.answers;
    byBucket = built.byBucket;
    heapBytes = built.heapBytes;
    keptBytes = built.keptBytes;
    padAddr = built.padAddr;
    padFrom = built.padFrom;
    padName = built.padName;
    padFile = built.padFile;
    padLine = built.padLine;
    this.unwindBytes = unwindBytes;
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

  /**
   * The part of {@link #heapBytes} allowed for what consumers keep with the page's names
   * ({@link SharedUtf8#keep}): on a page without the answer memo, whose answers carry the names
   * themselves; 0 on a memoising page, whose answers carry Strings.
   */
  long keptBytes() {
    return keptBytes;
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
      return NativePageDecoder.decode(bytes, memo);
    } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException e) {
      throw new CorruptTableException("native page does not decode: " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------- unwind records

  /** The unwind section as stored (null: none), decoded on first use. */
  private final byte[] unwindBytes;

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

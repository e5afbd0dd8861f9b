package io.symbolicate.symbols.nativecode;

import static io.symbolicate.symbols.nativecode.NativeSegmentIndex.R;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes a native page's bytes: the header and its bounds, the body's decompression (stored, our
 * LZ or deflate), and the records of the body (strings, PUBLICs, FUNCs with their line records
 * and inline ranges, return pads, the unwind section), which {@link NativeSegmentIndex} then
 * indexes for {@link NativePage}'s lookups.
 */
final class NativePageDecoder {
  private NativePageDecoder() {}

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

  /**
   * Decodes a page written by {@link NativeTableBuilder} and builds its segment index; throws
   * CorruptTableException, or an index or size exception that {@link NativePage#decode} turns
   * into one.
   */
  static NativePage decode(byte[] bytes, boolean memo) {
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
    NativeSegmentIndex p =
        new NativeSegmentIndex(firstKey, strings, nFuncs, nPubs, nLines, nRanges);
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
      decodeReturnPads(p, r, firstKey, fileIds, strings, nameBase, nNames);
    }
    p.buildSegments(lineFrom, rangeFrom, lHigh, rHigh, memo);
    byte[] unwindBytes = null;
    if (r.position() < raw.length) {
      unwindBytes = Arrays.copyOfRange(raw, r.position(), raw.length);
    }
    return new NativePage(p, unwindBytes);
  }

  /** The return-pad section that follows the FUNCs on pages of symbfile tables (PageWriter#addReturnPad). */
  private static void decodeReturnPads(
      NativeSegmentIndex p,
      ByteReader r,
      long firstKey,
      int[] fileIds,
      SharedUtf8[] strs,
      int nameBase,
      int nNames) {
    int n = r.readCount();
    p.padAddr = new long[n];
    p.padFrom = new int[n + 1];
    int cap = Math.max(4, n);
    SharedUtf8[] names = new SharedUtf8[cap];
    SharedUtf8[] fileOf = new SharedUtf8[cap];
    int[] lines = new int[cap];
    int k = 0;
    long prev = firstKey;
    for (int i = 0; i < n; i++) {
      prev += r.readVar();
      if (i > 0 && !Unsigned.lt(p.padAddr[i - 1], prev)) {
        throw new CorruptTableException("return pads out of order");
      }
      p.padAddr[i] = prev;
      p.padFrom[i] = k;
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
    p.padFrom[n] = k;
    p.padName = Arrays.copyOf(names, k);
    p.padFile = Arrays.copyOf(fileOf, k);
    p.padLine = Arrays.copyOf(lines, k);
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
}

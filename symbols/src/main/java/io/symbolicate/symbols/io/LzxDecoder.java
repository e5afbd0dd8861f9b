package io.symbolicate.symbols.io;

import java.util.Arrays;

/**
 * The LZX decoder of a cabinet's LZX folder ({@code typeCompress} 3), written from the format's
 * published description (the cabinet format's LZX section and [MS-PATCH]'s LZX DELTA, of which
 * cabinet LZX is the subset with windows of 2^15 to 2^21 bytes and no reference data).
 *
 * <p>The folder's data blocks are one bit stream of 16-bit little-endian words read from the most
 * significant bit. It starts with the E8 translation header, then holds blocks (verbatim, aligned
 * offset or uncompressed), each with its own Huffman trees whose code lengths are sent as deltas
 * from the previous block's. Output comes in frames of 32 KiB; after each frame the stream is
 * realigned to a 16-bit word, and the frame's copy (not the window) has its {@code E8} call
 * operands turned back from absolute to relative. A match may run past its frame's end (into the
 * next frame) but not past its block's, nor reach before the start of the output.
 *
 * <p>Hostile input: trees are checked (an over-full code is refused; an unused code is refused
 * when read), a run of code lengths past the tree's end is refused, a stream that ends early reads
 * at most a few words of zeros before it is refused, and nothing is sized from a claimed count:
 * the window is the smaller of the folder's claim and its blocks' total output.
 */
final class LzxDecoder {
  /** The folder's compressed bytes, block after block; -1 after the last. */
  interface Input {
    int read();
  }

  static final int FRAME = 32768;
  private static final int MIN_MATCH = 2;
  private static final int NUM_CHARS = 256;
  private static final int PRIMARY_LENGTHS = 7;
  private static final int SECONDARY_LENGTHS = 249;
  private static final int PRETREE = 20;
  private static final int ALIGNED = 8;
  private static final int MAX_CODE = 16;

  /** Zero bytes read past the end of the input before the stream is refused. */
  private static final int MAX_PADDING = 16;

  private static final int VERBATIM = 1;
  private static final int ALIGNED_OFFSET = 2;
  private static final int UNCOMPRESSED = 3;

  static final int[] EXTRA_BITS = new int[52];
  static final int[] POSITION_BASE = new int[52];

  static {
    int j = 0;
    for (int i = 0; i < 52; i += 2) {
      EXTRA_BITS[i] = j;
      EXTRA_BITS[i + 1] = j;
      if (i != 0 && j < 17) {
        j++;
      }
    }
    int base = 0;
    for (int i = 0; i < 52; i++) {
      POSITION_BASE[i] = base;
      base += 1 << EXTRA_BITS[i];
    }
  }

  /** Position slots for window sizes 2^15 .. 2^21. */
  static int positionSlots(int windowBits) {
    return switch (windowBits) {
      case 15 -> 30;
      case 16 -> 32;
      case 17 -> 34;
      case 18 -> 36;
      case 19 -> 38;
      case 20 -> 42;
      case 21 -> 50;
      default ->
          throw new CabFormatException(
              "LZX window of 2^" + windowBits + " bytes (cabinets use 2^15 to 2^21)");
    };
  }

  private final Input in;
  private final byte[] window;
  private final int mask;
  private final int windowSize;
  private final int mainSymbols;

  private int bitBuf;
  private int bitsLeft;
  private int padding;
  private int pushHi = -1;
  private int pushLo = -1;

  private long pos; // bytes decoded into the window so far
  private long frameStart;
  private int frame;
  private boolean headerRead;
  private int intelSize;
  private int r0 = 1;
  private int r1 = 1;
  private int r2 = 1;
  private int blockType;
  private int blockLength;
  private int blockRemaining;

  private final int[] mainLens;
  private final int[] lengthLens = new int[SECONDARY_LENGTHS];
  private final int[] alignedLens = new int[ALIGNED];
  private final int[] preLens = new int[PRETREE];
  private final Huffman main = new Huffman();
  private final Huffman length = new Huffman();
  private final Huffman aligned = new Huffman();
  private final Huffman pre = new Huffman();

  /**
   * A decoder for a folder whose blocks hold {@code totalOutput} bytes, with the folder's window
   * of 2^{@code windowBits} (the window allocated is no larger than the output needs).
   */
  LzxDecoder(Input in, int windowBits, long totalOutput) {
    this.in = in;
    this.mainSymbols = NUM_CHARS + positionSlots(windowBits) * 8;
    this.mainLens = new int[mainSymbols];
    int size = FRAME;
    while (size < (1 << windowBits) && size < totalOutput) {
      size <<= 1;
    }
    this.windowSize = 1 << windowBits;
    this.window = new byte[size];
    this.mask = size - 1;
  }

  /** Decodes the next frame ({@code size} bytes, 32 KiB but for the last) into {@code out}. */
  void decodeFrame(byte[] out, int size) {
    if (!headerRead) {
      headerRead = true;
      if (bits(1) == 1) {
        int hi = bits(16);
        intelSize = (hi << 16) | bits(16);
      }
    }
    long frameEnd = frameStart + size;
    while (pos < frameEnd) {
      if (blockRemaining == 0) {
        readBlockHeader();
      }
      if (blockType == UNCOMPRESSED) {
        int n = (int) Math.min(blockRemaining, frameEnd - pos);
        for (int i = 0; i < n; i++) {
          window[(int) (pos++ & mask)] = (byte) rawByte();
        }
        blockRemaining -= n;
        if (blockRemaining == 0 && (blockLength & 1) == 1) {
          rawByte(); // the pad after an odd-sized uncompressed block
        }
      } else {
        decodeElement();
      }
    }
    for (int i = 0; i < size; i++) {
      out[i] = window[(int) ((frameStart + i) & mask)];
    }
    if (intelSize != 0 && frame < 32768 && size > 10) {
      untranslateE8(out, size, (int) frameStart, intelSize);
    }
    if (bitsLeft > 0) {
      ensure(16);
      drop(bitsLeft & 15);
    }
    frameStart = frameEnd;
    frame++;
  }

  /** Turns the absolute {@code E8} call targets the compressor wrote back into relative ones. */
  static void untranslateE8(byte[] data, int size, int offset, int fileSize) {
    int end = size - 10;
    int cur = offset;
    int i = 0;
    while (i < end) {
      if ((data[i++] & 0xff) != 0xe8) {
        cur++;
        continue;
      }
      int abs =
          (data[i] & 0xff)
              | (data[i + 1] & 0xff) << 8
              | (data[i + 2] & 0xff) << 16
              | (data[i + 3] & 0xff) << 24;
      if (abs >= -cur && abs < fileSize) {
        int rel = abs >= 0 ? abs - cur : abs + fileSize;
        data[i] = (byte) rel;
        data[i + 1] = (byte) (rel >>> 8);
        data[i + 2] = (byte) (rel >>> 16);
        data[i + 3] = (byte) (rel >>> 24);
      }
      i += 4;
      cur += 5;
    }
  }

  private void readBlockHeader() {
    if (blockType == UNCOMPRESSED) {
      // an uncompressed block leaves the stream on a byte: the next header starts on a word
      bitBuf = 0;
      bitsLeft = 0;
    }
    blockType = bits(3);
    int hi = bits(16);
    blockLength = (hi << 8) | bits(8);
    blockRemaining = blockLength;
    switch (blockType) {
      case ALIGNED_OFFSET -> {
        for (int i = 0; i < ALIGNED; i++) {
          alignedLens[i] = bits(3);
        }
        aligned.build(alignedLens, ALIGNED, "aligned offset");
        readMainAndLengthTrees();
      }
      case VERBATIM -> readMainAndLengthTrees();
      case UNCOMPRESSED -> startUncompressed();
      default -> throw new CabFormatException("LZX block type " + blockType + " is not one");
    }
  }

  private void readMainAndLengthTrees() {
    readLengths(mainLens, 0, NUM_CHARS);
    readLengths(mainLens, NUM_CHARS, mainSymbols);
    main.build(mainLens, mainSymbols, "main");
    readLengths(lengthLens, 0, SECONDARY_LENGTHS);
    length.build(lengthLens, SECONDARY_LENGTHS, "length");
  }

  /** Code lengths [first, last), as deltas from the previous ones, through a pretree. */
  private void readLengths(int[] lens, int first, int last) {
    for (int i = 0; i < PRETREE; i++) {
      preLens[i] = bits(4);
    }
    pre.build(preLens, PRETREE, "pretree");
    int x = first;
    while (x < last) {
      int z = pre.decode(this);
      if (z == 17 || z == 18) {
        int run = z == 17 ? 4 + bits(4) : 20 + bits(5);
        checkRun(x, run, last);
        for (int i = 0; i < run; i++) {
          lens[x++] = 0;
        }
      } else if (z == 19) {
        int run = 4 + bits(1);
        checkRun(x, run, last);
        int d = pre.decode(this);
        if (d > 16) {
          throw new CabFormatException("LZX pretree: a run of " + d + " inside a same-length run");
        }
        int v = (lens[x] - d + 17) % 17;
        for (int i = 0; i < run; i++) {
          lens[x++] = v;
        }
      } else {
        lens[x] = (lens[x] - z + 17) % 17;
        x++;
      }
    }
  }

  private static void checkRun(int x, int run, int last) {
    if (x + run > last) {
      throw new CabFormatException(
          "LZX code lengths: a run of " + run + " at " + x + " passes the tree's end " + last);
    }
  }

  private void startUncompressed() {
    // 1 to 16 bits of padding up to the next word, then bytes
    if (bitsLeft == 0) {
      rawByte();
      rawByte();
    } else if (bitsLeft > 16) {
      int w = (bitBuf << (bitsLeft - 16)) >>> 16;
      pushLo = w & 0xff;
      pushHi = w >>> 8;
    }
    bitBuf = 0;
    bitsLeft = 0;
    r0 = rawInt();
    r1 = rawInt();
    r2 = rawInt();
  }

  private int rawInt() {
    return rawByte() | rawByte() << 8 | rawByte() << 16 | rawByte() << 24;
  }

  private void decodeElement() {
    int sym = main.decode(this);
    if (sym < NUM_CHARS) {
      window[(int) (pos++ & mask)] = (byte) sym;
      blockRemaining--;
      return;
    }
    sym -= NUM_CHARS;
    int len = sym & PRIMARY_LENGTHS;
    if (len == PRIMARY_LENGTHS) {
      len += length.decode(this);
    }
    len += MIN_MATCH;
    int slot = sym >>> 3;
    int offset;
    switch (slot) {
      case 0 -> offset = r0;
      case 1 -> {
        offset = r1;
        r1 = r0;
        r0 = offset;
      }
      case 2 -> {
        offset = r2;
        r2 = r0;
        r0 = offset;
      }
      default -> {
        int extra = EXTRA_BITS[slot];
        offset = POSITION_BASE[slot] - 2;
        if (blockType == ALIGNED_OFFSET && extra >= 3) {
          offset += bits(extra - 3) << 3;
          offset += aligned.decode(this);
        } else {
          offset += bits(extra);
        }
        r2 = r1;
        r1 = r0;
        r0 = offset;
      }
    }
    if (len > blockRemaining) {
      throw new CabFormatException(
          "LZX match of " + len + " bytes runs past its block's end (" + blockRemaining + " left)");
    }
    if (offset <= 0 || offset > pos || offset > windowSize || offset > window.length) {
      throw new CabFormatException(
          "LZX match at " + pos + " reaches back " + offset + " bytes, before the data's start");
    }
    byte[] w = window;
    int m = mask;
    long p = pos;
    for (int i = 0; i < len; i++, p++) {
      w[(int) (p & m)] = w[(int) ((p - offset) & m)];
    }
    pos = p;
    blockRemaining -= len;
  }

  // --- bits: 16-bit little-endian words, most significant bit first

  private int nextByte() {
    if (pushLo >= 0) {
      int b = pushLo;
      pushLo = pushHi;
      pushHi = -1;
      return b;
    }
    int b = in.read();
    if (b < 0) {
      if (++padding > MAX_PADDING) {
        throw new CabFormatException("LZX data runs past the end of its folder's blocks");
      }
      return 0;
    }
    return b;
  }

  private int rawByte() {
    return nextByte();
  }

  void ensure(int n) {
    while (bitsLeft < n) {
      int lo = nextByte();
      int hi = nextByte();
      bitBuf |= ((hi << 8) | lo) << (16 - bitsLeft);
      bitsLeft += 16;
    }
  }

  int peek(int n) {
    return bitBuf >>> (32 - n);
  }

  void drop(int n) {
    bitBuf <<= n;
    bitsLeft -= n;
  }

  private int bits(int n) {
    if (n == 0) {
      return 0;
    }
    ensure(n);
    int v = peek(n);
    drop(n);
    return v;
  }

  /** A canonical Huffman code, decoded through one table indexed by its longest code's bits. */
  static final class Huffman {
    private int[] table = new int[0];
    private int maxLen;
    private String name;

    void build(int[] lens, int n, String name) {
      this.name = name;
      int[] count = new int[MAX_CODE + 1];
      int max = 0;
      for (int i = 0; i < n; i++) {
        count[lens[i]]++;
        max = Math.max(max, lens[i]);
      }
      maxLen = max;
      if (max == 0) {
        return; // an empty tree is fine until a symbol is read from it
      }
      long room = 1;
      for (int len = 1; len <= max; len++) {
        room = (room << 1) - count[len];
        if (room < 0) {
          throw new CabFormatException("LZX " + name + " tree: more codes than its lengths allow");
        }
      }
      int size = 1 << max;
      if (table.length < size) {
        table = new int[size];
      }
      Arrays.fill(table, 0, size, -1);
      int code = 0;
      for (int len = 1; len <= max; len++) {
        for (int s = 0; s < n; s++) {
          if (lens[s] == len) {
            int shift = max - len;
            int from = code << shift;
            int entry = (s << 5) | len;
            for (int k = from; k < from + (1 << shift); k++) {
              table[k] = entry;
            }
            code++;
          }
        }
        code <<= 1;
      }
    }

    int decode(LzxDecoder d) {
      if (maxLen == 0) {
        throw new CabFormatException("LZX " + name + " tree is empty but a symbol is read from it");
      }
      d.ensure(maxLen);
      int e = table[d.peek(maxLen)];
      if (e < 0) {
        throw new CabFormatException("LZX " + name + " tree: a code that its lengths leave unused");
      }
      d.drop(e & 31);
      return e >>> 5;
    }
  }
}

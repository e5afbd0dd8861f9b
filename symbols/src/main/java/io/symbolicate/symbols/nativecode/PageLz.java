package io.symbolicate.symbols.nativecode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A small LZ77 codec for page bodies (our own, in the spirit of LZ4): greedy matches found
 * through a hash of 4-byte sequences in a 64 KB window. Much faster than Deflater; page bodies
 * are dominated by long, repetitive C++ names, which it still shrinks several-fold.
 *
 * <p>Sequence: token (literal count high nibble, match length - 4 low nibble, 15 = more in a
 * varint), literals, 2-byte little-endian offset, varint for the rest of the match length. The
 * last sequence has literals only.
 */
final class PageLz {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int HASH_BITS = 14;
  private static final int MIN_MATCH = 4;
  private static final int WINDOW = 65535;
  private static final int TAIL = 12; // the last bytes are always literals (keeps reads in bounds)

  private final int[] table = new int[1 << HASH_BITS];

  /**
   * Most bytes {@link #compress} writes for {@code len} input bytes: a literal run costs its
   * bytes, a token and a varint of under a byte per 127 literals; a match of m >= 4 bytes costs
   * at most m (token, offset, varint).
   */
  static int maxCompressed(int len) {
    return len + (len >>> 6) + 16;
  }

  void compress(byte[] src, int len, ByteWriter out) {
    compress(src, len, out, len, len);
  }

  /**
   * As {@link #compress(byte[], int, ByteWriter)}, but no match starts in {@code [litFrom, litTo)}:
   * a region known to compress badly (a page's FUNC bodies: packed varints, 0.83 of their size
   * at best) goes out as literals without a hash probe per byte. Decoded as any other sequence.
   */
  void compress(byte[] src, int len, ByteWriter out, int litFrom, int litTo) {
    Arrays.fill(table, 0);
    // output goes straight into out's array, sized once for the worst case: a bounds check per
    // byte written cost more than the match search
    byte[] dst = out.reserve(maxCompressed(len));
    int op = out.size();
    int anchor = 0;
    int since = 0; // where the skipping through literals started: the anchor, or the region's end
    int i = 0;
    int limit = len - TAIL;
    int[] t = table;
    while (i < limit) {
      int seq = (int) INT.get(src, i);
      int h = (seq * -1640531535) >>> (32 - HASH_BITS);
      int ref = t[h] - 1;
      t[h] = i + 1;
      if (ref < 0 || i - ref > WINDOW || (int) INT.get(src, ref) != seq) {
        i += 1 + ((i - since) >>> 3); // skip faster through incompressible data
        if (i >= litFrom && i < litTo) {
          i = since = litTo; // and the skipping starts over after the region
        }
        continue;
      }
      int m = MIN_MATCH;
      int max = limit - i;
      if (m + 8 <= max) {
        long diff = (long) LONG.get(src, ref + m) ^ (long) LONG.get(src, i + m);
        if (diff != 0) {
          m += Long.numberOfTrailingZeros(diff) >>> 3; // little-endian: first differing byte
        } else {
          // a long match (names repeat whole): the vectorized compare of the rest
          int rest = Arrays.mismatch(src, ref + m + 8, ref + max, src, i + m + 8, i + max);
          m = rest < 0 ? max : m + 8 + rest;
        }
      } else {
        while (m < max && src[ref + m] == src[i + m]) {
          m++;
        }
      }
      op = sequence(src, anchor, i - anchor, i - ref, m, dst, op);
      i += m;
      anchor = i;
      since = i;
      if (i >= litFrom && i < litTo) {
        i = since = litTo; // the literals from the anchor on include the region
      }
      if (i < limit) {
        int s2 = (int) INT.get(src, i - 2);
        t[(s2 * -1640531535) >>> (32 - HASH_BITS)] = i - 1;
      }
    }
    int lit = len - anchor;
    dst[op++] = (byte) (Math.min(lit, 15) << 4);
    if (lit >= 15) {
      op = putVar(dst, op, lit - 15);
    }
    System.arraycopy(src, anchor, dst, op, lit);
    out.setSize(op + lit);
  }

  private static int sequence(
      byte[] src, int from, int lit, int offset, int match, byte[] dst, int op) {
    int ml = match - MIN_MATCH;
    dst[op++] = (byte) ((Math.min(lit, 15) << 4) | Math.min(ml, 15));
    if (lit >= 15) {
      op = putVar(dst, op, lit - 15);
    }
    System.arraycopy(src, from, dst, op, lit);
    op += lit;
    dst[op++] = (byte) offset;
    dst[op++] = (byte) (offset >>> 8);
    if (ml >= 15) {
      op = putVar(dst, op, ml - 15);
    }
    return op;
  }

  /** Unsigned LEB128 of a non-negative int, as {@link ByteWriter#writeVar} writes it. */
  private static int putVar(byte[] dst, int op, int v) {
    while ((v & ~0x7F) != 0) {
      dst[op++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    dst[op++] = (byte) v;
    return op;
  }

  /**
   * Output allocated up front, at most: {@code dstLen} is what the page claims, so the buffer
   * grows with what the input really produces beyond this (a corrupt page fails before it grows).
   */
  static final int INITIAL_OUTPUT = 1 << 16;

  /** ... or this many times the compressed length, when larger (real pages need no regrowth). */
  static final int INITIAL_EXPANSION = 16;

  /** The first output buffer for a body of {@code srcLen} bytes claiming {@code dstLen}. */
  static int initialOutput(int srcLen, int dstLen) {
    return (int) Math.min(dstLen, Math.max(INITIAL_OUTPUT, (long) INITIAL_EXPANSION * srcLen));
  }

  /** {@code buf} grown to hold {@code need} bytes, doubling, never past {@code max}. */
  static byte[] grow(byte[] buf, int need, int max) {
    return need <= buf.length
        ? buf
        : Arrays.copyOf(buf, (int) Math.min(max, Math.max(need, 2L * buf.length)));
  }

  /** Decompresses exactly {@code dstLen} bytes; throws CorruptTableException on bad input. */
  static byte[] decompress(byte[] src, int off, int srcEnd, int dstLen) {
    byte[] dst = new byte[initialOutput(srcEnd - off, dstLen)];
    ByteReader r = new ByteReader(src, off, srcEnd - off);
    int op = 0;
    while (true) {
      int token = r.readByte();
      int lit = token >>> 4;
      if (lit == 15) {
        lit += r.readInt();
      }
      int ip = r.position();
      if (lit > dstLen - op || lit > srcEnd - ip) {
        throw new CorruptTableException("page literals out of bounds");
      }
      dst = grow(dst, op + lit, dstLen);
      System.arraycopy(src, ip, dst, op, lit);
      op += lit;
      r = new ByteReader(src, ip + lit, srcEnd - ip - lit);
      if (op == dstLen) {
        return dst.length == dstLen ? dst : Arrays.copyOf(dst, dstLen);
      }
      int offset = r.readByte() | (r.readByte() << 8);
      int ml = token & 15;
      if (ml == 15) {
        ml += r.readInt();
      }
      ml += MIN_MATCH;
      if (offset == 0 || offset > op || ml > dstLen - op) {
        throw new CorruptTableException("page match out of bounds");
      }
      dst = grow(dst, op + ml, dstLen);
      int from = op - offset;
      if (offset >= ml) {
        System.arraycopy(dst, from, dst, op, ml);
      } else {
        for (int k = 0; k < ml; k++) {
          dst[op + k] = dst[from + k];
        }
      }
      op += ml;
    }
  }
}

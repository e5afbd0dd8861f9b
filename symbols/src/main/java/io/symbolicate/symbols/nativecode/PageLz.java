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

  void compress(byte[] src, int len, ByteWriter out) {
    Arrays.fill(table, 0);
    int anchor = 0;
    int i = 0;
    int limit = len - TAIL;
    while (i < limit) {
      int seq = (int) INT.get(src, i);
      int h = (seq * -1640531535) >>> (32 - HASH_BITS);
      int ref = table[h] - 1;
      table[h] = i + 1;
      if (ref < 0 || i - ref > WINDOW || (int) INT.get(src, ref) != seq) {
        i += 1 + ((i - anchor) >>> 3); // skip faster through incompressible data
        continue;
      }
      int m = MIN_MATCH;
      int max = len - TAIL - i;
      while (m + 8 <= max && (long) LONG.get(src, ref + m) == (long) LONG.get(src, i + m)) {
        m += 8;
      }
      while (m < max && src[ref + m] == src[i + m]) {
        m++;
      }
      sequence(src, anchor, i - anchor, i - ref, m, out);
      i += m;
      anchor = i;
      if (i < limit) {
        int s2 = (int) INT.get(src, i - 2);
        table[(s2 * -1640531535) >>> (32 - HASH_BITS)] = i - 1;
      }
    }
    int lit = len - anchor;
    out.writeByte(Math.min(lit, 15) << 4);
    if (lit >= 15) {
      out.writeVar(lit - 15);
    }
    out.writeBytes(src, anchor, lit);
  }

  private static void sequence(byte[] src, int from, int lit, int offset, int match,
      ByteWriter out) {
    int ml = match - MIN_MATCH;
    out.writeByte((Math.min(lit, 15) << 4) | Math.min(ml, 15));
    if (lit >= 15) {
      out.writeVar(lit - 15);
    }
    out.writeBytes(src, from, lit);
    out.writeByte(offset & 0xFF);
    out.writeByte(offset >>> 8);
    if (ml >= 15) {
      out.writeVar(ml - 15);
    }
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
    return need <= buf.length ? buf
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

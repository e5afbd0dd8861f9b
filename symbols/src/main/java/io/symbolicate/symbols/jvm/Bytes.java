package io.symbolicate.symbols.jvm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Growable byte buffer with LEB128 varints, and the matching reader. */
final class Bytes {
  private Bytes() {}

  static final class Writer {
    private byte[] b = new byte[256];
    private int n;

    void u8(int v) {
      ensure(1);
      b[n++] = (byte) v;
    }

    void varint(long v) {
      ensure(10);
      while ((v & ~0x7FL) != 0) {
        b[n++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      b[n++] = (byte) v;
    }

    void i64(long v) {
      ensure(8);
      for (int i = 7; i >= 0; i--) {
        b[n++] = (byte) (v >>> (8 * i));
      }
    }

    void bytes(byte[] src) {
      varint(src.length);
      ensure(src.length);
      System.arraycopy(src, 0, b, n, src.length);
      n += src.length;
    }

    void string(String s) {
      bytes(s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8));
    }

    int size() {
      return n;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(b, n);
    }

    private void ensure(int extra) {
      if (n + extra > b.length) {
        b = Arrays.copyOf(b, Math.max(b.length * 2, n + extra));
      }
    }
  }

  static final class Reader {
    private final byte[] b;
    private int p;

    Reader(byte[] b) {
      this.b = b;
    }

    int u8() {
      check(1);
      return b[p++] & 0xff;
    }

    long varlong() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        check(1);
        byte x = b[p++];
        v |= (long) (x & 0x7F) << shift;
        if (x >= 0) {
          return v;
        }
      }
      throw new MappingException("corrupt table: varint too long at byte " + p);
    }

    int varint() {
      long v = varlong();
      if (v < 0 || v > Integer.MAX_VALUE) {
        throw new MappingException("corrupt table: value out of range at byte " + p);
      }
      return (int) v;
    }

    /** A count that must be plausible for the bytes left (each item takes at least one byte). */
    int count() {
      int v = varint();
      // checked below against the bytes left
      if (v > b.length - p) {
        throw new MappingException("corrupt table: count " + v + " exceeds the data at byte " + p);
      }
      return v;
    }

    long i64() {
      check(8);
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (b[p++] & 0xff);
      }
      return v;
    }

    String string() {
      int len = count();
      check(len);
      String s = new String(b, p, len, StandardCharsets.UTF_8);
      p += len;
      return s;
    }

    byte[] raw(int len) {
      check(len);
      byte[] out = Arrays.copyOfRange(b, p, p + len);
      p += len;
      return out;
    }

    boolean atEnd() {
      return p == b.length;
    }

    private void check(int k) {
      if (p + k > b.length) {
        throw new MappingException("corrupt table: truncated at byte " + p);
      }
    }
  }
}

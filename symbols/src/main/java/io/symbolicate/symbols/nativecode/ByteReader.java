package io.symbolicate.symbols.nativecode;

import java.nio.charset.StandardCharsets;

/** Reads what {@link ByteWriter} wrote; bounds errors surface as {@link CorruptTableException}. */
final class ByteReader {
  private final byte[] buf;
  private int pos;
  private final int end;

  ByteReader(byte[] buf) {
    this(buf, 0, buf.length);
  }

  ByteReader(byte[] buf, int off, int len) {
    this.buf = buf;
    this.pos = off;
    this.end = off + len;
  }

  int position() {
    return pos;
  }

  boolean atEnd() {
    return pos >= end;
  }

  int readByte() {
    if (pos >= end) {
      throw new CorruptTableException("unexpected end of data");
    }
    return buf[pos++] & 0xFF;
  }

  long readVar() {
    long v = 0;
    int shift = 0;
    while (true) {
      if (pos >= end) {
        throw new CorruptTableException("unexpected end of data in varint");
      }
      byte b = buf[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
      shift += 7;
      if (shift > 63) {
        throw new CorruptTableException("varint too long");
      }
    }
  }

  int readInt() {
    long v = readVar();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new CorruptTableException("value out of int range: " + v);
    }
    return (int) v;
  }

  long readSigned() {
    long v = readVar();
    return (v >>> 1) ^ -(v & 1);
  }

  /** A count that must fit in what is left of the buffer (each item takes at least one byte). */
  int readCount() {
    int n = readInt();
    if (n > end - pos) {
      throw new CorruptTableException("count " + n + " exceeds remaining bytes");
    }
    return n;
  }

  int skipBlob() {
    int len = readCount();
    int at = pos;
    pos += len;
    return at;
  }

  byte[] readBlob() {
    int len = readCount();
    byte[] out = new byte[len];
    System.arraycopy(buf, pos, out, 0, len);
    pos += len;
    return out;
  }

  String readString() {
    int len = readCount();
    String s = new String(buf, pos, len, StandardCharsets.UTF_8);
    pos += len;
    return s;
  }

  /** A string of a page as its UTF-8 bytes (see {@link SharedUtf8}). */
  SharedUtf8 readUtf8() {
    int len = readCount();
    SharedUtf8 s = SharedUtf8.of(buf, pos, len);
    pos += len;
    return s;
  }

  byte[] array() {
    return buf;
  }
}

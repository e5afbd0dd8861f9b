package io.symbolicate.symbols.js;

import java.nio.charset.StandardCharsets;

/** Reader for {@link ByteSink}'s encoding; throws {@link IllegalArgumentException} on corrupt data. */
final class ByteSource {
  private final byte[] buf;
  private int pos;

  ByteSource(byte[] buf) {
    this.buf = buf;
  }

  int read() {
    if (pos >= buf.length) {
      throw new IllegalArgumentException("truncated js table data");
    }
    return buf[pos++] & 0xFF;
  }

  long readVar() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = read();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("corrupt varint in js table data");
  }

  int readVarInt() {
    long v = readVar();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("varint out of int range in js table data");
    }
    return (int) v;
  }

  /** A count of following elements, each at least one byte: bounded by what remains. */
  int readCount() {
    int n = readVarInt();
    if (n > buf.length - pos) {
      throw new IllegalArgumentException("corrupt js table data: count " + n + " exceeds the data");
    }
    return n;
  }

  long readZigZag() {
    long v = readVar();
    return (v >>> 1) ^ -(v & 1);
  }

  long readLong() {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | read();
    }
    return v;
  }

  String readString() {
    int n = readVarInt();
    if (n == 0) {
      return null;
    }
    n--;
    if (n > buf.length - pos) {
      throw new IllegalArgumentException("truncated string in js table data");
    }
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  int position() {
    return pos;
  }

  void seek(int p) {
    pos = p;
  }

  boolean atEnd() {
    return pos == buf.length;
  }
}

package io.symbolicate.symbols.js;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Growable little writer for the table encoding: LEB128 varints, zigzag, UTF-8 strings. */
final class ByteSink {
  private byte[] buf;
  private int len;

  ByteSink(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  int size() {
    return len;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(len + extra, buf.length * 2));
    }
  }

  void write(int b) {
    ensure(1);
    buf[len++] = (byte) b;
  }

  void writeBytes(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, buf, len, b.length);
    len += b.length;
  }

  void writeVar(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[len++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[len++] = (byte) v;
  }

  void writeZigZag(long v) {
    writeVar((v << 1) ^ (v >> 63));
  }

  void writeLong(long v) {
    ensure(8);
    for (int i = 7; i >= 0; i--) {
      buf[len++] = (byte) (v >>> (i * 8));
    }
  }

  /** Length+1 then UTF-8 bytes; length 0 encodes null. */
  void writeString(String s) {
    if (s == null) {
      writeVar(0);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    writeVar(b.length + 1L);
    writeBytes(b);
  }
}

package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/** Growable byte buffer with LEB128 varints, used to encode pages and function records. */
final class ByteWriter {
  private byte[] buf;
  private int size;

  ByteWriter(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  int size() {
    return size;
  }

  byte[] array() {
    return buf;
  }

  void reset() {
    size = 0;
  }

  private void ensure(int extra) {
    if (size + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
    }
  }

  /**
   * Room for {@code extra} more bytes; returns the array to write them into from {@link #size},
   * for a writer that fills it directly and then calls {@link #setSize}.
   */
  byte[] reserve(int extra) {
    ensure(extra);
    return buf;
  }

  /** After writing into {@link #reserve}'s array: the bytes now in use. */
  void setSize(int n) {
    if (n < 0 || n > buf.length) {
      throw new IllegalArgumentException("size " + n + " outside the buffer of " + buf.length);
    }
    size = n;
  }

  void writeByte(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  /** Most bytes {@link #writeVar} writes. */
  static final int MAX_VAR = 10;

  /** Unsigned LEB128: at most 10 bytes for any 64-bit value. */
  void writeVar(long v) {
    ensure(MAX_VAR);
    size = putVar(buf, size, v);
  }

  /**
   * {@link #writeVar} into an array from {@link #reserve} at {@code p}; returns the offset after
   * it (for loops that write many values after one reserve).
   */
  static int putVar(byte[] b, int p, long v) {
    while ((v & ~0x7FL) != 0) {
      b[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[p++] = (byte) v;
    return p;
  }

  /** {@link #writeSigned} as {@link #putVar}. */
  static int putSigned(byte[] b, int p, long v) {
    return putVar(b, p, (v << 1) ^ (v >> 63));
  }

  /** Signed value (a difference of addresses, mod 2^64), zigzag-encoded. */
  void writeSigned(long v) {
    writeVar((v << 1) ^ (v >> 63));
  }

  void writeBytes(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, buf, size, len);
    size += len;
  }

  void writeBlob(byte[] src, int off, int len) {
    writeVar(len);
    writeBytes(src, off, len);
  }

  void writeTo(ByteWriter other) {
    other.writeBytes(buf, 0, size);
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }
}

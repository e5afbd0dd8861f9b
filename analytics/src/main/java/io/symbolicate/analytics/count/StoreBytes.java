package io.symbolicate.analytics.count;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The byte layouts of the aggregation's keys and values: big-endian longs and strings prefixed
 * by their UTF-8 length, so every prefix is unambiguous and RocksDB's byte order groups keys
 * by their leading fields.
 */
final class StoreBytes {
  private StoreBytes() {}

  static int size(byte[] utf8) {
    return 4 + utf8.length;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static void put(ByteBuffer b, byte[] utf8) {
    b.putInt(utf8.length).put(utf8);
  }

  /** A length-prefixed string; the length is checked against what is left, never trusted. */
  static String string(ByteBuffer b) {
    int n;
    try {
      n = b.getInt();
    } catch (BufferUnderflowException e) {
      throw new SerializationException("truncated record: no string length at " + b.position());
    }
    if (n < 0 || n > b.remaining()) {
      throw new SerializationException(
          "string of " + n + " bytes where " + b.remaining() + " are left");
    }
    String s = new String(b.array(), b.arrayOffset() + b.position(), n, StandardCharsets.UTF_8);
    b.position(b.position() + n);
    return s;
  }

  static long getLong(ByteBuffer b) {
    if (b.remaining() < 8) {
      throw new SerializationException(
          "truncated record: " + b.remaining() + " bytes left where a long was expected");
    }
    return b.getLong();
  }

  /** The smallest key greater than every key that starts with {@code prefix}. */
  static byte[] after(byte[] prefix) {
    byte[] next = prefix.clone();
    for (int i = next.length - 1; i >= 0; i--) {
      if (++next[i] != 0) {
        return next;
      }
    }
    throw new IllegalArgumentException("a prefix of 0xff bytes has no successor");
  }
}

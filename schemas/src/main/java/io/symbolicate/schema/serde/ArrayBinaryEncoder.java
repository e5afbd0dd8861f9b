package io.symbolicate.schema.serde;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.util.Utf8;

/**
 * Avro binary encoding straight into a growable byte array that is reused from record to record.
 * Avro's own path (a direct encoder over a {@code ByteArrayOutputStream}) takes the stream's lock
 * for every field, copies every string into a scratch buffer and then into the stream, and copies
 * the finished record twice; here each value is written once into the array and the record is
 * copied out once. Not thread-safe: one per thread.
 */
final class ArrayBinaryEncoder extends BinaryEncoder {
  /** A buffer grown past this for one large record is dropped afterwards instead of kept. */
  static final int KEEP_BYTES = 1 << 20;

  private byte[] buf = new byte[8192];
  private int pos;

  void reset() {
    if (buf.length > KEEP_BYTES) {
      buf = new byte[8192];
    }
    pos = 0;
  }

  /** Bytes written since the last reset. */
  byte[] toByteArray() {
    return Arrays.copyOf(buf, pos);
  }

  int position() {
    return pos;
  }

  private void ensure(int more) {
    if (buf.length - pos < more) {
      long need = (long) pos + more;
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("record too large to encode: " + need + " bytes");
      }
      buf =
          Arrays.copyOf(
              buf, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16, 2L * buf.length)));
    }
  }

  @Override
  public void writeBoolean(boolean b) {
    ensure(1);
    buf[pos++] = (byte) (b ? 1 : 0);
  }

  @Override
  public void writeInt(int n) {
    ensure(5);
    int v = (n << 1) ^ (n >> 31);
    while ((v & ~0x7F) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
  }

  @Override
  public void writeLong(long n) {
    ensure(10);
    long v = (n << 1) ^ (n >> 63);
    while ((v & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[pos++] = (byte) v;
  }

  @Override
  public void writeFloat(float f) {
    ensure(4);
    int bits = Float.floatToRawIntBits(f);
    for (int i = 0; i < 4; i++) {
      buf[pos++] = (byte) (bits >>> (8 * i));
    }
  }

  @Override
  public void writeDouble(double d) {
    ensure(8);
    long bits = Double.doubleToRawLongBits(d);
    for (int i = 0; i < 8; i++) {
      buf[pos++] = (byte) (bits >>> (8 * i));
    }
  }

  @Override
  public void writeFixed(byte[] bytes, int start, int len) {
    ensure(len);
    System.arraycopy(bytes, start, buf, pos, len);
    pos += len;
  }

  /** Strings up to this length go through the char scratch array; longer ones through the JDK. */
  static final int SHORT_CHARS = 16;

  private final char[] chars = new char[SHORT_CHARS];

  /**
   * A longer string (symbol names, paths) goes through the JDK's UTF-8 encoder, which checks an
   * all-ASCII one-byte string with an intrinsic and copies it in bulk: faster than narrowing chars
   * in Java loops, at the cost of one short-lived array. A short one (identifiers, enums as
   * strings) is copied out with {@code getChars} and narrowed here, where that array would cost
   * more than the loops; anything not ASCII is encoded by the JDK.
   */
  @Override
  public void writeString(String s) {
    int len = s.length();
    if (len <= SHORT_CHARS) {
      char[] c = chars;
      s.getChars(0, len, c, 0);
      int any = 0;
      for (int i = 0; i < len; i++) {
        any |= c[i];
      }
      if (any < 0x80) {
        writeInt(len);
        ensure(len);
        byte[] b = buf;
        int at = pos;
        for (int i = 0; i < len; i++) {
          b[at + i] = (byte) c[i];
        }
        pos = at + len;
        return;
      }
    }
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    writeInt(utf8.length);
    writeFixed(utf8, 0, utf8.length);
  }

  /**
   * A string already held as UTF-8 (a page's names, a chunk's source lines): its bytes, copied
   * once, as Avro's own path writes them.
   */
  @Override
  public void writeString(Utf8 utf8) {
    int len = utf8.getByteLength();
    writeInt(len);
    ensure(len);
    System.arraycopy(utf8.getBytes(), 0, buf, pos, len);
    pos += len;
  }

  @Override
  protected void writeZero() {
    ensure(1);
    buf[pos++] = 0;
  }

  @Override
  public int bytesBuffered() {
    return 0;
  }

  @Override
  public void flush() {
    // everything is in the array already
  }
}

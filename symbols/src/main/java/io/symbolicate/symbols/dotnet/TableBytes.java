package io.symbolicate.symbols.dotnet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Varints and strings of the .NET table's header and pages; the reader checks every length. */
final class TableBytes {
  private TableBytes() {}

  static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void u8(int v) {
      out.write(v);
    }

    void varint(long v) {
      while ((v & ~0x7fL) != 0) {
        out.write((int) ((v & 0x7f) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    void string(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      varint(b.length);
      out.write(b, 0, b.length);
    }

    byte[] toByteArray() {
      return out.toByteArray();
    }
  }

  static final class Reader {
    private final byte[] data;
    private int pos;

    Reader(byte[] data) {
      this.data = data;
    }

    int remaining() {
      return data.length - pos;
    }

    int u8() {
      if (pos >= data.length) {
        throw new PortablePdbException("table bytes truncated at " + pos);
      }
      return data[pos++] & 0xff;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = u8();
        v |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new PortablePdbException("table varint longer than 10 bytes at " + pos);
    }

    /** A varint that must be at most {@code max}. */
    int bounded(long max, String what) {
      long v = varint();
      if (v < 0 || v > max) {
        throw new PortablePdbException("table " + what + " " + v + " is over " + max);
      }
      return (int) v;
    }

    String string() {
      long n0 = varint(); // compared with what is left after the length itself
      if (n0 < 0 || n0 > remaining()) {
        throw new PortablePdbException(
            "table string of " + n0 + " bytes, " + remaining() + " left");
      }
      int n = (int) n0;
      String s = new String(data, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    boolean atEnd() {
      return pos == data.length;
    }
  }
}

package io.symbolicate.symbols.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A position in one section's bytes, reading forward within {@code [pos, end)}: every read is
 * checked against {@code end}, so a length or count a file claims can never read past its unit.
 * Reads the buffer with absolute gets (no view per read); one cursor is reused for many reads.
 */
final class Cursor {
  final String section;
  final ByteBuffer buf;
  int pos;
  int end;

  Cursor(String section, ByteBuffer buf) {
    this.section = section;
    this.buf = buf;
    this.end = buf.limit();
  }

  Cursor at(long position, long limit) throws DwarfException {
    if (position < 0 || limit > buf.limit() || position > limit) {
      throw new DwarfException(
          section
              + ": range "
              + position
              + ".."
              + limit
              + " outside its "
              + buf.limit()
              + " bytes");
    }
    pos = (int) position;
    end = (int) limit;
    return this;
  }

  int remaining() {
    return end - pos;
  }

  boolean atEnd() {
    return pos >= end;
  }

  private void need(long n) throws DwarfException {
    if (n < 0 || n > end - pos) {
      throw new DwarfException(
          section + ": " + n + " bytes at offset " + pos + " run past the end at " + end);
    }
  }

  void skip(long n) throws DwarfException {
    need(n);
    pos += (int) n;
  }

  int u8() throws DwarfException {
    need(1);
    return buf.get(pos++) & 0xff;
  }

  int u16() throws DwarfException {
    need(2);
    int v = buf.getShort(pos) & 0xffff;
    pos += 2;
    return v;
  }

  int u24() throws DwarfException {
    need(3);
    int a = buf.get(pos) & 0xff;
    int b = buf.get(pos + 1) & 0xff;
    int c = buf.get(pos + 2) & 0xff;
    pos += 3;
    return buf.order() == ByteOrder.LITTLE_ENDIAN ? a | b << 8 | c << 16 : a << 16 | b << 8 | c;
  }

  long u32() throws DwarfException {
    need(4);
    long v = buf.getInt(pos) & 0xffffffffL;
    pos += 4;
    return v;
  }

  long u64() throws DwarfException {
    need(8);
    long v = buf.getLong(pos);
    pos += 8;
    return v;
  }

  /** An unsigned value of {@code size} bytes (1, 2, 4 or 8): addresses and offsets. */
  long sized(int size) throws DwarfException {
    switch (size) {
      case 1:
        return u8();
      case 2:
        return u16();
      case 4:
        return u32();
      case 8:
        return u64();
      default:
        throw new DwarfException(section + ": unsupported field size " + size);
    }
  }

  long uleb() throws DwarfException {
    if (pos < end) {
      byte b = buf.get(pos);
      if (b >= 0) { // one byte: most abbreviation codes, forms and small values
        pos++;
        return b;
      }
    }
    return ulebLong();
  }

  private long ulebLong() throws DwarfException {
    long result = 0;
    int shift = 0;
    while (true) {
      int b = u8();
      if (shift < 64) {
        result |= (long) (b & 0x7f) << shift;
      }
      shift += 7;
      if ((b & 0x80) == 0) {
        return result;
      }
      if (shift > 70) {
        // values past 64 bits only come from garbage; skip the rest of the number
        while ((u8() & 0x80) != 0) {}
        return result;
      }
    }
  }

  long sleb() throws DwarfException {
    long result = 0;
    int shift = 0;
    int b;
    do {
      b = u8();
      if (shift < 64) {
        result |= (long) (b & 0x7f) << shift;
      }
      shift += 7;
    } while ((b & 0x80) != 0 && shift <= 70);
    while ((b & 0x80) != 0) {
      b = u8();
    }
    if (shift < 64 && (b & 0x40) != 0) {
      result |= -1L << shift;
    }
    return result;
  }

  /** A ULEB128 that must fit an int count or index (what a file claims, checked). */
  int ulebInt(String what) throws DwarfException {
    long v = uleb();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new DwarfException(section + ": " + what + " " + Long.toUnsignedString(v) + " too big");
    }
    return (int) v;
  }

  /** Skips a NUL-terminated string; returns its start. */
  int cstring() throws DwarfException {
    int start = pos;
    int i = pos;
    while (i < end && buf.get(i) != 0) {
      i++;
    }
    if (i >= end) {
      throw new DwarfException(section + ": string at offset " + start + " has no terminating NUL");
    }
    pos = i + 1;
    return start;
  }
}

package io.symbolicate.symbols.cfi;

import java.nio.ByteBuffer;

/**
 * A bounded reader over part of a section: every read checks the bytes are there and throws
 * {@link CfiException} when they are not, so no length or count from the input is trusted.
 */
final class SectionCursor {
  private final ByteBuffer data;
  private int pos;
  private final int end;

  SectionCursor(ByteBuffer data, int pos, int end) {
    if (pos < 0 || end < pos || end > data.limit()) {
      throw new CfiException("range " + pos + ".." + end + " outside the section");
    }
    this.data = data;
    this.pos = pos;
    this.end = end;
  }

  int position() {
    return pos;
  }

  int end() {
    return end;
  }

  int remaining() {
    return end - pos;
  }

  boolean atEnd() {
    return pos >= end;
  }

  /** A cursor over the next {@code length} bytes; this one moves past them. */
  SectionCursor split(long length) {
    need(length);
    SectionCursor sub = new SectionCursor(data, pos, pos + (int) length);
    pos += (int) length;
    return sub;
  }

  void skip(long length) {
    need(length);
    pos += (int) length;
  }

  private void need(long n) {
    if (n < 0 || n > end - pos) {
      throw new CfiException(
          "needs "
              + Long.toUnsignedString(n)
              + " bytes at "
              + pos
              + ", only "
              + (end - pos)
              + " left");
    }
  }

  /** The byte {@code i} bytes ahead, without moving. */
  int peek(int i) {
    need(i + 1L);
    return data.get(pos + i) & 0xFF;
  }

  int u8() {
    need(1);
    return data.get(pos++) & 0xFF;
  }

  int u16() {
    need(2);
    int v = data.getShort(pos) & 0xFFFF;
    pos += 2;
    return v;
  }

  long u32() {
    need(4);
    long v = data.getInt(pos) & 0xFFFFFFFFL;
    pos += 4;
    return v;
  }

  long u64() {
    need(8);
    long v = data.getLong(pos);
    pos += 8;
    return v;
  }

  /** An address of {@code size} bytes (1, 2, 4 or 8), zero-extended. */
  long address(int size) {
    return switch (size) {
      case 1 -> u8();
      case 2 -> u16();
      case 4 -> u32();
      case 8 -> u64();
      default -> throw new CfiException("unsupported address size " + size);
    };
  }

  /** Unsigned LEB128; more than 64 significant bits is an error (gimli's rule). */
  long uleb() {
    long result = 0;
    int shift = 0;
    while (true) {
      int b = u8();
      if (shift == 63 && (b & 0x7E) != 0) {
        throw new CfiException("uleb128 overflows 64 bits at " + (pos - 1));
      }
      if (shift < 64) {
        result |= (long) (b & 0x7F) << shift;
      }
      if ((b & 0x80) == 0) {
        return result;
      }
      shift += 7;
      if (shift > 63) {
        throw new CfiException("uleb128 overflows 64 bits at " + (pos - 1));
      }
    }
  }

  long sleb() {
    long result = 0;
    int shift = 0;
    while (true) {
      int b = u8();
      if (shift == 63 && b != 0 && b != 0x7F) {
        throw new CfiException("sleb128 overflows 64 bits at " + (pos - 1));
      }
      result |= (long) (b & 0x7F) << shift;
      shift += 7;
      if ((b & 0x80) == 0) {
        if (shift < 64 && (b & 0x40) != 0) {
          result |= -1L << shift;
        }
        return result;
      }
      if (shift > 63) {
        throw new CfiException("sleb128 overflows 64 bits at " + (pos - 1));
      }
    }
  }

  /** A NUL-terminated string's bytes (without the NUL), as a cursor over them. */
  SectionCursor cstring() {
    int start = pos;
    while (true) {
      if (pos >= end) {
        throw new CfiException("unterminated string at " + start);
      }
      if (data.get(pos++) == 0) {
        return new SectionCursor(data, start, pos - 1);
      }
    }
  }
}

package io.symbolicate.symbols.dotnet;

/**
 * A bounded cursor over a range of a byte array, reading ECMA-335's compressed integers (II.23.2):
 * every read checks the range's end first, so a truncated or overlong value fails with a reason.
 */
final class BlobReader {
  private final byte[] data;
  private final int end;
  private int pos;

  BlobReader(byte[] data, int offset, int length) {
    if (offset < 0 || length < 0 || offset > data.length - length) {
      throw new PortablePdbException(
          "blob of " + length + " bytes at " + offset + " runs past " + data.length + " bytes");
    }
    this.data = data;
    this.pos = offset;
    this.end = offset + length;
  }

  boolean hasMore() {
    return pos < end;
  }

  int peek() {
    need(1);
    return data[pos] & 0xff;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return end - pos;
  }

  void skip(int n) {
    need(n);
    pos += n;
  }

  int u8() {
    need(1);
    return data[pos++] & 0xff;
  }

  int u32() {
    need(4);
    int v = LittleEndian.i32(data, pos);
    pos += 4;
    return v;
  }

  /** A compressed unsigned integer: 1, 2 or 4 bytes, at most 0x1FFFFFFF. */
  int unsigned() {
    int b = u8();
    if ((b & 0x80) == 0) {
      return b;
    }
    if ((b & 0xc0) == 0x80) {
      return ((b & 0x3f) << 8) | u8();
    }
    if ((b & 0xe0) == 0xc0) {
      need(3);
      int v = ((b & 0x1f) << 24) | ((data[pos] & 0xff) << 16) | ((data[pos + 1] & 0xff) << 8);
      v |= data[pos + 2] & 0xff;
      pos += 3;
      return v;
    }
    throw new PortablePdbException(
        "invalid compressed integer lead byte 0x" + Integer.toHexString(b) + " at " + (pos - 1));
  }

  /** A compressed signed integer: the unsigned form rotated right by one bit, sign-extended. */
  int signed() {
    int b = peek();
    int bits = (b & 0x80) == 0 ? 7 : (b & 0xc0) == 0x80 ? 14 : 29;
    int u = unsigned();
    int v = u >>> 1;
    if ((u & 1) != 0) {
      v -= 1 << (bits - 1);
    }
    return v;
  }

  private void need(int n) {
    if (n > end - pos) {
      throw new PortablePdbException(
          "truncated: " + n + " bytes needed at " + pos + ", " + (end - pos) + " left");
    }
  }
}

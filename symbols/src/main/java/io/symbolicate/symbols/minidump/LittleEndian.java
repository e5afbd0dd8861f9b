package io.symbolicate.symbols.minidump;

/** Little-endian reads from a block already checked against its length. */
final class LittleEndian {
  private LittleEndian() {}

  static int u8(byte[] b, int at) {
    return b[at] & 0xFF;
  }

  static int u16(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
  }

  static int i32(byte[] b, int at) {
    return (b[at] & 0xFF)
        | (b[at + 1] & 0xFF) << 8
        | (b[at + 2] & 0xFF) << 16
        | (b[at + 3] & 0xFF) << 24;
  }

  static long u32(byte[] b, int at) {
    return i32(b, at) & 0xFFFFFFFFL;
  }

  static long u64(byte[] b, int at) {
    return u32(b, at) | u32(b, at + 4) << 32;
  }
}

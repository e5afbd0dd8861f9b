package io.symbolicate.symbols.dotnet;

/** Little-endian reads from a byte array; callers check the bounds first. */
final class LittleEndian {
  private LittleEndian() {}

  static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | ((b[at + 1] & 0xff) << 8);
  }

  static int i32(byte[] b, int at) {
    return (b[at] & 0xff)
        | ((b[at + 1] & 0xff) << 8)
        | ((b[at + 2] & 0xff) << 16)
        | ((b[at + 3] & 0xff) << 24);
  }

  static long u32(byte[] b, int at) {
    return i32(b, at) & 0xffffffffL;
  }

  static long i64(byte[] b, int at) {
    return (u32(b, at)) | ((long) i32(b, at + 4) << 32);
  }
}

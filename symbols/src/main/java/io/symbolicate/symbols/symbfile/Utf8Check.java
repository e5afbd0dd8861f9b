package io.symbolicate.symbols.symbfile;

/**
 * Whether bytes are well-formed UTF-8 (proto3 requires it of string fields), without decoding:
 * a loop over ASCII, then the byte patterns of RFC 3629 (no overlong forms, no surrogates,
 * nothing past U+10FFFF).
 */
final class Utf8Check {
  private Utf8Check() {}

  static boolean isValid(byte[] b, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end && b[i] >= 0) {
      i++;
    }
    while (i < end) {
      int c = b[i++];
      if (c >= 0) {
        continue;
      }
      c &= 0xFF;
      if (c < 0xC2) {
        return false; // a continuation byte, or an overlong two-byte form
      } else if (c < 0xE0) {
        if (i >= end || !cont(b[i++])) {
          return false;
        }
      } else if (c < 0xF0) {
        if (end - i < 2) {
          return false;
        }
        int c1 = b[i++] & 0xFF;
        if (!cont((byte) c1)
            || !cont(b[i++])
            || c == 0xE0 && c1 < 0xA0 // overlong
            || c == 0xED && c1 >= 0xA0) { // surrogate
          return false;
        }
      } else if (c < 0xF5) {
        if (end - i < 3) {
          return false;
        }
        int c1 = b[i++] & 0xFF;
        if (!cont((byte) c1)
            || !cont(b[i++])
            || !cont(b[i++])
            || c == 0xF0 && c1 < 0x90 // overlong
            || c == 0xF4 && c1 >= 0x90) { // past U+10FFFF
          return false;
        }
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean cont(byte b) {
    return (b & 0xC0) == 0x80;
  }
}

package io.symbolicate.symbols.js;

import java.util.Arrays;

/** Base64 digit values for VLQ decoding. */
final class Vlq {
  private static final byte[] DIGIT = new byte[256];

  static {
    Arrays.fill(DIGIT, (byte) -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; i++) {
      DIGIT[alphabet.charAt(i)] = (byte) i;
    }
  }

  private Vlq() {}

  /** The 6-bit value of a base64 digit, or -1. */
  static int digit(int c) {
    return c >= 0 && c < 256 ? DIGIT[c] : -1;
  }

  static byte[] table() {
    return DIGIT;
  }
}

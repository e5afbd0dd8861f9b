package io.symbolicate.symbols.apple;

/**
 * Character classes and number parsing with the reference parser's semantics (Rust: {@code \s}
 * and {@code trim_end} are Unicode White_Space, {@code [0-9]} is ASCII, {@code from_str_radix}
 * takes an optional {@code +}).
 */
final class Chars {
  /** Marks "no value" from the parse methods below; callers check with {@link #fits}. */
  static final long NONE = Long.MIN_VALUE;

  private Chars() {}

  /** Unicode White_Space (what Rust's {@code char::is_whitespace} and regex {@code \s} match). */
  static boolean isSpace(char c) {
    if (c <= ' ') {
      return c == ' ' || c >= '\t' && c <= '\r';
    }
    if (c < 0x85) {
      return false;
    }
    return c == 0x85
        || c == 0xa0
        || c == 0x1680
        || c >= 0x2000 && c <= 0x200a
        || c == 0x2028
        || c == 0x2029
        || c == 0x202f
        || c == 0x205f
        || c == 0x3000;
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isHex(char c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }

  static int skipSpace(String s, int i, int end) {
    while (i < end && isSpace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  static int skipHex(String s, int i, int end) {
    while (i < end && isHex(s.charAt(i))) {
      i++;
    }
    return i;
  }

  static int skipDigits(String s, int i, int end) {
    while (i < end && isDigit(s.charAt(i))) {
      i++;
    }
    return i;
  }

  static int trimEnd(String s, int start, int end) {
    while (end > start && isSpace(s.charAt(end - 1))) {
      end--;
    }
    return end;
  }

  static String trim(String s) {
    int b = skipSpace(s, 0, s.length());
    return s.substring(b, trimEnd(s, b, s.length()));
  }

  /**
   * Hexadecimal digits (no prefix; an optional leading {@code +}) as an unsigned 64-bit value,
   * or {@link #NONE} when empty, not hex or above 2^64 - 1. NONE is a valid value too
   * (0x8000000000000000): callers that can meet it check {@link #hexFits} first.
   */
  static long parseHex(String s, int from, int to) {
    if (!hexFits(s, from, to)) {
      return NONE;
    }
    if (s.charAt(from) == '+') {
      from++;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      v = v << 4 | Character.digit(s.charAt(i), 16);
    }
    return v;
  }

  /** Whether {@link #parseHex} reads a value: non-empty hex, at most 16 significant digits. */
  static boolean hexFits(String s, int from, int to) {
    if (from < to && s.charAt(from) == '+') {
      from++;
    }
    if (from >= to) {
      return false;
    }
    int significant = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!isHex(c)) {
        return false;
      }
      if (significant > 0 || c != '0') {
        significant++;
      }
    }
    return significant <= 16;
  }

  /** {@code 0x}-prefixed hex (the prefix optional) as unsigned 64-bit; see {@link #hexFits}. */
  static boolean prefixedHexFits(String s) {
    int from = s.startsWith("0x") ? 2 : 0;
    return hexFits(s, from, s.length());
  }

  static long parsePrefixedHex(String s) {
    int from = s.startsWith("0x") ? 2 : 0;
    return parseHex(s, from, s.length());
  }

  /** Decimal (optional {@code +}) no greater than {@code max}, or -1. */
  static long parseDecimal(String s, int from, int to, long max) {
    if (from < to && s.charAt(from) == '+') {
      from++;
    }
    if (from >= to) {
      return -1;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!isDigit(c)) {
        return -1;
      }
      v = v * 10 + (c - '0');
      if (v > max) {
        return -1;
      }
    }
    return v;
  }

  /** Decimal as unsigned 64-bit, or false when not a number or above 2^64 - 1. */
  static boolean unsignedDecimalFits(String s, int from, int to) {
    if (from < to && s.charAt(from) == '+') {
      from++;
    }
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (!isDigit(s.charAt(i))) {
        return false;
      }
    }
    int b = from;
    while (b < to - 1 && s.charAt(b) == '0') {
      b++;
    }
    String digits = s.substring(b, to);
    return digits.length() < 20
        || digits.length() == 20 && digits.compareTo("18446744073709551615") <= 0;
  }

  static long parseUnsignedDecimal(String s, int from, int to) {
    if (s.charAt(from) == '+') {
      from++;
    }
    return Long.parseUnsignedLong(s.substring(from, to));
  }

  /** A short, printable excerpt of input for error messages. */
  static String excerpt(String s) {
    StringBuilder b = new StringBuilder("\"");
    int n = Math.min(s.length(), 80);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\x%02x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append(s.length() > 80 ? "...\"" : "\"").toString();
  }
}

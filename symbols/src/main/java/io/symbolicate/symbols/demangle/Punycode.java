package io.symbolicate.symbols.demangle;

/** Punycode (RFC 3492) as Rust v0 identifiers use it, with {@code _} as the delimiter. */
final class Punycode {
  private static final int BASE = 36;
  private static final int TMIN = 1;
  private static final int TMAX = 26;
  private static final int SKEW = 38;
  private static final int DAMP = 700;
  private static final int MAX_CHARS = 4096;

  private Punycode() {}

  /** The decoded identifier; throws {@link IllegalArgumentException} when it is malformed. */
  static String decode(String s, int start, int len) {
    int end = start + len;
    int delim = -1;
    for (int i = end - 1; i >= start; i--) {
      if (s.charAt(i) == '_') {
        delim = i;
        break;
      }
    }
    int[] out = new int[Math.min(MAX_CHARS, len + 1)];
    int count = 0;
    int pos = start;
    if (delim >= 0) {
      for (int i = start; i < delim; i++) {
        out[count++] = s.charAt(i);
      }
      pos = delim + 1;
    }
    long n = 128;
    long i = 0;
    long bias = 72;
    boolean first = true;
    while (pos < end) {
      long oldI = i;
      long w = 1;
      for (long k = BASE; ; k += BASE) {
        if (pos >= end) {
          throw new IllegalArgumentException("punycode ends inside a delta");
        }
        char c = s.charAt(pos++);
        int d;
        if (c >= 'a' && c <= 'z') {
          d = c - 'a';
        } else if (c >= '0' && c <= '9') {
          d = 26 + c - '0';
        } else {
          throw new IllegalArgumentException("not a punycode digit");
        }
        i += d * w;
        long t = k <= bias ? TMIN : (k >= bias + TMAX ? TMAX : k - bias);
        if (i > Integer.MAX_VALUE || w > Integer.MAX_VALUE) {
          throw new IllegalArgumentException("punycode overflow");
        }
        if (d < t) {
          break;
        }
        w *= BASE - t;
      }
      int outLen = count + 1;
      long delta = i - oldI;
      delta = first ? delta / DAMP : delta / 2;
      first = false;
      delta += delta / outLen;
      long k = 0;
      while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
      }
      bias = k + ((BASE - TMIN + 1) * delta) / (delta + SKEW);
      n += i / outLen;
      i %= outLen;
      if (n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) {
        throw new IllegalArgumentException("punycode gives no character");
      }
      if (count >= out.length) {
        throw new IllegalArgumentException("punycode too long");
      }
      System.arraycopy(out, (int) i, out, (int) i + 1, count - (int) i);
      out[(int) i] = (int) n;
      count++;
      i++;
    }
    return new String(out, 0, count);
  }
}

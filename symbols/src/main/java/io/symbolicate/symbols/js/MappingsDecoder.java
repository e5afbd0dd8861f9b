package io.symbolicate.symbols.js;

/**
 * Decodes the {@code mappings} string (base64 VLQ, ECMA-426 section "Mappings structure")
 * straight from the parser's character buffer into {@link Mappings}, validating as it goes:
 * only base64 digits and the separators {@code ,} and {@code ;}; segments of 1, 4 or 5 fields;
 * values within 32 bits; no negative absolute value. Source and name indices are checked against
 * the table sizes by the caller once all fields are known (JSON key order is free).
 */
final class MappingsDecoder {
  private static final byte[] DIGIT = new byte[128];
  /** The largest field value the spec allows (32-bit signed VLQ values). */
  private static final long MAX = Integer.MAX_VALUE;

  static {
    java.util.Arrays.fill(DIGIT, (byte) -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; i++) {
      DIGIT[alphabet.charAt(i)] = (byte) i;
    }
  }

  int maxSource = -1;
  int maxName = -1;
  int lines;

  private MappingsDecoder() {}

  /** Decodes {@code text[off, off+len)}; returns the segments sorted by generated position. */
  static Mappings decode(char[] text, int off, int len, MappingsDecoder stats)
      throws SourceMapException {
    Mappings m = new Mappings(len / 6 + 16);
    int end = off + len;
    int line = 0;
    int col = 0;
    int src = 0;
    int oLine = 0;
    int oCol = 0;
    int nm = 0;
    int lineStart = 0;
    boolean lineSorted = true;
    int maxSrc = -1;
    int maxNm = -1;
    long[] field = new long[6];
    int p = off;
    while (p < end) {
      char c = text[p];
      if (c == ';') {
        if (!lineSorted) {
          m.sortLine(lineStart, m.size);
        }
        line++;
        col = 0;
        lineStart = m.size;
        lineSorted = true;
        p++;
        continue;
      }
      if (c == ',') {
        p++; // empty segment: tolerated, as mozilla/source-map does
        continue;
      }
      // one segment: up to 5 VLQ fields until ',' ';' or end
      int n = 0;
      while (p < end) {
        c = text[p];
        if (c == ',' || c == ';') {
          break;
        }
        if (n == 5) {
          throw new SourceMapException(
              "mappings: segment with more than 5 fields at generated line " + line);
        }
        long v = 0;
        int shift = 0;
        while (true) {
          if (p >= end) {
            throw new SourceMapException(
                "mappings: invalid VLQ at offset " + (p - off) + ": continuation bit set on the last digit");
          }
          c = text[p];
          int d = c < 128 ? DIGIT[c] : -1;
          if (d < 0) {
            throw new SourceMapException(
                "mappings: invalid character '" + printable(c) + "' at offset " + (p - off)
                    + " (expected base64 VLQ digit, ',' or ';')");
          }
          p++;
          if (shift > 30) {
            throw new SourceMapException(
                "mappings: VLQ value exceeds 32 bits at offset " + (p - 1 - off));
          }
          v |= (long) (d & 31) << shift;
          shift += 5;
          if ((d & 32) == 0) {
            break;
          }
        }
        long mag = v >>> 1;
        if ((v & 1) != 0) {
          if (mag > MAX + 1) {
            throw new SourceMapException("mappings: VLQ value exceeds 32 bits at offset " + (p - 1 - off));
          }
          field[n++] = -mag;
        } else {
          if (mag > MAX) {
            throw new SourceMapException("mappings: VLQ value exceeds 32 bits at offset " + (p - 1 - off));
          }
          field[n++] = mag;
        }
      }
      if (n == 2 || n == 3) {
        throw new SourceMapException(
            "mappings: segment with " + n + " fields at generated line " + line
                + " (a segment has 1, 4 or 5 fields)");
      }
      long gc = col + field[0];
      if (gc < 0 || gc > MAX) {
        throw new SourceMapException(
            "mappings: generated column " + gc + " out of range at line " + line);
      }
      if (gc < col) {
        lineSorted = false;
      }
      col = (int) gc;
      if (n == 1) {
        m.add(line, col, -1, -1, -1, -1);
        continue;
      }
      long s = src + field[1];
      long ol = oLine + field[2];
      long oc = oCol + field[3];
      if (s < 0 || s > MAX) {
        throw new SourceMapException("mappings: source index " + s + " out of range at generated line " + line);
      }
      if (ol < 0 || ol > MAX) {
        throw new SourceMapException("mappings: original line " + ol + " out of range at generated line " + line);
      }
      if (oc < 0 || oc > MAX) {
        throw new SourceMapException("mappings: original column " + oc + " out of range at generated line " + line);
      }
      src = (int) s;
      oLine = (int) ol;
      oCol = (int) oc;
      if (src > maxSrc) {
        maxSrc = src;
      }
      int name = -1;
      if (n == 5) {
        long nn = nm + field[4];
        if (nn < 0 || nn > MAX) {
          throw new SourceMapException("mappings: name index " + nn + " out of range at generated line " + line);
        }
        nm = (int) nn;
        name = nm;
        if (nm > maxNm) {
          maxNm = nm;
        }
      }
      m.add(line, col, src, oLine, oCol, name);
    }
    if (!lineSorted) {
      m.sortLine(lineStart, m.size);
    }
    stats.maxSource = maxSrc;
    stats.maxName = maxNm;
    stats.lines = line + 1;
    return m;
  }

  static MappingsDecoder stats() {
    return new MappingsDecoder();
  }

  private static String printable(char c) {
    return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
  }
}

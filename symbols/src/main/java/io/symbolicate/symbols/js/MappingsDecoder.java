package io.symbolicate.symbols.js;

/**
 * Decodes the {@code mappings} string (base64 VLQ, ECMA-426 section "Mappings structure")
 * straight from the parser's character buffer into {@link Mappings}, validating as it goes:
 * only base64 digits and the separators {@code ,} and {@code ;}; segments of 1, 4 or 5 fields
 * (an empty segment, {@code ",,"}, is refused); values within 32 bits, however many zero
 * continuation digits spell them; no negative absolute value. Source and name indices are checked against
 * the table sizes by the caller once all fields are known (JSON key order is free).
 */
final class MappingsDecoder {
  private static final byte[] DIGIT = Vlq.table();

  /** The largest field value the spec allows (32-bit signed VLQ values). */
  private static final long MAX = Integer.MAX_VALUE;

  /** Initial segment capacity at most (24 MB of columns); larger maps grow by half. */
  private static final int INITIAL_CAP = 1 << 20;

  int maxSource = -1;
  int maxName = -1;
  int lines;

  private MappingsDecoder() {}

  /** Non-ASCII characters become this byte, which is no VLQ digit or separator. */
  static final byte NOT_ASCII = (byte) 0xFF;

  /**
   * Decodes {@code text[off, off+len)} (ASCII bytes, straight from the map file when it has no
   * escapes, or the parser's chars with {@link #NOT_ASCII} for non-ASCII ones); returns the
   * segments sorted by generated position.
   *
   * @param maxSegments more segments than this fail (the columns never grow past it)
   * @param limitReason appended to that failure's message: why the limit is what it is
   */
  static Mappings decode(
      byte[] text, int off, int len, MappingsDecoder stats, int maxSegments, String limitReason)
      throws SourceMapException {
    return new Cursor(text, off, off + len).run(stats, maxSegments, limitReason);
  }

  /** Decoding state; small hot methods so the JIT inlines them. */
  private static final class Cursor {
    final byte[] buf;
    final int start;
    final int end;
    int pos;
    int line;

    Cursor(byte[] buf, int start, int end) {
      this.buf = buf;
      this.start = start;
      this.end = end;
      this.pos = start;
    }

    private boolean atFieldStart() {
      if (pos >= end) {
        return false;
      }
      byte c = buf[pos];
      return c != ',' && c != ';';
    }

    /** One signed VLQ value, checked to fit 32 bits. */
    private long vlq() throws SourceMapException {
      int p = pos;
      if (p >= end) {
        throw truncated(p);
      }
      int d = DIGIT[buf[p] & 0xFF];
      if (d < 0) {
        throw invalidChar(p);
      }
      pos = p + 1;
      if ((d & 32) == 0) { // single digit: the common case
        return (d & 1) != 0 ? -(long) (d >>> 1) : d >>> 1;
      }
      return vlqLong(d & 31);
    }

    private long vlqLong(int first) throws SourceMapException {
      long v = first;
      int shift = 5;
      while (true) {
        int p = pos;
        if (p >= end) {
          throw truncated(p);
        }
        int d = DIGIT[buf[p] & 0xFF];
        if (d < 0) {
          throw invalidChar(p);
        }
        pos = p + 1;
        if (shift <= 30) {
          v |= (long) (d & 31) << shift;
          shift += 5;
        } else if ((d & 31) != 0) {
          throw tooBig(p);
        }
        // past 35 bits only zero digits may follow: ECMA-426 bounds the value, not the digits
        // (tc39 validMappingLargeVLQ: a 1 spelled with a thousand continuation digits)
        if ((d & 32) == 0) {
          break;
        }
      }
      long mag = v >>> 1;
      if ((v & 1) != 0) {
        if (mag > MAX + 1) {
          throw tooBig(pos - 1);
        }
        return -mag;
      }
      if (mag > MAX) {
        throw tooBig(pos - 1);
      }
      return mag;
    }

    private SourceMapException truncated(int p) {
      return new SourceMapException(
          "mappings: invalid VLQ at offset "
              + (p - start)
              + ": continuation bit set on the last digit");
    }

    private SourceMapException invalidChar(int p) {
      return new SourceMapException(
          "mappings: invalid character '"
              + printable(buf[p])
              + "' at offset "
              + (p - start)
              + " (expected base64 VLQ digit, ',' or ';')");
    }

    private SourceMapException tooBig(int p) {
      return new SourceMapException("mappings: VLQ value exceeds 32 bits at offset " + (p - start));
    }

    private SourceMapException emptySegment(int p) {
      return new SourceMapException(
          "mappings: empty segment (no fields) at generated line "
              + line
              + ", offset "
              + (p - start)
              + " (a segment has 1, 4 or 5 fields)");
    }

    private SourceMapException outOfRange(String what, long v) {
      return new SourceMapException(
          "mappings: " + what + " " + v + " out of range at generated line " + line);
    }

    Mappings run(MappingsDecoder stats, int maxSegments, String limitReason)
        throws SourceMapException {
      // capacity from the length (real maps take 5-8 bytes a segment, 4-field segments at least
      // 5), grown when short: counting exactly first cost a third of the decode (a branchy pass).
      // Capped, so a long string of separators cannot claim a large allocation up front.
      Mappings m = new Mappings(Math.min(Math.min((end - start) / 5, INITIAL_CAP), maxSegments));
      // segments that fit before the columns grow (or the limit is reached)
      int cap = Math.min(m.capacity(), maxSegments);
      int[] gLine = m.genLine;
      int[] gCol = m.genCol;
      int[] aSrc = m.source;
      int[] aOLine = m.origLine;
      int[] aOCol = m.origCol;
      int[] aName = m.name;
      int size = 0;
      int col = 0;
      int src = 0;
      int oLine = 0;
      int oCol = 0;
      int nm = 0;
      int lineStart = 0;
      int lineStartPos = pos;
      boolean lineSorted = true;
      int maxSrc = -1;
      int maxNm = -1;
      while (pos < end) {
        byte c = buf[pos];
        if (c == ';') {
          if (!lineSorted) {
            m.size = size;
            m.sortLine(lineStart, size);
          }
          line++;
          col = 0;
          lineStart = size;
          lineSorted = true;
          pos++;
          lineStartPos = pos;
          continue;
        }
        if (c == ',') {
          // a ',' only separates two segments: ECMA-426 has no segment of zero fields (",,", a
          // line starting or ending with ',': tc39 invalidMappingSegmentWithZeroFields)
          if (pos == lineStartPos || pos + 1 == end || buf[pos + 1] == ',' || buf[pos + 1] == ';') {
            throw emptySegment(pos);
          }
          pos++;
          continue;
        }
        long gc = col + vlq();
        if (gc < 0 || gc > MAX) {
          throw outOfRange("generated column", gc);
        }
        if (gc < col) {
          lineSorted = false;
        }
        col = (int) gc;
        int i = size++;
        if (i == cap) {
          if (i >= maxSegments) {
            throw new SourceMapException(
                "mappings: more than " + maxSegments + " segments" + limitReason);
          }
          m.size = i;
          // let go of the old columns, so that each can be collected as soon as it is copied
          gLine = gCol = aSrc = aOLine = aOCol = aName = null;
          m.grow(maxSegments);
          cap = Math.min(m.capacity(), maxSegments);
          gLine = m.genLine;
          gCol = m.genCol;
          aSrc = m.source;
          aOLine = m.origLine;
          aOCol = m.origCol;
          aName = m.name;
        }
        gLine[i] = line;
        gCol[i] = col;
        if (!atFieldStart()) {
          aSrc[i] = -1;
          aOLine[i] = -1;
          aOCol[i] = -1;
          aName[i] = -1;
          continue;
        }
        long s = src + vlq();
        if (!atFieldStart()) {
          throw fieldCount(2);
        }
        long ol = oLine + vlq();
        if (!atFieldStart()) {
          throw fieldCount(3);
        }
        long oc = oCol + vlq();
        if (s < 0 || s > MAX) {
          throw outOfRange("source index", s);
        }
        if (ol < 0 || ol > MAX) {
          throw outOfRange("original line", ol);
        }
        if (oc < 0 || oc > MAX) {
          throw outOfRange("original column", oc);
        }
        src = (int) s;
        oLine = (int) ol;
        oCol = (int) oc;
        if (src > maxSrc) {
          maxSrc = src;
        }
        aSrc[i] = src;
        aOLine[i] = oLine;
        aOCol[i] = oCol;
        if (atFieldStart()) {
          long nn = nm + vlq();
          if (nn < 0 || nn > MAX) {
            throw outOfRange("name index", nn);
          }
          if (atFieldStart()) {
            throw new SourceMapException(
                "mappings: segment with more than 5 fields at generated line " + line);
          }
          nm = (int) nn;
          aName[i] = nm;
          if (nm > maxNm) {
            maxNm = nm;
          }
        } else {
          aName[i] = -1;
        }
      }
      m.size = size;
      if (!lineSorted) {
        m.sortLine(lineStart, size);
      }
      stats.maxSource = maxSrc;
      stats.maxName = maxNm;
      stats.lines = line + 1;
      return m;
    }

    private SourceMapException fieldCount(int n) {
      return new SourceMapException(
          "mappings: segment with "
              + n
              + " fields at generated line "
              + line
              + " (a segment has 1, 4 or 5 fields)");
    }
  }

  static MappingsDecoder stats() {
    return new MappingsDecoder();
  }

  private static String printable(int c) {
    return c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format("\\x%02x", c & 0xFF);
  }
}

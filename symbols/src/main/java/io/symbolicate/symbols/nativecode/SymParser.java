package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.io.DebugFileInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * Streaming parser for Breakpad text symbol files. Works on raw bytes in a large reusable buffer:
 * no String per line, hex parsed by hand, names handed out as byte ranges. Tokenising follows
 * Breakpad's own parser (space separated, the name is the rest of the line and may contain
 * spaces). Malformed lines are reported to the handler and skipped.
 */
final class SymParser {
  /** Longest line accepted (a 1 MB C++ name is real); longer lines are counted as bad. */
  static final int DEFAULT_MAX_LINE = 16 << 20;

  private static final byte[] HEX = new byte[256];

  static {
    Arrays.fill(HEX, (byte) -1);
    for (int i = 0; i < 10; i++) {
      HEX['0' + i] = (byte) i;
    }
    for (int i = 0; i < 6; i++) {
      HEX['a' + i] = (byte) (10 + i);
      HEX['A' + i] = (byte) (10 + i);
    }
  }

  /** Breakpad rejects ULLONG_MAX (its strtoull overflow value), which frees -1 as "invalid". */
  private static final long BAD = -1L;

  private final SymHandler h;
  private final int maxLine;

  /** Reads fill at most this much of the buffer at a time once a file proves large. */
  private static final int READ_BUFFER = 1 << 20;

  /**
   * Starts small and doubles up to {@link #READ_BUFFER} as a file proves large or a line does
   * not fit (beyond, only for a line up to the cap): a 20 KB upload used to allocate 1 MiB here,
   * most of an upload storm's garbage (issue 43).
   */
  private byte[] buf = new byte[64 << 10];

  private long lineNo;
  private boolean sawModule;
  private long bytesRead;
  private long[] ranges = new long[64];
  // token scratch for the generic path: start/end offsets
  private int[] ts = new int[16];
  private int[] te = new int[16];

  SymParser(SymHandler handler, int maxLine) {
    this.h = handler;
    this.maxLine = maxLine;
  }

  long bytesRead() {
    return bytesRead;
  }

  void parse(InputStream in) throws IOException {
    int start = 0;
    int end = 0;
    boolean eof = false;
    boolean discarding = false;
    while (true) {
      if (!eof) {
        if (start > 0) {
          System.arraycopy(buf, start, buf, 0, end - start);
          end -= start;
          start = 0;
        }
        if (buf.length < READ_BUFFER && (end == buf.length || bytesRead >= 2L * buf.length)) {
          // below READ_BUFFER, as if it were that large already: a line up to it always fits
          buf = Arrays.copyOf(buf, Math.min(READ_BUFFER, 2 * buf.length));
        }
        if (end == buf.length) {
          if (buf.length <= maxLine) {
            buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, maxLine + 2L));
          } else {
            // a line longer than the cap: count it once, drop bytes until its newline
            if (!discarding) {
              lineNo++;
              checkModuleSeen(start, end);
              h.badLine(lineNo, "line longer than " + maxLine + " bytes");
            }
            discarding = true;
            end = 0;
          }
        }
        int n = read(in, end);
        if (n < 0) {
          eof = true;
        } else {
          bytesRead += n;
          end += n;
        }
      }
      if (discarding) {
        int nl = indexOf((byte) '\n', start, end);
        if (nl < 0) {
          if (eof) {
            break;
          }
          start = end;
          continue;
        }
        start = nl + 1;
        discarding = false;
      }
      int last = lastIndexOf((byte) '\n', start, end);
      if (last < 0) {
        if (!eof) {
          continue;
        }
        if (start == end) {
          break;
        }
        if (end == buf.length) {
          buf = Arrays.copyOf(buf, buf.length + 1);
        }
        buf[end++] = '\n';
        last = end - 1;
      }
      processLines(start, last + 1);
      start = last + 1;
      if (eof && start == end) {
        break;
      }
    }
    if (!sawModule) {
      throw new SymFormatException(
          bytesRead == 0
              ? "empty input: not a Breakpad symbol file"
              : "not a Breakpad symbol file: no MODULE record");
    }
  }

  private int read(InputStream in, int at) throws IOException {
    try {
      return in.read(buf, at, buf.length - at);
    } catch (EOFException | ZipException | DebugFileInput.CorruptInputException e) {
      throw new SymFormatException(
          "compressed input is truncated or corrupt: " + e.getMessage(), e);
    }
  }

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private int indexOf(byte b, int from, int to) {
    byte[] a = buf;
    // eight bytes at a time: the lowest byte of x equal to zero is the first match (the
    // borrow of the subtraction can only flag bytes above a real zero)
    long pattern = (b & 0xFFL) * ONES;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONG.get(a, i) ^ pattern;
      long t = (x - ONES) & ~x & HIGHS;
      if (t != 0) {
        return i + (Long.numberOfTrailingZeros(t) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private int lastIndexOf(byte b, int from, int to) {
    byte[] a = buf;
    for (int i = to - 1; i >= from; i--) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** Parses complete lines in [from, to); buf[to - 1] is '\n'. */
  private void processLines(int from, int to) throws IOException {
    int p = from;
    byte[] b = buf;
    while (p < to) {
      lineNo++;
      int c = b[p] & 0xFF;
      if (sawModule && HEX[c] >= 0 && c != 'F') {
        int q = fastLine(p);
        if (q >= 0) {
          p = q;
          continue;
        }
      } else if (sawModule && c == 'I') {
        int q = fastInline(p);
        if (q >= 0) {
          p = q;
          continue;
        }
      }
      int eol = indexOf((byte) '\n', p, to);
      int e = eol;
      while (e > p && b[e - 1] == '\r') {
        e--;
      }
      if (e > p) {
        if (!sawModule) {
          checkModuleSeen(p, e);
        }
        record(p, e);
      } else {
        lineNo--; // empty lines are not counted, as in Breakpad (strtok skips them)
      }
      p = eol + 1;
    }
  }

  /**
   * Fast path for the common "addr size line file\n" line record in canonical form. Returns the
   * offset after the newline, or -1 to take the general path.
   */
  private int fastLine(int p) {
    byte[] b = buf;
    long addr = 0;
    int q = p;
    int v;
    while ((v = HEX[b[q] & 0xFF]) >= 0) {
      addr = (addr << 4) | v;
      q++;
    }
    if (b[q] != ' ' || q - p > 16) {
      return -1;
    }
    int s = ++q;
    long size = 0;
    while ((v = HEX[b[q] & 0xFF]) >= 0) {
      size = (size << 4) | v;
      q++;
    }
    if (b[q] != ' ' || q == s || q - s > 16) {
      return -1;
    }
    s = ++q;
    long line = 0;
    int c;
    while ((c = b[q] - '0') >= 0 && c <= 9) {
      line = line * 10 + c;
      q++;
    }
    if (b[q] != ' ' || q == s || q - s > 9) {
      return -1;
    }
    s = ++q;
    long file = 0;
    while ((c = b[q] - '0') >= 0 && c <= 9) {
      file = file * 10 + c;
      q++;
    }
    if (b[q] != '\n' || q == s || q - s > 9 || addr == BAD || size == BAD) {
      return -1;
    }
    if (!h.line(addr, size, (int) line, (int) file)) {
      bad("line record without a FUNC");
    }
    return q + 1;
  }

  private void checkModuleSeen(int p, int e) throws SymFormatException {
    if (!sawModule && !startsWith(p, e, "MODULE ")) {
      throw new SymFormatException(
          "not a Breakpad symbol file: first line is not a MODULE record (" + preview(p, e) + ")");
    }
  }

  private String preview(int p, int e) {
    int n = Math.min(e - p, 40);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int c = buf[p + i] & 0xFF;
      sb.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
    }
    return "starts with \"" + sb + (e - p > n ? "...\"" : "\"");
  }

  private boolean startsWith(int p, int e, String prefix) {
    int n = prefix.length();
    if (e - p < n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (buf[p + i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  // ---- general path: one record in [p, e), no trailing newline ----

  private void record(int p, int e) {
    byte[] b = buf;
    switch (b[p]) {
      case 'F':
        if (startsWith(p, e, "FUNC ")) {
          func(p + 5, e);
          return;
        }
        if (startsWith(p, e, "FILE ")) {
          file(p + 5, e);
          return;
        }
        break;
      case 'S':
        if (startsWith(p, e, "STACK ")) {
          stack(p + 6, e); // unwind records: kept for stack walking, not for symbolication
          return;
        }
        break;
      case 'P':
        if (startsWith(p, e, "PUBLIC ")) {
          publicRecord(p + 7, e);
          return;
        }
        break;
      case 'I':
        if (startsWith(p, e, "INLINE_ORIGIN ")) {
          inlineOrigin(p + 14, e);
          return;
        }
        if (startsWith(p, e, "INLINE ")) {
          inline(p + 7, e); // what fastInline did not take
          return;
        }
        if (startsWith(p, e, "INFO ")) {
          info(p + 5, e);
          return;
        }
        break;
      case 'M':
        if (startsWith(p, e, "MODULE ")) {
          module(p + 7, e);
          return;
        }
        break;
      default:
        break;
    }
    lineRecord(p, e);
  }

  /**
   * Splits [p, e) into at most {@code max} tokens like Breakpad's Tokenize: the first max-1 are
   * space separated, the last is the rest of the line after the separator (may hold spaces).
   * Returns the number of tokens found.
   */
  private int tokenize(int p, int e, int max) {
    byte[] b = buf;
    int n = 0;
    int q = p;
    while (n < max - 1) {
      while (q < e && b[q] == ' ') {
        q++;
      }
      if (q >= e) {
        return n;
      }
      int s = q;
      while (q < e && b[q] != ' ') {
        q++;
      }
      addToken(n++, s, q);
      if (q < e) {
        q++; // the one separator the rest-of-line token does not include
      }
    }
    if (q < e) {
      addToken(n++, q, e);
    }
    return n;
  }

  private void addToken(int i, int s, int t) {
    if (i >= ts.length) {
      ts = Arrays.copyOf(ts, ts.length * 2);
      te = Arrays.copyOf(te, te.length * 2);
    }
    ts[i] = s;
    te[i] = t;
  }

  /** Unsigned hex in [s, t) (optional 0x), BAD when invalid, too long or ULLONG_MAX. */
  private long hex(int s, int t) {
    byte[] b = buf;
    if (t - s > 2 && b[s] == '0' && (b[s + 1] == 'x' || b[s + 1] == 'X')) {
      s += 2;
    }
    if (s >= t) {
      return BAD;
    }
    while (s < t - 1 && b[s] == '0') {
      s++;
    }
    if (t - s > 16) {
      return BAD;
    }
    long v = 0;
    for (int i = s; i < t; i++) {
      int d = HEX[b[i] & 0xFF];
      if (d < 0) {
        return BAD;
      }
      v = (v << 4) | d;
    }
    return v;
  }

  /** Non-negative decimal in [s, t) that fits an int; -1 when invalid. */
  private int dec(int s, int t) {
    byte[] b = buf;
    if (s >= t || t - s > 10) {
      return -1;
    }
    long v = 0;
    for (int i = s; i < t; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  /** Breakpad parses the last numeric field of some records with strtol: a prefix number. */
  private int decPrefix(int s, int t) {
    int q = s;
    while (q < t && buf[q] >= '0' && buf[q] <= '9') {
      q++;
    }
    return q < t && buf[q] != ' ' ? -1 : dec(s, q);
  }

  private String str(int s, int t) {
    return new String(buf, s, t - s, StandardCharsets.UTF_8);
  }

  private void bad(String reason) {
    h.badLine(lineNo, reason);
  }

  private void module(int p, int e) {
    int n = tokenize(p, e, 4);
    if (sawModule) {
      return; // a second MODULE line carries nothing a lookup uses
    }
    sawModule = true;
    if (n < 4) {
      h.module(
          n > 0 ? str(ts[0], te[0]) : "",
          n > 1 ? str(ts[1], te[1]) : "",
          n > 2 ? str(ts[2], te[2]) : "",
          "");
      bad("MODULE record has fewer than 4 fields");
      return;
    }
    h.module(str(ts[0], te[0]), str(ts[1], te[1]), str(ts[2], te[2]), str(ts[3], te[3]));
  }

  private void info(int p, int e) {
    int n = tokenize(p, e, 3);
    if (n >= 2 && te[0] - ts[0] == 7 && startsWith(ts[0], te[0], "CODE_ID")) {
      h.codeId(str(ts[1], te[1]), n > 2 ? str(ts[2], te[2]) : "");
    }
    // other INFO records are housekeeping, ignored like Breakpad does
  }

  private void file(int p, int e) {
    if (tokenize(p, e, 2) < 2) {
      bad("FILE record without a name");
      return;
    }
    int id = dec(ts[0], te[0]);
    if (id < 0) {
      bad("FILE record with an invalid id");
      return;
    }
    h.file(id, buf, ts[1], te[1] - ts[1]);
  }

  private void inlineOrigin(int p, int e) {
    int n = tokenize(p, e, 2);
    if (n < 2) {
      bad("INLINE_ORIGIN record without a name");
      return;
    }
    int id = dec(ts[0], te[0]);
    if (id < 0) {
      bad("INLINE_ORIGIN record with an invalid id");
      return;
    }
    int s = ts[1];
    // old format "INLINE_ORIGIN <id> <file_id> <name>": a numeric (or -1) token before the name
    int q = s;
    if (q < e && buf[q] == '-') {
      q++;
    }
    int digits = q;
    while (q < e && buf[q] >= '0' && buf[q] <= '9') {
      q++;
    }
    if (q > digits && q < e && buf[q] == ' ' && q + 1 < e) {
      s = q + 1;
    }
    h.inlineOrigin(id, buf, s, e - s);
  }

  private void inline(int p, int e) {
    int n = tokenize(p, e, Integer.MAX_VALUE);
    if (n < 5) {
      bad("INLINE record has fewer than 5 fields");
      return;
    }
    // new format has a call-site file id: an even number of fields
    boolean hasFile = n % 2 == 0;
    int level = dec(ts[0], te[0]);
    int callLine = dec(ts[1], te[1]);
    int callFile = hasFile ? dec(ts[2], te[2]) : -1;
    int k = hasFile ? 3 : 2;
    int origin = dec(ts[k], te[k]);
    if (level < 0 || callLine < 0 || origin < 0 || (hasFile && callFile < 0)) {
      bad("INLINE record with an invalid number");
      return;
    }
    int rc = (n - k - 1) / 2;
    if (ranges.length < rc * 2) {
      ranges = new long[rc * 2];
    }
    for (int i = 0; i < rc; i++) {
      int a = k + 1 + 2 * i;
      long addr = hex(ts[a], te[a]);
      long size = hex(ts[a + 1], te[a + 1]);
      if (addr == BAD || size == BAD) {
        bad("INLINE record with an invalid address or size");
        return;
      }
      ranges[2 * i] = addr;
      ranges[2 * i + 1] = size;
    }
    if (!h.inline(level, callLine, callFile, origin, ranges, rc)) {
      bad("INLINE record without a FUNC");
    }
  }

  private static final byte[] INLINE_PREFIX = "INLINE ".getBytes(StandardCharsets.US_ASCII);

  /**
   * A whole "INLINE ..." line at {@code p} in canonical form (single spaces, plain numbers, "\n"
   * ending), read in one pass up to its newline without the token arrays. Returns the offset
   * after the newline, or -1 to let the general path handle (and report) the line.
   */
  private int fastInline(int p) {
    byte[] b = buf; // the chunk ends with a newline: every scan below stops there at the latest
    for (int k = 0; k < INLINE_PREFIX.length; k++) {
      if (b[p + k] != INLINE_PREFIX[k]) {
        return -1;
      }
    }
    int q = p + INLINE_PREFIX.length;
    // nest level, call line, then call file (new format) or origin: always decimal
    int d0 = 0;
    int d1 = 0;
    int d2 = 0;
    for (int k = 0; k < 3; k++) {
      int s0 = q;
      long x = 0;
      int c;
      while ((c = b[q] - '0') >= 0 && c <= 9) {
        x = x * 10 + c;
        q++;
      }
      if (q == s0 || q - s0 > 9 || b[q] != ' ') {
        return -1;
      }
      if (k == 0) {
        d0 = (int) x;
      } else if (k == 1) {
        d1 = (int) x;
      } else {
        d2 = (int) x;
      }
      q++;
    }
    // then the address ranges, preceded by the origin in the new format (an even field count):
    // read as hex, the origin read again as decimal below once the count is known
    long[] r = ranges;
    int n = 3;
    int s3 = q;
    int e3 = q;
    while (true) {
      int s0 = q;
      long x = 0;
      int d;
      while ((d = HEX[b[q] & 0xFF]) >= 0) {
        x = (x << 4) | d;
        q++;
      }
      int len = q - s0;
      byte c = b[q];
      if (len == 0 || (c != ' ' && c != '\n')) {
        return -1; // empty field (double or trailing space), not a number, or a "\r\n" line
      }
      if (n == 3) {
        e3 = q;
      }
      int k = n - 3;
      if (k == r.length) {
        r = ranges = Arrays.copyOf(r, r.length * 2);
      }
      r[k] = len > 16 ? BAD : x; // checked below where it is a range
      n++;
      if (c == '\n') {
        break;
      }
      q++;
    }
    if (n < 5) {
      return -1;
    }
    boolean hasFile = n % 2 == 0;
    int origin = d2;
    int first = 0;
    if (hasFile) {
      if (e3 - s3 > 9) {
        return -1;
      }
      long x = 0;
      for (int i = s3; i < e3; i++) {
        int c = b[i] - '0';
        if (c < 0 || c > 9) {
          return -1;
        }
        x = x * 10 + c;
      }
      origin = (int) x;
      first = 1;
    }
    int rc = (n - (hasFile ? 4 : 3)) / 2;
    for (int k = first; k < first + 2 * rc; k++) {
      if (r[k] == BAD) {
        return -1;
      }
    }
    if (hasFile) {
      System.arraycopy(r, 1, r, 0, 2 * rc);
    }
    if (!h.inline(d0, d1, hasFile ? d2 : -1, origin, r, rc)) {
      bad("INLINE record without a FUNC");
    }
    return q + 1;
  }

  private void func(int p, int e) {
    boolean multiple = p + 1 < e && buf[p] == 'm' && buf[p + 1] == ' ';
    if (multiple) {
      p += 2;
    }
    if (tokenize(p, e, 4) < 4) {
      bad("FUNC record has missing fields");
      h.func(false, BAD, 0, buf, p, 0); // ends the previous function like Breakpad's failed parse
      return;
    }
    long addr = hex(ts[0], te[0]);
    long size = hex(ts[1], te[1]);
    long param = hex(ts[2], te[2]);
    if (addr == BAD || size == BAD || param == BAD || param > Integer.MAX_VALUE) {
      bad("FUNC record with an invalid address, size or parameter size");
      h.func(false, BAD, 0, buf, p, 0);
      return;
    }
    if (param != 0) {
      h.funcParameterSize(addr, param);
    }
    h.func(multiple, addr, size, buf, ts[3], te[3] - ts[3]);
  }

  /** STACK CFI [INIT] and STACK WIN records, after "STACK ". */
  private void stack(int p, int e) {
    while (p < e && buf[p] == ' ') {
      p++;
    }
    if (startsWith(p, e, "CFI ")) {
      if (cfiInit(p + 4, e)) {
        if (tokenize(p + 4, e, 4) < 4) {
          bad("STACK CFI INIT record has missing fields");
          return;
        }
        long addr = hex(ts[1], te[1]);
        long size = hex(ts[2], te[2]);
        if (addr == BAD || size == BAD) {
          bad("STACK CFI INIT record with an invalid address or size");
          return;
        }
        h.stackCfiInit(addr, size, buf, ts[3], te[3] - ts[3]);
        return;
      }
      int n = tokenize(p + 4, e, 2); // deltas outnumber INITs: one pass each
      long addr = n == 2 ? hex(ts[0], te[0]) : BAD;
      if (addr == BAD) {
        bad("STACK CFI record with missing fields or an invalid address");
        return;
      }
      h.stackCfiDelta(addr, buf, ts[1], te[1] - ts[1]);
      return;
    }
    if (startsWith(p, e, "WIN ")) {
      // type rva size prolog epilog params saved locals max_stack has_program program|allocates_bp
      if (tokenize(p + 4, e, 11) < 11) {
        bad("STACK WIN record has fewer than 11 fields");
        return;
      }
      long type = hex(ts[0], te[0]);
      long rva = hex(ts[1], te[1]);
      long size = hex(ts[2], te[2]);
      if (type == BAD || type > 4 || rva == BAD || size == BAD) {
        bad("STACK WIN record with an invalid type, address or size");
        return;
      }
      if (type == 0 || type == 4) {
        h.stackWin((int) type, rva, size, buf, ts[3], te[10] - ts[3]);
      }
      return;
    }
    bad("STACK record of an unknown kind");
  }

  /** Whether the first token from {@code p} is INIT (what tokenize's first token would be). */
  private boolean cfiInit(int p, int e) {
    while (p < e && buf[p] == ' ') {
      p++;
    }
    return startsWith(p, e, "INIT") && (p + 4 == e || buf[p + 4] == ' ');
  }

  private void publicRecord(int p, int e) {
    boolean multiple = p + 1 < e && buf[p] == 'm' && buf[p + 1] == ' ';
    if (multiple) {
      p += 2;
    }
    if (tokenize(p, e, 3) < 3) {
      bad("PUBLIC record has missing fields");
      h.publicSymbol(false, BAD, buf, p, 0);
      return;
    }
    long addr = hex(ts[0], te[0]);
    long param = hex(ts[1], te[1]);
    if (addr == BAD || param == BAD || param > Integer.MAX_VALUE) {
      bad("PUBLIC record with an invalid address or parameter size");
      h.publicSymbol(false, BAD, buf, p, 0);
      return;
    }
    h.publicSymbol(multiple, addr, buf, ts[2], te[2] - ts[2]);
  }

  private void lineRecord(int p, int e) {
    if (tokenize(p, e, 4) < 4) {
      bad("unknown record or line record with missing fields");
      return;
    }
    long addr = hex(ts[0], te[0]);
    long size = hex(ts[1], te[1]);
    int line = dec(ts[2], te[2]);
    int file = decPrefix(ts[3], te[3]);
    if (addr == BAD || size == BAD || line < 0 || file < 0) {
      bad("line record with an invalid number");
      return;
    }
    if (!h.line(addr, size, line, file)) {
      bad("line record without a FUNC");
    }
  }
}

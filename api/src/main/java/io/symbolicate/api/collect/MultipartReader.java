package io.symbolicate.api.collect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A streaming reader of a {@code multipart/form-data} (or {@code multipart/mixed}) body (RFC 2046,
 * RFC 7578): {@link #next} gives each part's headers, {@link #body} its content as a stream that
 * ends at the next delimiter. Only a fixed buffer is held, whatever the parts' sizes; a part's
 * headers are bounded. Anything that is not a well-formed body is a {@link SubmitException}
 * (400) naming what is wrong: no opening boundary, a part without a name, headers too long, a
 * body that ends before its closing boundary.
 */
final class MultipartReader {
  /** RFC 2046: a boundary is 1 to 70 characters. */
  static final int MAX_BOUNDARY_CHARS = 70;

  /** The headers of one part, all lines together. */
  static final int MAX_PART_HEADER_BYTES = 16 << 10;

  /** Lines of headers of one part. */
  static final int MAX_PART_HEADERS = 32;

  /** Bytes before the first boundary (a preamble): clients send none, a wrong boundary sends all. */
  static final int MAX_PREAMBLE_BYTES = 64 << 10;

  /** Spaces or tabs a boundary line may carry before its line end (RFC 2046 transport padding). */
  static final int MAX_PADDING = 64;

  static final int BUFFER = 64 << 10;

  /** A part's headers. */
  record Part(String name, String filename, String contentType) {
    /** A file (a dump or another attachment), not an annotation. */
    boolean isFile() {
      return filename != null
          || (contentType != null
              && contentType.toLowerCase(Locale.ROOT).startsWith("application/octet-stream"));
    }
  }

  private final InputStream in;
  private final byte[] delimiter;
  private final byte[] buf = new byte[BUFFER];
  private int pos;
  private int lim;
  private boolean eof;
  private boolean started;
  private boolean inBody;
  private boolean done;
  private final PartBody body = new PartBody();

  MultipartReader(InputStream in, String boundary) throws SubmitException {
    if (boundary == null || boundary.isEmpty()) {
      throw SubmitException.badRequest(
          "no_boundary", "the Content-Type names no multipart boundary");
    }
    if (boundary.length() > MAX_BOUNDARY_CHARS) {
      throw SubmitException.badRequest(
          "no_boundary",
          "the multipart boundary is longer than " + MAX_BOUNDARY_CHARS + " characters");
    }
    for (int i = 0; i < boundary.length(); i++) {
      char c = boundary.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw SubmitException.badRequest(
            "no_boundary", "the multipart boundary has a character outside printable ASCII");
      }
    }
    this.in = in;
    this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
    // the first boundary line has no line end before it: a virtual one lets one search find all
    buf[0] = '\r';
    buf[1] = '\n';
    lim = 2;
  }

  /** The boundary parameter of a multipart Content-Type, or null. */
  static String boundaryOf(String contentType) {
    for (String param : contentType.split(";")) {
      String p = param.strip();
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).strip().equalsIgnoreCase("boundary")) {
        String v = p.substring(eq + 1).strip();
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
          v = v.substring(1, v.length() - 1);
        }
        return v;
      }
    }
    return null;
  }

  /** The next part, its body unread, or null after the closing boundary; skips what is left of the current one. */
  Part next() throws IOException {
    if (done) {
      return null;
    }
    if (!started) {
      started = true;
      String why = "the body does not start with its boundary (a wrong boundary, or not multipart)";
      try {
        skipTo(MAX_PREAMBLE_BYTES, why);
      } catch (SubmitException e) {
        throw e.code().equals("truncated")
            ? SubmitException.badRequest("malformed_multipart", why)
            : e;
      }
    } else if (inBody && !body.ended) {
      skipTo(Long.MAX_VALUE, null);
    }
    inBody = false;
    // after a delimiter: "--" closes the body; else padding and a line end start a part
    ensure(2);
    if (lim - pos >= 2 && buf[pos] == '-' && buf[pos + 1] == '-') {
      pos += 2;
      done = true;
      return null; // an epilogue may follow; it is not read
    }
    int padding = 0;
    while (true) {
      ensure(1);
      if (lim == pos) {
        throw truncated();
      }
      byte b = buf[pos];
      if ((b == ' ' || b == '\t') && padding < MAX_PADDING) {
        pos++;
        padding++;
        continue;
      }
      break;
    }
    ensure(2);
    if (lim - pos < 2 || buf[pos] != '\r' || buf[pos + 1] != '\n') {
      throw SubmitException.badRequest(
          "malformed_multipart", "a boundary line does not end with CRLF");
    }
    pos += 2;
    Part p = headers();
    inBody = true;
    body.ended = false;
    return p;
  }

  /** The current part's content; -1 at its end. */
  InputStream body() {
    return body;
  }

  private Part headers() throws IOException {
    String name = null;
    String filename = null;
    String contentType = null;
    int total = 0;
    for (int lines = 0; ; lines++) {
      int end = lineEnd();
      int len = end - pos;
      total += len + 2;
      if (total > MAX_PART_HEADER_BYTES || lines > MAX_PART_HEADERS) {
        throw SubmitException.badRequest(
            "malformed_multipart",
            "a part's headers are longer than "
                + MAX_PART_HEADER_BYTES
                + " bytes or "
                + MAX_PART_HEADERS
                + " lines");
      }
      String line = new String(buf, pos, len, StandardCharsets.UTF_8);
      pos = end + 2;
      if (line.isEmpty()) {
        break;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw SubmitException.badRequest(
            "malformed_multipart", "a part header is not 'Name: value'");
      }
      String header = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      if (header.equals("content-disposition")) {
        name = param(value, "name");
        filename = param(value, "filename");
      } else if (header.equals("content-type")) {
        contentType = value;
      }
    }
    if (name == null || name.isEmpty()) {
      throw SubmitException.badRequest(
          "malformed_multipart", "a part has no Content-Disposition name");
    }
    return new Part(name, filename, contentType);
  }

  /** The index of the next CRLF at or after pos, with the line in the buffer. */
  private int lineEnd() throws IOException {
    int from = pos;
    while (true) {
      for (int i = from; i + 1 < lim; i++) {
        if (buf[i] == '\r' && buf[i + 1] == '\n') {
          return i;
        }
      }
      if (!fill()) {
        throw truncated();
      }
      from = pos; // a header line is short: scanning it again costs little
      if (lim - pos > MAX_PART_HEADER_BYTES + 2) {
        throw SubmitException.badRequest(
            "malformed_multipart",
            "a part header line is longer than " + MAX_PART_HEADER_BYTES + " bytes");
      }
    }
  }

  /**
   * A parameter of a Content-Disposition value ({@code form-data; name="x"; filename="y"}),
   * quoted or not; null when absent. {@code filename*} (RFC 5987) is not {@code filename}.
   */
  static String param(String value, String wanted) {
    int i = value.indexOf(';');
    if (i < 0) {
      return null;
    }
    int n = value.length();
    while (i < n) {
      i++; // past ';'
      while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
        i++;
      }
      int eq = value.indexOf('=', i);
      if (eq < 0) {
        return null;
      }
      String key = value.substring(i, eq).strip();
      i = eq + 1;
      StringBuilder v = new StringBuilder();
      if (i < n && value.charAt(i) == '"') {
        i++;
        while (i < n && value.charAt(i) != '"') {
          char c = value.charAt(i);
          if (c == '\\' && i + 1 < n) {
            c = value.charAt(++i);
          }
          v.append(c);
          i++;
        }
        i++; // closing quote
        while (i < n && value.charAt(i) != ';') {
          i++;
        }
      } else {
        while (i < n && value.charAt(i) != ';') {
          v.append(value.charAt(i++));
        }
      }
      if (key.equalsIgnoreCase(wanted)) {
        return wanted.equals("filename") ? v.toString() : v.toString().strip();
      }
    }
    return null;
  }

  /** Reads and discards up to the next delimiter, at most {@code max} bytes (then refuses with {@code why}). */
  private void skipTo(long max, String why) throws IOException {
    byte[] scratch = new byte[8192];
    long skipped = 0;
    int n;
    while ((n = readBody(scratch, 0, scratch.length)) > 0) {
      skipped += n;
      if (skipped > max) {
        throw SubmitException.badRequest("malformed_multipart", why);
      }
    }
  }

  private int readBody(byte[] b, int off, int len) throws IOException {
    if (body.ended) {
      return -1;
    }
    while (true) {
      int i = indexOfDelimiter();
      if (i == pos) {
        pos += delimiter.length;
        body.ended = true;
        return -1;
      }
      int safe = i >= 0 ? i - pos : lim - pos - (delimiter.length - 1);
      if (safe > 0) {
        int n = Math.min(len, safe);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
      }
      if (!fill()) {
        throw truncated();
      }
    }
  }

  private int indexOfDelimiter() {
    byte first = delimiter[0];
    int last = lim - delimiter.length;
    outer:
    for (int i = pos; i <= last; i++) {
      if (buf[i] != first) {
        continue;
      }
      for (int j = 1; j < delimiter.length; j++) {
        if (buf[i + j] != delimiter[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** At least {@code n} bytes after pos unless the input ended. */
  private void ensure(int n) throws IOException {
    while (lim - pos < n && fill()) {
      // filled
    }
  }

  /** Moves what is unread to the front and reads more; false at the end of the input (nothing read). */
  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, lim - pos);
      lim -= pos;
      pos = 0;
    }
    if (lim == buf.length) {
      throw new IllegalStateException(
          "multipart buffer full"); // bounded lines and delimiters never fill it
    }
    int n = in.read(buf, lim, buf.length - lim);
    if (n < 0) {
      eof = true;
      return false;
    }
    lim += n;
    return true;
  }

  private static SubmitException truncated() {
    return SubmitException.badRequest(
        "truncated", "the body ends before its closing multipart boundary");
  }

  private final class PartBody extends InputStream {
    boolean ended;

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      return readBody(b, off, len);
    }
  }
}

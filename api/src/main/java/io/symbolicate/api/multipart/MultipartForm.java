package io.symbolicate.api.multipart;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code multipart/form-data} body (RFC 7578) already held in memory, split into its parts
 * without copying them. Bounded: at most {@link #MAX_PARTS} parts, part headers of at most
 * {@link #MAX_HEADER_BYTES} each, a boundary of at most {@link #MAX_BOUNDARY} characters (RFC
 * 2046); the body's own size is the caller's limit. Every refusal is a {@link MultipartException}
 * with a reason. Parts are read by their {@code Content-Disposition} name; a
 * {@code Content-Transfer-Encoding} other than binary is not supported (browsers and HTTP
 * clients never send one).
 */
public final class MultipartForm {
  public static final int MAX_PARTS = 64;
  public static final int MAX_HEADER_BYTES = 8 * 1024;
  public static final int MAX_BOUNDARY = 70;

  /** One part: its name, file name (or null), content type (or null) and bytes. */
  public record Part(
      String name, String filename, String contentType, byte[] body, int offset, int length) {
    public byte[] bytes() {
      byte[] out = new byte[length];
      System.arraycopy(body, offset, out, 0, length);
      return out;
    }

    public String text() {
      return new String(body, offset, length, StandardCharsets.UTF_8);
    }
  }

  private final List<Part> parts;

  private MultipartForm(List<Part> parts) {
    this.parts = List.copyOf(parts);
  }

  public List<Part> parts() {
    return parts;
  }

  /** The first part of that name, or null. */
  public Part part(String name) {
    for (Part p : parts) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    return null;
  }

  /** The boundary of a {@code multipart/form-data} content type. */
  public static String boundary(String contentType) throws MultipartException {
    if (contentType == null) {
      throw new MultipartException("Content-Type must be multipart/form-data; none was given");
    }
    String[] params = contentType.split(";");
    if (!params[0].trim().toLowerCase(Locale.ROOT).equals("multipart/form-data")) {
      throw new MultipartException(
          "Content-Type must be multipart/form-data, got " + shorten(params[0].trim()));
    }
    for (int i = 1; i < params.length; i++) {
      String p = params[i].trim();
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).trim().equalsIgnoreCase("boundary")) {
        String b = unquote(p.substring(eq + 1).trim());
        if (b.isEmpty() || b.length() > MAX_BOUNDARY) {
          throw new MultipartException(
              "the multipart boundary must be 1 to " + MAX_BOUNDARY + " characters");
        }
        return b;
      }
    }
    throw new MultipartException("Content-Type multipart/form-data has no boundary");
  }

  /** Parses a body sent with {@code contentType}. */
  public static MultipartForm parse(byte[] body, String contentType) throws MultipartException {
    byte[] dashBoundary = ("--" + boundary(contentType)).getBytes(StandardCharsets.ISO_8859_1);
    byte[] delimiter = ("\r\n--" + boundary(contentType)).getBytes(StandardCharsets.ISO_8859_1);
    // the first boundary: at the start, or after a preamble ending in CRLF
    int pos;
    if (startsWith(body, 0, dashBoundary)) {
      pos = dashBoundary.length;
    } else {
      int d = indexOf(body, delimiter, 0);
      if (d < 0) {
        throw new MultipartException("the body holds no multipart boundary");
      }
      pos = d + delimiter.length;
    }
    List<Part> parts = new ArrayList<>();
    while (true) {
      if (startsWith(body, pos, new byte[] {'-', '-'})) {
        return new MultipartForm(parts); // the close delimiter; an epilogue is ignored
      }
      pos = skipTransportPadding(body, pos);
      if (!startsWith(body, pos, new byte[] {'\r', '\n'})) {
        throw new MultipartException(
            "a multipart boundary is not followed by CRLF (byte " + pos + ")");
      }
      pos += 2;
      if (parts.size() == MAX_PARTS) {
        throw new MultipartException("more than " + MAX_PARTS + " parts");
      }
      int headerEnd =
          indexOf(
              body,
              new byte[] {'\r', '\n', '\r', '\n'},
              pos,
              Math.min(body.length, pos + MAX_HEADER_BYTES + 4));
      int contentStart;
      String headers;
      if (startsWith(body, pos, new byte[] {'\r', '\n'})) {
        headers = "";
        contentStart = pos + 2;
      } else if (headerEnd < 0) {
        throw new MultipartException(
            "part "
                + parts.size()
                + ": headers are unterminated or longer than "
                + MAX_HEADER_BYTES
                + " bytes");
      } else {
        headers = new String(body, pos, headerEnd - pos, StandardCharsets.UTF_8);
        contentStart = headerEnd + 4;
      }
      int end = indexOf(body, delimiter, contentStart);
      if (end < 0) {
        throw new MultipartException(
            "part " + parts.size() + " is not closed by a boundary (truncated body?)");
      }
      parts.add(part(parts.size(), headers, body, contentStart, end - contentStart));
      pos = end + delimiter.length;
    }
  }

  private static Part part(int index, String headers, byte[] body, int offset, int length)
      throws MultipartException {
    String name = null;
    String filename = null;
    String contentType = null;
    for (String line : headers.split("\r\n")) {
      if (line.isEmpty()) {
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new MultipartException("part " + index + ": malformed header line " + shorten(line));
      }
      String key = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (key) {
        case "content-disposition" -> {
          String[] params = value.split(";");
          if (!params[0].trim().equalsIgnoreCase("form-data")) {
            throw new MultipartException(
                "part " + index + ": Content-Disposition must be form-data");
          }
          for (int i = 1; i < params.length; i++) {
            String p = params[i].trim();
            int eq = p.indexOf('=');
            if (eq <= 0) {
              continue;
            }
            String k = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            if (k.equals("name")) {
              name = unquote(p.substring(eq + 1).trim());
            } else if (k.equals("filename")) {
              filename = unquote(p.substring(eq + 1).trim());
            }
          }
        }
        case "content-type" -> contentType = value;
        case "content-transfer-encoding" -> {
          String enc = value.toLowerCase(Locale.ROOT);
          if (!enc.equals("binary") && !enc.equals("8bit") && !enc.equals("7bit")) {
            throw new MultipartException(
                "part "
                    + index
                    + ": Content-Transfer-Encoding "
                    + shorten(value)
                    + " is not supported");
          }
        }
        default -> {}
      }
    }
    if (name == null) {
      throw new MultipartException("part " + index + " has no Content-Disposition name");
    }
    return new Part(name, filename, contentType, body, offset, length);
  }

  /** RFC 2046 allows spaces and tabs between a boundary and its CRLF. */
  private static int skipTransportPadding(byte[] b, int pos) {
    while (pos < b.length && (b[pos] == ' ' || b[pos] == '\t')) {
      pos++;
    }
    return pos;
  }

  private static String unquote(String s) {
    if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
      return s.substring(1, s.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }
    return s;
  }

  private static String shorten(String s) {
    return "'" + (s.length() > 80 ? s.substring(0, 80) + "..." : s) + "'";
  }

  private static boolean startsWith(byte[] b, int at, byte[] prefix) {
    if (at < 0 || at + prefix.length > b.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (b[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] b, byte[] needle, int from) {
    return indexOf(b, needle, from, b.length);
  }

  /** First index of {@code needle} starting in [from, to - needle.length]; linear for our needles (CRLF-led). */
  private static int indexOf(byte[] b, byte[] needle, int from, int to) {
    byte first = needle[0];
    for (int i = from; i <= to - needle.length; i++) {
      if (b[i] == first && startsWith(b, i, needle)) {
        return i;
      }
    }
    return -1;
  }
}

package io.symbolicate.connectors.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A symbol store's {@code file.ptr}: instead of the file, one line {@code PATH:<where it is>}
 * (often a share of the same store) or {@code MSG:<why it is not there>}, as {@code symstore.exe
 * /p} writes it. Followed only to a key of the same source ({@link SymbolSource#keyOfPointer}),
 * once: a pointer to a pointer is not followed.
 */
public final class FilePointer {
  /** A pointer is one short line; anything longer is not one. */
  static final int MAX_BYTES = 4096;

  private FilePointer() {}

  /** What a {@code file.ptr} says: the path it points at, or null and the store's message. */
  public record Target(String path, String message) {}

  /** Reads a pointer's body (at most {@link #MAX_BYTES}); throws for one that is not a pointer. */
  public static Target read(InputStream in) throws IOException {
    byte[] b = in.readNBytes(MAX_BYTES + 1);
    if (b.length > MAX_BYTES) {
      throw new IOException("file.ptr longer than " + MAX_BYTES + " bytes");
    }
    String text = new String(b, StandardCharsets.UTF_8).strip();
    int nl = text.indexOf('\n');
    String line = (nl < 0 ? text : text.substring(0, nl)).strip();
    if (line.regionMatches(true, 0, "PATH:", 0, 5)) {
      return new Target(line.substring(5).strip(), null);
    }
    if (line.regionMatches(true, 0, "MSG:", 0, 4)) {
      return new Target(null, line.substring(4).strip());
    }
    throw new IOException("file.ptr is neither PATH: nor MSG:");
  }

  /**
   * A relative path as a key: separators made {@code /}; null for an absolute path (a leading
   * separator, a drive letter, a UNC share), a URL, or one with dot or empty segments.
   */
  public static String relativeKey(String path) {
    if (path == null || path.isEmpty()) {
      return null;
    }
    String p = path.replace('\\', '/');
    if (p.startsWith("/") || p.indexOf(':') >= 0) {
      return null;
    }
    for (String seg : p.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
        return null;
      }
      for (int i = 0; i < seg.length(); i++) {
        char c = seg.charAt(i);
        if (c < 0x20 || c == 0x7f) {
          return null;
        }
      }
    }
    return p;
  }
}

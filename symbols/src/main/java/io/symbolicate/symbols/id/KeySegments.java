package io.symbolicate.symbols.id;

import java.nio.charset.StandardCharsets;

/** Makes arbitrary text (a release, a URL) safe as one path segment of a storage key. */
public final class KeySegments {
  private KeySegments() {}

  /**
   * Percent-encodes every byte outside RFC 3986's unreserved set, and the dot segments, so the
   * result can never escape its prefix or mean anything to a path resolver.
   */
  public static String encode(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xFF;
      if (c >= 'a' && c <= 'z'
          || c >= 'A' && c <= 'Z'
          || c >= '0' && c <= '9'
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%')
            .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    String out = sb.toString();
    return out.equals(".") ? "%2E" : out.equals("..") ? "%2E%2E" : out;
  }
}

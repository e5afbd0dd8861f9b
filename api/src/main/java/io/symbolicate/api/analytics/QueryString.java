package io.symbolicate.api.analytics;

import io.symbolicate.api.ApiException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The parameters of a GET request: each at most once, known names only, strict percent-decoding. */
final class QueryString {
  /** Longer query strings are refused before they are parsed. */
  static final int MAX_LENGTH = 4096;

  private QueryString() {}

  static Map<String, String> parse(String rawQuery, Set<String> known) {
    Map<String, String> out = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    if (rawQuery.length() > MAX_LENGTH) {
      throw ApiException.badRequest("query string longer than " + MAX_LENGTH + " characters");
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
      if (!known.contains(name)) {
        throw ApiException.badRequest(
            "unknown parameter '" + printable(name) + "'; known: " + String.join(", ", known));
      }
      if (out.put(name, value) != null) {
        throw ApiException.badRequest("parameter '" + name + "' given twice");
      }
    }
    return out;
  }

  /** Percent-decoding as UTF-8; {@code plusIsSpace} for query strings (a path keeps '+'). */
  static String decode(String s, boolean plusIsSpace) {
    byte[] out = new byte[s.length()];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          throw ApiException.badRequest("incomplete percent escape in '" + printable(s) + "'");
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw ApiException.badRequest("bad percent escape in '" + printable(s) + "'");
        }
        out[n++] = (byte) (hi << 4 | lo);
        i += 2;
      } else if (c == '+' && plusIsSpace) {
        out[n++] = ' ';
      } else if (c < 0x80) {
        out[n++] = (byte) c;
      } else {
        throw ApiException.badRequest("unescaped non-ASCII character in the URL");
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out, 0, n))
          .toString();
    } catch (CharacterCodingException e) {
      throw ApiException.badRequest("percent escapes that are not UTF-8");
    }
  }

  /** At most 100 characters, control characters as '?', for an error message. */
  static String printable(String s) {
    String cut = s.length() > 100 ? s.substring(0, 100) + "..." : s;
    StringBuilder b = new StringBuilder(cut.length());
    cut.codePoints().forEach(cp -> b.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
    return b.toString();
  }
}

package io.symbolicate.signatures;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The text helpers of siggen's utils module, with its exact semantics: collapsing delimited
 * spans of a function name, dropping prefixes and return types, reading the file name out of a
 * VCS source path, dropping non-printable characters, and hex offsets without leading zeros.
 * All are linear in the length of their input.
 */
final class FrameText {
  private FrameText() {}

  /**
   * Replaces each top-level span from {@code open} to its matching {@code close} with
   * {@code replacement}, except where an exception string ends just before the span (or before
   * its closing delimiter) or occurs inside it. An unclosed span at the end is treated the same.
   */
  static String collapse(
      String function, char open, char close, String replacement, List<String> exceptions) {
    int first = function.indexOf(open);
    if (first < 0) {
      return function; // nothing to collapse (most names have no templates)
    }
    // by index, not char by char into builders: the text outside collapsed spans and the spans
    // kept as exceptions are copied in runs, and a span's token is the range it covers
    StringBuilder collapsed = null;
    int copied = 0; // function[0, copied) is in collapsed (or unchanged, while it is null)
    int tokenStart = -1;
    int depth = 0;
    int n = function.length();
    for (int i = first; i < n; i++) {
      char c = function.charAt(i);
      if (depth == 0) {
        if (c == open && !isException(exceptions, function, i, -1, -1)) {
          depth++;
          tokenStart = i;
        }
      } else if (c == open) {
        depth++;
      } else if (c == close) {
        depth--;
        if (depth == 0) {
          if (!isException(exceptions, function, i, tokenStart, i + 1)) {
            if (collapsed == null) {
              collapsed = new StringBuilder(n);
            }
            collapsed.append(function, copied, tokenStart).append(replacement);
            copied = i + 1;
          }
          tokenStart = -1;
        }
      }
    }
    if (depth > 0 && !isException(exceptions, function, n - 1, tokenStart, n)) {
      // siggen looks at the text before the last character here
      if (collapsed == null) {
        collapsed = new StringBuilder(n);
      }
      collapsed.append(function, copied, tokenStart).append(replacement);
      copied = n;
    }
    if (collapsed == null) {
      return function;
    }
    return collapsed.append(function, copied, n).toString();
  }

  /**
   * siggen's _is_exception: the text before index {@code i} ends with one, or the token (the
   * range {@code function[tokenStart, tokenEnd)}, none when {@code tokenStart < 0}) holds one.
   */
  private static boolean isException(
      List<String> exceptions, String function, int i, int tokenStart, int tokenEnd) {
    if (exceptions == null) {
      return false;
    }
    for (int e = 0; e < exceptions.size(); e++) {
      String s = exceptions.get(e);
      if (i >= s.length() && function.startsWith(s, i - s.length())) {
        return true;
      }
      if (s.isEmpty() || (tokenStart >= 0 && holds(function, tokenStart, tokenEnd, s))) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code s} occurs within {@code text[from, to)} (linear in the range for short s). */
  private static boolean holds(String text, int from, int to, String s) {
    int len = s.length();
    char head = s.charAt(0);
    for (int at = from; at <= to - len; at++) {
      if (text.charAt(at) == head && text.startsWith(s, at)) {
        return true;
      }
    }
    return false;
  }

  private static char closerOf(char c) {
    return switch (c) {
      case '(' -> ')';
      case '{' -> '}';
      case '[' -> ']';
      case '<' -> '>';
      case '`' -> '\'';
      default -> 0;
    };
  }

  private static boolean isCloser(char c) {
    return c == ')' || c == '}' || c == ']' || c == '>' || c == '\'';
  }

  /**
   * siggen's drop_prefix_and_return_type: splits on spaces outside (), {}, [], <> and `'
   * pairs and keeps the last token, rejoining a trailing "(...)" or "[clone ...]" token with
   * the one before it.
   */
  static String dropPrefixAndReturnType(String function) {
    if (!function.isEmpty() && !hasTopLevelSpace(function)) {
      return function; // one token: the name itself (no prefix, no return type)
    }
    List<String> tokens = new ArrayList<>();
    StringBuilder levels = new StringBuilder();
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < function.length(); i++) {
      char c = function.charAt(i);
      if (closerOf(c) != 0) {
        levels.append(c);
        current.append(c);
      } else if (isCloser(c)) {
        if (levels.length() > 0 && closerOf(levels.charAt(levels.length() - 1)) == c) {
          levels.setLength(levels.length() - 1);
        }
        current.append(c);
      } else if (levels.length() > 0) {
        current.append(c);
      } else if (c == ' ') {
        tokens.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (current.length() > 0) {
      tokens.add(current.toString());
    }
    if (tokens.isEmpty()) {
      throw new RuleFailure("IndexError", "list index out of range");
    }
    while (tokens.size() > 1) {
      String last = tokens.get(tokens.size() - 1);
      if (!last.startsWith("(") && !last.startsWith("[clone")) {
        break;
      }
      String joined = tokens.get(tokens.size() - 2) + " " + last;
      tokens.remove(tokens.size() - 1);
      tokens.set(tokens.size() - 1, joined);
    }
    return tokens.get(tokens.size() - 1);
  }

  /**
   * Whether {@link #dropPrefixAndReturnType} would split {@code function}: a space outside the
   * pairs, with the same rules for nesting (a closer ends its level only when it matches).
   */
  private static boolean hasTopLevelSpace(String function) {
    if (function.indexOf(' ') < 0) {
      return false; // no space at all (one scan, vectorized)
    }
    char[] levels = null;
    int depth = 0;
    for (int i = 0; i < function.length(); i++) {
      char c = function.charAt(i);
      if (closerOf(c) != 0) {
        if (levels == null) {
          levels = new char[16];
        } else if (depth == levels.length) {
          levels = Arrays.copyOf(levels, 2 * depth);
        }
        levels[depth++] = c;
      } else if (isCloser(c)) {
        if (depth > 0 && closerOf(levels[depth - 1]) == c) {
          depth--;
        }
      } else if (depth == 0 && c == ' ') {
        return true;
      }
    }
    return false;
  }

  /**
   * siggen's parse_source_file: the path inside "vcs:root:path:revision", the path after a
   * Windows drive letter, an absolute Unix path as is, else {@code null}.
   */
  static String parseSourceFile(String sourceFile) {
    if (sourceFile == null || sourceFile.isEmpty()) {
      return null;
    }
    if (sourceFile.indexOf(':') < 0) {
      return sourceFile.charAt(0) == '/' ? sourceFile : null; // no colon: no count to make
    }
    int colons = 0;
    for (int i = 0; i < sourceFile.length() && colons < 4; i++) {
      if (sourceFile.charAt(i) == ':') {
        colons++;
      }
    }
    if (colons == 3) {
      String[] parts = sourceFile.split(":", -1);
      return parts[2];
    }
    if (colons == 1) {
      return sourceFile.substring(sourceFile.indexOf(':') + 1);
    }
    if (sourceFile.startsWith("/")) {
      return sourceFile;
    }
    return null;
  }

  /** siggen's drop_bad_characters: keeps ASCII 32..126 only. */
  static String dropBadCharacters(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (PythonBuiltins.isPrintableAscii(c)) {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * siggen's strip_leading_zeros: Python's hex(int(text, 16)) for a string (so "0x0032ec0"
   * becomes "0x32ec0"), the value unchanged when it is not a string or not hex.
   */
  static Object stripLeadingZeros(Object value) {
    if (!(value instanceof String text)) {
      return value;
    }
    BigInteger parsed = parseHex(text);
    if (parsed == null) {
      return text;
    }
    return (parsed.signum() < 0 ? "-0x" : "0x")
        + parsed.abs().toString(16).toLowerCase(Locale.ROOT);
  }

  /** Python's int(text, 16): whitespace, sign, optional 0x, hex digits with single underscores. */
  private static BigInteger parseHex(String raw) {
    String s = PythonBuiltins.strip(raw);
    int i = 0;
    boolean negative = false;
    if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      negative = s.charAt(i) == '-';
      i++;
    }
    boolean prefixed = false;
    if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
      i += 2;
      prefixed = true;
    }
    StringBuilder digits = new StringBuilder();
    boolean lastUnderscore = !prefixed;
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '_') {
        if (lastUnderscore) {
          return null;
        }
        lastUnderscore = true;
      } else if (Character.digit(c, 16) >= 0 && c < 128) {
        digits.append(c);
        lastUnderscore = false;
      } else {
        return null;
      }
    }
    if (digits.length() == 0 || lastUnderscore) {
      return null;
    }
    BigInteger v = new BigInteger(digits.toString(), 16);
    return negative ? v.negate() : v;
  }
}

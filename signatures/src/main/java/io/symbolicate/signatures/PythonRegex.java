package io.symbolicate.signatures;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Compiles the regular expressions of siggen's list files, which are written in Python's
 * syntax, to java.util.regex patterns that match the same strings. The differences that matter
 * for such lists: a '{' that does not start a repetition is a literal in Python (Java rejects
 * it); '[' and "&&" inside a class are literals in Python (Java nests and intersects);
 * {@code (?P<name>)}, {@code (?P=name)}, {@code (?#...)}, {@code \Z}, {@code \v} and
 * {@code {,n}} are spelled differently. '.', '^' and '$' treat only '\n' as a line end, and
 * {@code \d \w \s} are Unicode-aware, as in Python 3.
 */
final class PythonRegex {
  static final int FLAGS = Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS;

  private PythonRegex() {}

  static Pattern compile(String python) {
    return Pattern.compile(translate(python), FLAGS);
  }

  static String translate(String p) {
    StringBuilder out = new StringBuilder(p.length() + 8);
    int n = p.length();
    int i = 0;
    while (i < n) {
      char c = p.charAt(i);
      if (c == '\\') {
        i = escape(p, i, out);
      } else if (c == '[') {
        i = charClass(p, i, out);
      } else if (c == '{') {
        int end = quantifierEnd(p, i);
        if (end < 0) {
          out.append("\\{");
          i++;
        } else {
          String body = p.substring(i + 1, end);
          out.append('{').append(body.startsWith(",") ? "0" + body : body).append('}');
          i = end + 1;
        }
      } else if (c == '(' && p.startsWith("(?P<", i)) {
        out.append("(?<");
        i += 4;
      } else if (c == '(' && p.startsWith("(?P=", i)) {
        int close = p.indexOf(')', i);
        if (close < 0) {
          throw new PatternSyntaxException("unterminated group reference", p, i);
        }
        out.append("\\k<").append(p, i + 4, close).append('>');
        i = close + 1;
      } else if (c == '(' && p.startsWith("(?#", i)) {
        int close = p.indexOf(')', i);
        if (close < 0) {
          throw new PatternSyntaxException("missing ), unterminated comment", p, i);
        }
        i = close + 1;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** Copies the escape at {@code p[i]} (a backslash) and returns the index after it. */
  private static int escape(String p, int i, StringBuilder out) {
    if (i + 1 >= p.length()) {
      throw new PatternSyntaxException("bad escape (end of pattern)", p, i);
    }
    char next = p.charAt(i + 1);
    switch (next) {
      case 'Z' -> out.append("\\z");
      case 'v' -> out.append("\\x0B");
      case 'U' -> {
        if (i + 10 > p.length()) {
          throw new PatternSyntaxException("incomplete escape \\U", p, i);
        }
        out.append("\\x{").append(p, i + 2, i + 10).append('}');
        return i + 10;
      }
      case '0' -> {
        // Python: \0 plus up to two more octal digits; Java needs the leading 0 and 1-3 digits.
        int j = i + 2;
        while (j < p.length() && j < i + 4 && p.charAt(j) >= '0' && p.charAt(j) <= '7') {
          j++;
        }
        out.append("\\0").append(j == i + 2 ? "0" : p.substring(i + 2, j));
        return j;
      }
      default -> out.append('\\').append(next);
    }
    return i + 2;
  }

  /** Copies the character class starting at {@code p[i]} ('[') and returns the index after it. */
  private static int charClass(String p, int i, StringBuilder out) {
    int n = p.length();
    out.append('[');
    int j = i + 1;
    if (j < n && p.charAt(j) == '^') {
      out.append('^');
      j++;
    }
    if (j < n && p.charAt(j) == ']') {
      out.append("\\]");
      j++;
    }
    while (j < n) {
      char c = p.charAt(j);
      if (c == ']') {
        out.append(']');
        return j + 1;
      }
      if (c == '\\') {
        j = escape(p, j, out);
        continue;
      }
      if (c == '[' || c == '&' || c == '{' || c == '}') {
        out.append('\\');
      }
      out.append(c);
      j++;
    }
    throw new PatternSyntaxException("unterminated character set", p, i);
  }

  /** Index of the '}' closing a Python repetition {m}, {m,}, {,n}, {m,n}, {,}; else -1. */
  private static int quantifierEnd(String p, int i) {
    int j = i + 1;
    int n = p.length();
    int digitsBefore = 0;
    while (j < n && Character.isDigit(p.charAt(j)) && p.charAt(j) < 128) {
      j++;
      digitsBefore++;
    }
    if (j < n && p.charAt(j) == '}') {
      return digitsBefore > 0 ? j : -1;
    }
    if (j >= n || p.charAt(j) != ',') {
      return -1;
    }
    j++;
    while (j < n && Character.isDigit(p.charAt(j)) && p.charAt(j) < 128) {
      j++;
    }
    return j < n && p.charAt(j) == '}' ? j : -1;
  }
}

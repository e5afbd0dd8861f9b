package io.symbolicate.signatures;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The few Python built-in behaviours that Socorro's rules lean on (str.strip, str.splitlines,
 * truthiness, str() and int() of JSON values), written out so that our signatures match
 * siggen's character for character. Values are the plain Java forms {@link JsonValues} reads:
 * String, Long, BigInteger, Double, Boolean, List, Map, or {@code null} for JSON null.
 */
final class PythonBuiltins {
  private PythonBuiltins() {}

  /** Python's str.isspace for one character (the Unicode White_Space set Python uses). */
  static boolean isSpace(char c) {
    switch (c) {
      case '\t',
          '\n',
          0x0b,
          0x0c,
          '\r',
          0x1c,
          0x1d,
          0x1e,
          0x1f,
          ' ',
          0x85,
          0xa0,
          0x1680,
          0x2028,
          0x2029,
          0x202f,
          0x205f,
          0x3000 -> {
        return true;
      }
      default -> {
        return c >= 0x2000 && c <= 0x200a;
      }
    }
  }

  /** str.strip() */
  static String strip(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  /** str.strip(chars) */
  static String strip(String s, String chars) {
    int start = 0;
    int end = s.length();
    while (start < end && chars.indexOf(s.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return s.substring(start, end);
  }

  /** str.rstrip(chars) */
  static String rstrip(String s, String chars) {
    int end = s.length();
    while (end > 0 && chars.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return s.substring(0, end);
  }

  private static boolean isLineBreak(char c) {
    return c == '\n'
        || c == '\r'
        || c == 0x0b
        || c == 0x0c
        || c == 0x1c
        || c == 0x1d
        || c == 0x1e
        || c == 0x85
        || c == 0x2028
        || c == 0x2029;
  }

  /**
   * The first {@code limit} items of str.splitlines(), without reading further: a stack trace
   * of megabytes costs only its first lines.
   */
  static List<String> firstLines(String s, int limit) {
    List<String> lines = new ArrayList<>(Math.min(limit, 4));
    int start = 0;
    int n = s.length();
    while (start < n && lines.size() < limit) {
      int i = start;
      while (i < n && !isLineBreak(s.charAt(i))) {
        i++;
      }
      lines.add(s.substring(start, i));
      if (i < n && s.charAt(i) == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') {
        i++;
      }
      start = i + 1;
    }
    return lines;
  }

  /** Printable ASCII, the only characters a final signature keeps. */
  static boolean isPrintableAscii(char c) {
    return c >= 0x20 && c < 0x7f;
  }

  /** The first {@code n} code points of {@code s} (Python slices count code points). */
  static String headCodePoints(String s, int n) {
    if (s.length() <= n) {
      return s;
    }
    if (s.codePointCount(0, s.length()) <= n) {
      return s;
    }
    return s.substring(0, s.offsetByCodePoints(0, n));
  }

  static int codePointLength(String s) {
    return s.codePointCount(0, s.length());
  }

  /** Python truthiness of a JSON value. */
  static boolean truthy(Object v) {
    if (v == null) {
      return false;
    }
    if (v instanceof String s) {
      return !s.isEmpty();
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof Long l) {
      return l != 0;
    }
    if (v instanceof BigInteger b) {
      return b.signum() != 0;
    }
    if (v instanceof Double d) {
      return d != 0.0;
    }
    if (v instanceof List<?> l) {
      return !l.isEmpty();
    }
    if (v instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }

  /** Python's type name, for the messages of failures siggen would report. */
  static String typeName(Object v) {
    if (v == null) {
      return "NoneType";
    }
    if (v instanceof String) {
      return "str";
    }
    if (v instanceof Boolean) {
      return "bool";
    }
    if (v instanceof Long || v instanceof BigInteger) {
      return "int";
    }
    if (v instanceof Double) {
      return "float";
    }
    if (v instanceof List) {
      return "list";
    }
    return "dict";
  }

  /** Python's str() of a JSON value. */
  static String str(Object v) {
    if (v instanceof String s) {
      return s;
    }
    return repr(v);
  }

  /** Python's repr() of a JSON value (what str() of a container prints). */
  static String repr(Object v) {
    if (v == null) {
      return "None";
    }
    if (v instanceof String s) {
      return reprString(s);
    }
    if (v instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (v instanceof Long || v instanceof BigInteger) {
      return v.toString();
    }
    if (v instanceof Double d) {
      return reprFloat(d);
    }
    StringBuilder sb = new StringBuilder();
    if (v instanceof List<?> list) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(repr(list.get(i)));
      }
      return sb.append(']').toString();
    }
    Map<?, ?> map = (Map<?, ?>) v;
    sb.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(repr(e.getKey())).append(": ").append(repr(e.getValue()));
    }
    return sb.append('}').toString();
  }

  static String reprString(String s) {
    char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
    StringBuilder sb = new StringBuilder(s.length() + 2).append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == quote || c == '\\') {
        sb.append('\\').append(c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append(quote).toString();
  }

  /** repr(float): shortest round-trip digits, Python's exponent style. */
  static String reprFloat(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    BigDecimal bd = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    int exponent = bd.precision() - bd.scale() - 1;
    if (exponent >= -5 && exponent < 16) {
      String plain = bd.toPlainString();
      return plain.contains(".") ? plain : plain + ".0";
    }
    String digits = bd.unscaledValue().abs().toString();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    String sign = d < 0 ? "-" : "";
    return sign
        + mantissa
        + "e"
        + (exponent < 0 ? "-" : "+")
        + (Math.abs(exponent) < 10 ? "0" : "")
        + Math.abs(exponent);
  }

  /**
   * Python's int(v) for a JSON value, or a {@link RuleFailure} with Python's message where int()
   * raises ValueError; {@code null} where it raises TypeError (None, containers).
   */
  static BigInteger toIntOrNull(Object v) {
    if (v instanceof Long l) {
      return BigInteger.valueOf(l);
    }
    if (v instanceof BigInteger b) {
      return b;
    }
    if (v instanceof Boolean b) {
      return b ? BigInteger.ONE : BigInteger.ZERO;
    }
    if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new RuleFailure("cannot convert float " + reprFloat(d) + " to integer");
      }
      return new BigDecimal(d).toBigInteger();
    }
    if (v instanceof String s) {
      BigInteger parsed = parseIntLiteral(s);
      if (parsed == null) {
        throw new RuleFailure("invalid literal for int() with base 10: " + reprString(s));
      }
      return parsed;
    }
    return null;
  }

  /** int(str): optional whitespace and sign, decimal digits with single underscores between. */
  static BigInteger parseIntLiteral(String raw) {
    String s = strip(raw);
    int i = 0;
    boolean negative = false;
    if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      negative = s.charAt(i) == '-';
      i++;
    }
    if (i >= s.length() || s.length() > 4300) {
      return null;
    }
    StringBuilder digits = new StringBuilder(s.length());
    boolean lastUnderscore = true;
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '_') {
        if (lastUnderscore) {
          return null;
        }
        lastUnderscore = true;
      } else if (Character.isDigit(c)) {
        digits.append(Character.digit(c, 10));
        lastUnderscore = false;
      } else {
        return null;
      }
    }
    if (lastUnderscore) {
      return null;
    }
    BigInteger value = new BigInteger(digits.toString());
    return negative ? value.negate() : value;
  }
}

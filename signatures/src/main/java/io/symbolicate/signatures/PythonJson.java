package io.symbolicate.signatures;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's json module where its exact behaviour shows in a signature or note: loads() for the
 * AsyncShutdownTimeout annotation (a JSON string inside the crash data, whose parse errors
 * siggen puts in a note with Python's wording and positions), and dumps(ensure_ascii=True)
 * string escaping for signify's output. Values are Map, List, String, Long, BigInteger, Double,
 * Boolean, or null.
 */
final class PythonJson {
  /** Nesting deeper than this fails the rule, as Python's recursion limit would (ours is lower). */
  static final int MAX_DEPTH = 64;

  private PythonJson() {}

  /** Python's json.JSONDecodeError (a ValueError): message with line, column and char. */
  static final class DecodeError extends Exception {
    private static final long serialVersionUID = 1L;

    DecodeError(String msg, String doc, int pos) {
      super(format(msg, doc, pos), null, false, false);
    }

    private static String format(String msg, String doc, int pos) {
      int line = 1;
      int lastNewline = -1;
      for (int i = 0; i < pos && i < doc.length(); i++) {
        if (doc.charAt(i) == '\n') {
          line++;
          lastNewline = i;
        }
      }
      int cpPos = doc.codePointCount(0, Math.min(pos, doc.length()));
      int col = line == 1 ? cpPos + 1 : cpPos - doc.codePointCount(0, lastNewline + 1) + 1;
      return msg + ": line " + line + " column " + col + " (char " + cpPos + ")";
    }
  }

  private static final class StopIteration extends Exception {
    private static final long serialVersionUID = 1L;
    final int pos;

    StopIteration(int pos) {
      super(null, null, false, false);
      this.pos = pos;
    }
  }

  static Object loads(String s) throws DecodeError {
    if (s.startsWith("\ufeff")) {
      throw new DecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", s, 0);
    }
    PythonJson.Parser p = new PythonJson.Parser(s);
    int idx = p.ws(0);
    Object value;
    try {
      value = p.scanOnce(idx, 0);
    } catch (StopIteration e) {
      throw new DecodeError("Expecting value", s, e.pos);
    }
    int end = p.ws(p.end);
    if (end != s.length()) {
      throw new DecodeError("Extra data", s, end);
    }
    return value;
  }

  private static final class Parser {
    final String s;
    int end;

    Parser(String s) {
      this.s = s;
    }

    static boolean isWs(char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    int ws(int i) {
      while (i < s.length() && isWs(s.charAt(i))) {
        i++;
      }
      return i;
    }

    char at(int i) {
      return i < s.length() ? s.charAt(i) : 0;
    }

    /** Parses the value at idx; sets {@link #end} past it. */
    Object scanOnce(int idx, int depth) throws StopIteration, DecodeError {
      if (idx >= s.length()) {
        throw new StopIteration(idx);
      }
      char c = s.charAt(idx);
      switch (c) {
        case '"' -> {
          return scanString(idx + 1);
        }
        case '{' -> {
          enter(depth);
          return parseObject(idx + 1, depth + 1);
        }
        case '[' -> {
          enter(depth);
          return parseArray(idx + 1, depth + 1);
        }
        default -> {}
      }
      if (s.startsWith("null", idx)) {
        end = idx + 4;
        return null;
      }
      if (s.startsWith("true", idx)) {
        end = idx + 4;
        return Boolean.TRUE;
      }
      if (s.startsWith("false", idx)) {
        end = idx + 5;
        return Boolean.FALSE;
      }
      if (s.startsWith("NaN", idx)) {
        end = idx + 3;
        return Double.NaN;
      }
      if (s.startsWith("Infinity", idx)) {
        end = idx + 8;
        return Double.POSITIVE_INFINITY;
      }
      if (s.startsWith("-Infinity", idx)) {
        end = idx + 9;
        return Double.NEGATIVE_INFINITY;
      }
      return number(idx);
    }

    private void enter(int depth) {
      if (depth >= MAX_DEPTH) {
        throw new RuleFailure(
            "maximum recursion depth exceeded while decoding a JSON object from a unicode string");
      }
    }

    private Object number(int idx) throws StopIteration {
      int i = idx;
      if (at(i) == '-') {
        i++;
      }
      if (at(i) == '0') {
        i++;
      } else if (at(i) >= '1' && at(i) <= '9') {
        while (at(i) >= '0' && at(i) <= '9') {
          i++;
        }
      } else {
        throw new StopIteration(idx);
      }
      boolean isFloat = false;
      if (at(i) == '.' && at(i + 1) >= '0' && at(i + 1) <= '9') {
        isFloat = true;
        i += 2;
        while (at(i) >= '0' && at(i) <= '9') {
          i++;
        }
      }
      if (at(i) == 'e' || at(i) == 'E') {
        int j = i + 1;
        if (at(j) == '+' || at(j) == '-') {
          j++;
        }
        if (at(j) >= '0' && at(j) <= '9') {
          while (at(j) >= '0' && at(j) <= '9') {
            j++;
          }
          isFloat = true;
          i = j;
        }
      }
      String text = s.substring(idx, i);
      end = i;
      if (isFloat) {
        return Double.parseDouble(text);
      }
      if (text.length() > 4300) {
        throw new RuleFailure("Exceeds the limit (4300 digits) for integer string conversion");
      }
      BigInteger v = new BigInteger(text);
      return v.bitLength() < 64 ? (Object) v.longValue() : v;
    }

    private String scanString(int start) throws DecodeError {
      int begin = start - 1;
      StringBuilder sb = new StringBuilder();
      int i = start;
      while (true) {
        if (i >= s.length()) {
          throw new DecodeError("Unterminated string starting at", s, begin);
        }
        char c = s.charAt(i);
        if (c == '"') {
          end = i + 1;
          return sb.toString();
        }
        if (c < 0x20) {
          throw new DecodeError("Invalid control character at", s, i);
        }
        if (c != '\\') {
          sb.append(c);
          i++;
          continue;
        }
        i++;
        if (i >= s.length()) {
          throw new DecodeError("Unterminated string starting at", s, begin);
        }
        char esc = s.charAt(i);
        if (esc != 'u') {
          char out =
              switch (esc) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '/' -> '/';
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                default -> 0;
              };
          if (out == 0) {
            throw new DecodeError("Invalid \\escape", s, i - 1);
          }
          sb.append(out);
          i++;
          continue;
        }
        int uni = hex4(i + 1, i - 1);
        i += 5;
        if (uni >= 0xd800 && uni <= 0xdbff && s.startsWith("\\u", i)) {
          int uni2 = hex4(i + 2, i);
          if (uni2 >= 0xdc00 && uni2 <= 0xdfff) {
            sb.append((char) uni).append((char) uni2);
            i += 6;
            continue;
          }
        }
        sb.append((char) uni);
      }
    }

    private int hex4(int from, int errorPos) throws DecodeError {
      if (from + 4 > s.length()) {
        throw new DecodeError("Invalid \\uXXXX escape", s, errorPos);
      }
      int v = 0;
      for (int k = from; k < from + 4; k++) {
        int d = Character.digit(s.charAt(k), 16);
        if (d < 0 || s.charAt(k) > 127) {
          throw new DecodeError("Invalid \\uXXXX escape", s, errorPos);
        }
        v = v * 16 + d;
      }
      return v;
    }

    private Map<String, Object> parseObject(int start, int depth) throws DecodeError {
      Map<String, Object> map = new LinkedHashMap<>();
      int i = start;
      char next = at(i);
      if (next != '"') {
        i = ws(i);
        next = at(i);
        if (next == '}' && i < s.length()) {
          end = i + 1;
          return map;
        }
        if (next != '"' || i >= s.length()) {
          throw new DecodeError("Expecting property name enclosed in double quotes", s, i);
        }
      }
      i++;
      while (true) {
        String key = scanString(i);
        i = end;
        if (at(i) != ':' || i >= s.length()) {
          i = ws(i);
          if (at(i) != ':' || i >= s.length()) {
            throw new DecodeError("Expecting ':' delimiter", s, i);
          }
        }
        i = ws(i + 1);
        Object value;
        try {
          value = scanOnce(i, depth);
        } catch (StopIteration e) {
          throw new DecodeError("Expecting value", s, e.pos);
        }
        map.put(key, value);
        i = ws(end);
        char c = i < s.length() ? s.charAt(i) : 0;
        i++;
        if (c == '}' && i <= s.length()) {
          end = i;
          return map;
        }
        if (c != ',') {
          throw new DecodeError("Expecting ',' delimiter", s, i - 1);
        }
        // Python 3.12's wording; 3.13 says "Illegal trailing comma" for ",}" and ",]"
        i = ws(i);
        c = i < s.length() ? s.charAt(i) : 0;
        i++;
        if (c != '"') {
          throw new DecodeError("Expecting property name enclosed in double quotes", s, i - 1);
        }
      }
    }

    private List<Object> parseArray(int start, int depth) throws DecodeError {
      List<Object> list = new ArrayList<>();
      int i = ws(start);
      if (i < s.length() && s.charAt(i) == ']') {
        end = i + 1;
        return list;
      }
      while (true) {
        try {
          list.add(scanOnce(i, depth));
        } catch (StopIteration e) {
          throw new DecodeError("Expecting value", s, e.pos);
        }
        i = ws(end);
        char c = i < s.length() ? s.charAt(i) : 0;
        i++;
        if (c == ']') {
          end = i;
          return list;
        }
        if (c != ',') {
          throw new DecodeError("Expecting ',' delimiter", s, i - 1);
        }
        i = ws(i);
      }
    }
  }

  /** Appends {@code s} as json.dumps(ensure_ascii=True) writes a string. */
  static void appendString(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e && c != 0x7f) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}

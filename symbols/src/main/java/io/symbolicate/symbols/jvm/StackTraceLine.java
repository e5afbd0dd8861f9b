package io.symbolicate.symbols.jvm;

/** Parsing of the two kinds of stack-trace lines we rewrite: frames and exception headers. */
public final class StackTraceLine {
  private StackTraceLine() {}

  /**
   * A frame line {@code <indent>at [module/]class.method(file[:line])}. {@code line} is -1
   * when the frame has none (or it is not a number). Indent, module and file are cut out of the
   * line only when asked for: retracing usually just copies them.
   */
  public static final class Frame {
    private final String text;
    private final int indentEnd;
    private final int moduleStart;
    private final int moduleEnd;
    private final int fileStart;
    private final int fileEnd;
    private final String className;
    private final String method;
    private final int line;
    final int classHash;
    final int methodHash;

    Frame(String text, int indentEnd, int moduleStart, int moduleEnd, String className, String method,
        int fileStart, int fileEnd, int line, int classHash, int methodHash) {
      this.classHash = classHash;
      this.methodHash = methodHash;
      this.text = text;
      this.indentEnd = indentEnd;
      this.moduleStart = moduleStart;
      this.moduleEnd = moduleEnd;
      this.className = className;
      this.method = method;
      this.fileStart = fileStart;
      this.fileEnd = fileEnd;
      this.line = line;
    }

    public String indent() {
      return text.substring(0, indentEnd);
    }

    /** {@code java.base/} or "" */
    public String module() {
      return text.substring(moduleStart, moduleEnd);
    }

    public String className() {
      return className;
    }

    public String method() {
      return method;
    }

    public String file() {
      return text.substring(fileStart, fileEnd);
    }

    public int line() {
      return line;
    }

    void appendIndent(StringBuilder sb) {
      sb.append(text, 0, indentEnd);
    }

    void appendModule(StringBuilder sb) {
      sb.append(text, moduleStart, moduleEnd);
    }

    boolean fileIs(String s) {
      return fileEnd - fileStart == s.length() && text.startsWith(s, fileStart);
    }
  }

  /** Parses a frame line, or returns null when the line is not one. */
  public static Frame parseFrame(String s) {
    int len = s.length();
    int i = 0;
    while (i < len && isSpace(s.charAt(i))) {
      i++;
    }
    if (i + 3 > len || s.charAt(i) != 'a' || s.charAt(i + 1) != 't' || !isSpace(s.charAt(i + 2))) {
      return null;
    }
    int j = i + 3;
    while (j < len && isSpace(s.charAt(j))) {
      j++;
    }
    int close = len - 1;
    while (close > j && isSpace(s.charAt(close))) {
      close--;
    }
    if (close <= j || s.charAt(close) != ')') {
      return null;
    }
    int open = s.indexOf('(', j);
    if (open < 0 || open > close) {
      return null;
    }
    int qEnd = open;
    while (qEnd > j && isSpace(s.charAt(qEnd - 1))) {
      qEnd--;
    }
    int slash = -1;
    int dot = -1;
    // String.hashCode of the class and the method, computed on the way (saves two passes later)
    int h = 0;
    int classHash = 0;
    int methodHash = 0;
    for (int k = j; k < qEnd; k++) {
      char c = s.charAt(k);
      if (isSpace(c)) {
        return null;
      } else if (c == '/') {
        slash = k;
        h = 0;
        methodHash = 0;
        continue;
      } else if (c == '.') {
        dot = k;
        classHash = h;
        methodHash = 0;
      } else {
        methodHash = 31 * methodHash + c;
      }
      h = 31 * h + c;
    }
    int classStart = slash < 0 ? j : slash + 1;
    if (dot <= classStart || dot >= qEnd - 1) {
      return null;
    }
    String cls = s.substring(classStart, dot);
    String method = s.substring(dot + 1, qEnd);
    int colon = s.lastIndexOf(':', close - 1);
    int line = -1;
    int fileEnd = close;
    if (colon > open) {
      line = digits(s, colon + 1, close);
      fileEnd = line >= 0 ? colon : close;
    }
    return new Frame(s, i, j, slash < 0 ? j : slash + 1, cls, method, open + 1, fileEnd, line, classHash, methodHash);
  }

  /** Non-negative int from s[from, to) made only of digits, else -1. */
  private static int digits(String s, int from, int to) {
    if (from >= to || to - from > 9) {
      return -1;
    }
    int v = 0;
    for (int k = from; k < to; k++) {
      char c = s.charAt(k);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /**
   * An exception header: {@code [Caused by: |Exception in thread "x" |Suppressed: ]Class[: message]}.
   * {@code classStart}/{@code classEnd} delimit the class name inside the line.
   */
  public record Throwable(int classStart, int classEnd) {}

  public static Throwable parseThrowable(String s) {
    int len = s.length();
    int p = 0;
    if (s.startsWith("Caused by: ")) {
      p = 11;
    } else if (s.startsWith("Exception in thread \"")) {
      int q = s.indexOf("\" ", 21);
      if (q < 0) {
        return null;
      }
      p = q + 2;
    } else {
      while (p < len && isSpace(s.charAt(p))) {
        p++;
      }
      if (s.startsWith("Suppressed: ", p)) {
        p += 12;
      }
    }
    while (p < len && isSpace(s.charAt(p))) {
      p++;
    }
    int end = s.indexOf(": ", p);
    if (end < 0) {
      end = len;
      while (end > p && isSpace(s.charAt(end - 1))) {
        end--;
      }
      if (end > p && s.charAt(end - 1) == ':') {
        end--;
      }
    }
    if (end <= p) {
      return null;
    }
    for (int k = p; k < end; k++) {
      char c = s.charAt(k);
      if (!(Character.isJavaIdentifierPart(c) || c == '.') || isSpace(c)) {
        return null;
      }
    }
    return new Throwable(p, end);
  }

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\u000b' || c == '\f';
  }
}

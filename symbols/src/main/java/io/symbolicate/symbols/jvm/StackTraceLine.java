package io.symbolicate.symbols.jvm;

/** Parsing of the two kinds of stack-trace lines we rewrite: frames and exception headers. */
public final class StackTraceLine {
  private StackTraceLine() {}

  /**
   * A frame line {@code <indent>at [module/]class.method(file[:line])}. {@code line} is -1
   * when the frame has none (or it is not a number). The frame only records where its parts are
   * in the text (which may hold many lines): names are cut out as Strings only when asked for,
   * because retracing looks them up and copies them by range.
   */
  public static final class Frame {
    final String text;
    final int start;
    final int end;
    final int indentEnd;
    final int moduleStart;
    final int classStart;
    final int classEnd;
    final int methodEnd;
    final int fileStart;
    final int fileEnd;
    private final int line;
    final int classHash;
    final int methodHash;
    private String className;
    private String method;

    Frame(
        String text,
        int start,
        int end,
        int indentEnd,
        int moduleStart,
        int classStart,
        int classEnd,
        int methodEnd,
        int fileStart,
        int fileEnd,
        int line,
        int classHash,
        int methodHash) {
      this.text = text;
      this.start = start;
      this.end = end;
      this.indentEnd = indentEnd;
      this.moduleStart = moduleStart;
      this.classStart = classStart;
      this.classEnd = classEnd;
      this.methodEnd = methodEnd;
      this.fileStart = fileStart;
      this.fileEnd = fileEnd;
      this.line = line;
      this.classHash = classHash;
      this.methodHash = methodHash;
    }

    public String indent() {
      return text.substring(start, indentEnd);
    }

    /** {@code java.base/} or "" */
    public String module() {
      return text.substring(moduleStart, classStart);
    }

    public String className() {
      String c = className;
      if (c == null) {
        className = c = text.substring(classStart, classEnd);
      }
      return c;
    }

    public String method() {
      String m = method;
      if (m == null) {
        method = m = text.substring(classEnd + 1, methodEnd);
      }
      return m;
    }

    public String file() {
      return text.substring(fileStart, fileEnd);
    }

    public int line() {
      return line;
    }

    void appendIndent(StringBuilder sb) {
      sb.append(text, start, indentEnd);
    }

    void appendModule(StringBuilder sb) {
      sb.append(text, moduleStart, classStart);
    }

    void appendLine(StringBuilder sb) {
      sb.append(text, start, end);
    }

    void appendClassAndMethod(StringBuilder sb) {
      sb.append(text, classStart, methodEnd);
    }

    void appendFile(StringBuilder sb) {
      sb.append(text, fileStart, fileEnd);
    }

    boolean fileIs(String s) {
      return fileEnd - fileStart == s.length() && text.startsWith(s, fileStart);
    }

    /** The file's extension kind as R8's file-name rule needs it (see {@link SourceFiles#r8Synthesize}). */
    int fileKind() {
      int dot = text.lastIndexOf('.', fileEnd - 1);
      if (dot < fileStart) {
        return SourceFiles.NO_EXTENSION;
      }
      return fileEnd - dot == 3 && text.startsWith(".kt", dot)
          ? SourceFiles.KT_EXTENSION
          : SourceFiles.OTHER_EXTENSION;
    }
  }

  /** Parses a frame line, or returns null when the line is not one. */
  public static Frame parseFrame(String s) {
    return parseFrame(s, 0, s.length());
  }

  /** Parses the frame line s[from, to) (no line break inside), or returns null when it is not one. */
  static Frame parseFrame(String s, int from, int to) {
    int len = to;
    int i = from;
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
    int line = -1;
    int fileEnd = close;
    // the line number: digits just before ')' after the last ':' (scanned backwards, no
    // lastIndexOf)
    int k = close - 1;
    int v = 0;
    int mul = 1;
    while (k > open && k >= close - 9) {
      char c = s.charAt(k);
      if (c < '0' || c > '9') {
        break;
      }
      v += (c - '0') * mul;
      mul *= 10;
      k--;
    }
    if (k > open && s.charAt(k) == ':' && k < close - 1) {
      line = v;
      fileEnd = k;
    } else {
      int colon = s.lastIndexOf(':', close - 1);
      if (colon > open) {
        line = digits(s, colon + 1, close);
        fileEnd = line >= 0 ? colon : close;
      }
    }
    return new Frame(
        s, from, to, i, j, classStart, dot, qEnd, open + 1, fileEnd, line, classHash, methodHash);
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

package io.symbolicate.symbols.jvm;

/**
 * Retraced output of frame lines, by the frame's text from the class name to the end of the line
 * ({@code cls.method(file:N)}): that text alone decides what a stateless frame retraces to, while
 * the indentation and module prefix are copied from each input line. Real traces repeat frames a
 * lot, and a hit replaces the class, method and line lookups plus the formatting by one probe and
 * a copy. Bounded by the characters it holds; when full it just stops adding.
 */
final class FrameLineCache {
  private static final String AT = "at ";
  private static final String OR = "<OR> ";
  /** Cached output characters at most (about as many bytes: retraced names are mostly Latin-1). */
  private static final int MAX_CHARS = 1 << 24;

  private String[] keys = new String[1024];
  private int[] hashes = new int[1024];
  /** All output lines of an entry without their prefix, each ending with '\n'. */
  private String[] bodies = new String[1024];
  /** Per entry, the end of each line in its body; negative (~end) for an {@code <OR>} line. */
  private int[][] lineEnds = new int[1024][];
  private int size;
  private long chars;

  /** Appends the cached output for frame f to out and returns true, or returns false. */
  boolean print(StackTraceLine.Frame f, int hash, StringBuilder out) {
    String[] ks = keys;
    int mask = ks.length - 1;
    int len = f.end - f.classStart;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      String k = ks[i];
      if (k == null) {
        return false;
      }
      if (hashes[i] == hash && k.length() == len && f.text.startsWith(k, f.classStart)) {
        String body = bodies[i];
        int from = 0;
        for (int e : lineEnds[i]) {
          f.appendIndent(out);
          if (e < 0) {
            e = ~e;
            out.append(OR);
          }
          out.append(AT);
          f.appendModule(out);
          out.append(body, from, e);
          from = e;
        }
        return true;
      }
    }
  }

  /**
   * Remembers what was printed for frame f: out[mark, out.length()). Leaves it out when a line
   * does not have the prefix {@link #print} rebuilds (e.g. an unknown frame copied as is with
   * unusual spacing), or when the cache is full.
   */
  void put(StackTraceLine.Frame f, int hash, StringBuilder out, int mark) {
    int produced = out.length() - mark;
    if (chars + produced > MAX_CHARS || f.moduleStart != f.indentEnd + AT.length()
        || !f.text.startsWith(AT, f.indentEnd)) {
      return;
    }
    int indentLen = f.indentEnd - f.start;
    int moduleLen = f.classStart - f.moduleStart;
    StringBuilder body = new StringBuilder(produced);
    int[] ends = new int[4];
    int n = 0;
    int p = mark;
    int end = out.length();
    while (p < end) {
      if (!regionIs(out, p, f.text, f.start, indentLen)) {
        return;
      }
      p += indentLen;
      boolean or = regionIs(out, p, OR, 0, OR.length());
      if (or) {
        p += OR.length();
      }
      if (!regionIs(out, p, AT, 0, AT.length()) || !regionIs(out, p + AT.length(), f.text, f.moduleStart, moduleLen)) {
        return;
      }
      p += AT.length() + moduleLen;
      int nl = out.indexOf("\n", p);
      if (nl < 0) {
        return;
      }
      body.append(out, p, nl + 1);
      p = nl + 1;
      if (n == ends.length) {
        ends = java.util.Arrays.copyOf(ends, n * 2);
      }
      ends[n++] = or ? ~body.length() : body.length();
    }
    if (size * 2 >= keys.length) {
      grow();
    }
    insert(f.text.substring(f.classStart, f.end), hash, body.toString(), java.util.Arrays.copyOf(ends, n));
    size++;
    chars += produced;
  }

  private static boolean regionIs(StringBuilder out, int at, String s, int from, int len) {
    if (at + len > out.length()) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      if (out.charAt(at + k) != s.charAt(from + k)) {
        return false;
      }
    }
    return true;
  }

  private void insert(String key, int hash, String body, int[] ends) {
    int mask = keys.length - 1;
    int i = hash & mask;
    while (keys[i] != null) {
      i = (i + 1) & mask;
    }
    keys[i] = key;
    hashes[i] = hash;
    bodies[i] = body;
    lineEnds[i] = ends;
  }

  private void grow() {
    String[] ks = keys;
    int[] hs = hashes;
    String[] bs = bodies;
    int[][] es = lineEnds;
    int cap = ks.length * 2;
    keys = new String[cap];
    hashes = new int[cap];
    bodies = new String[cap];
    lineEnds = new int[cap][];
    for (int i = 0; i < ks.length; i++) {
      if (ks[i] != null) {
        insert(ks[i], hs[i], bs[i], es[i]);
      }
    }
  }
}

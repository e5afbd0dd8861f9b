package io.symbolicate.symbols.apple;

/**
 * Matchers for the lines of a text report, written by hand (no regular expressions: a line may
 * be 64 K characters, and each matcher here is linear in it). Each mirrors one pattern of
 * apple-crash-report-parser and says where it differs. Lines arrive with trailing white space
 * removed. A matcher returns null when the line is not of its kind.
 */
final class TextLines {
  private TextLines() {}

  /** {@code Thread 3:}, {@code Thread 1 Crashed: name}, {@code Thread 0 Crashed:: Dispatch queue: q}. */
  record ThreadHeader(String id, boolean crashed, String name, String dispatchQueue) {}

  /** {@code Thread 0 name:  name  Dispatch queue: q}. */
  record ThreadName(String id, String name, String dispatchQueue) {}

  /** The parts of a frame line, as text; numbers are checked by the parser. */
  record FrameLine(String module, String address, String symbol, String filename, String lineno) {}

  /** The parts of a binary image line, as text. */
  record ImageLine(
      String start,
      String end,
      String name,
      String arch,
      String version,
      String uuid,
      String path) {}

  private static final String DISPATCH_QUEUE = "Dispatch queue:";

  /** Thread number after {@code "Thread "}: end index of the digits, or -1. */
  private static int threadNumberEnd(String line) {
    if (!line.startsWith("Thread ")) {
      return -1;
    }
    int e = Chars.skipDigits(line, 7, line.length());
    return e > 7 ? e : -1;
  }

  /**
   * {@code ^Thread N crashed with .*? Thread State:}. Differs: the flavour may be followed by a
   * parenthesised note before the colon ({@code ARM Thread State (64-bit):}), which the
   * reference parser misses (it then files the registers as metadata).
   */
  static boolean isThreadState(String line) {
    int e = threadNumberEnd(line);
    if (e < 0 || !line.startsWith(" crashed with ", e)) {
      return false;
    }
    int at = line.indexOf(" Thread State", e + 14);
    if (at < 0) {
      return false;
    }
    int rest = at + 13;
    if (line.startsWith(":", rest)) {
      return Chars.skipSpace(line, rest + 1, line.length()) == line.length();
    }
    int open = Chars.skipSpace(line, rest, line.length());
    if (open == line.length() || line.charAt(open) != '(') {
      return false;
    }
    int close = line.indexOf(')', open);
    return close > 0
        && line.startsWith(":", close + 1)
        && Chars.skipSpace(line, close + 2, line.length()) == line.length();
  }

  /**
   * {@code ^Thread ([0-9]+)( Crashed)?:\s*(.+?)?\s*$}. Differs: a name that is
   * {@code Dispatch queue: q} (after the macOS {@code ::} form's second colon) is the dispatch
   * queue, not a name.
   */
  static ThreadHeader threadHeader(String line) {
    int e = threadNumberEnd(line);
    if (e < 0) {
      return null;
    }
    String id = line.substring(7, e);
    boolean crashed = line.startsWith(" Crashed:", e);
    int colon = crashed ? e + 8 : e;
    if (colon >= line.length() || line.charAt(colon) != ':') {
      return null;
    }
    String rest = Chars.trim(line.substring(colon + 1));
    if (rest.isEmpty()) {
      return new ThreadHeader(id, crashed, null, null);
    }
    String afterDoubleColon = rest.charAt(0) == ':' ? Chars.trim(rest.substring(1)) : null;
    if (afterDoubleColon != null) {
      if (afterDoubleColon.startsWith(DISPATCH_QUEUE)) {
        return new ThreadHeader(
            id, crashed, null, Chars.trim(afterDoubleColon.substring(DISPATCH_QUEUE.length())));
      }
      return new ThreadHeader(
          id, crashed, afterDoubleColon.isEmpty() ? null : afterDoubleColon, null);
    }
    return new ThreadHeader(id, crashed, rest, null);
  }

  /**
   * {@code ^Thread ([0-9]+) name:\s*(.+?)(?:\s+Dispatch queue:\s*(.*?))?\s*$}. Differs: a line
   * whose whole text is {@code Dispatch queue: q} (Apple writes that for a thread without a
   * name) gives the queue and no name, where the reference parser takes all of it as the name.
   */
  static ThreadName threadName(String line) {
    int e = threadNumberEnd(line);
    if (e < 0 || !line.startsWith(" name:", e)) {
      return null;
    }
    int b = Chars.skipSpace(line, e + 6, line.length());
    if (b == line.length()) {
      return null; // (.+?) needs a character
    }
    String id = line.substring(7, e);
    if (line.startsWith(DISPATCH_QUEUE, b)) {
      return new ThreadName(id, null, Chars.trim(line.substring(b + DISPATCH_QUEUE.length())));
    }
    // the name ends at the first white space run followed by "Dispatch queue:"
    for (int i = b + 1; i < line.length(); i++) {
      if (Chars.isSpace(line.charAt(i)) && !Chars.isSpace(line.charAt(i - 1))) {
        int q = Chars.skipSpace(line, i, line.length());
        if (line.startsWith(DISPATCH_QUEUE, q)) {
          return new ThreadName(
              id, line.substring(b, i), Chars.trim(line.substring(q + DISPATCH_QUEUE.length())));
        }
        i = q - 1;
      }
    }
    return new ThreadName(id, line.substring(b), null);
  }

  /**
   * {@code ^[0-9]+\s+(.+?)\s+(0x[0-9a-fA-F]+)\s+(.*?)(?: (?:\+ [0-9]+|\((.*?):([0-9]+)\)))?\s*$}.
   * The module is the text before the first white space run that is followed by a hex address
   * and more white space; the symbol is the rest up to a final {@code " + N"} or, from the first
   * {@code " ("} on, a final {@code "(file:line)"}.
   */
  static FrameLine frame(String line) {
    int n = line.length();
    int i = Chars.skipDigits(line, 0, n);
    if (i == 0) {
      return null;
    }
    int modStart = Chars.skipSpace(line, i, n);
    if (modStart == i || modStart == n) {
      return null;
    }
    for (int p = modStart + 1; p < n; p++) {
      if (!Chars.isSpace(line.charAt(p))) {
        continue;
      }
      int q = Chars.skipSpace(line, p, n);
      if (line.startsWith("0x", q)) {
        int h = Chars.skipHex(line, q + 2, n);
        if (h > q + 2 && h < n && Chars.isSpace(line.charAt(h))) {
          return frameRest(
              line,
              line.substring(modStart, p),
              line.substring(q + 2, h),
              Chars.skipSpace(line, h, n));
        }
      }
      p = q - 1;
    }
    return null;
  }

  private static FrameLine frameRest(String line, String module, String address, int r) {
    int n = line.length();
    int symbolEnd = n;
    String file = null;
    String lineno = null;
    // " + 123" at the end
    int d = n;
    while (d > r && Chars.isDigit(line.charAt(d - 1))) {
      d--;
    }
    if (d < n && d - 3 >= r && line.startsWith(" + ", d - 3)) {
      symbolEnd = d - 3;
    }
    // " (file:123)" at the end, opening at the first " (" that leaves room for the colon
    if (n - r >= 4 && line.charAt(n - 1) == ')') {
      int ld = n - 1;
      while (ld > r && Chars.isDigit(line.charAt(ld - 1))) {
        ld--;
      }
      int colon = ld - 1;
      if (ld < n - 1 && colon >= r && line.charAt(colon) == ':') {
        int open = line.indexOf(" (", r);
        if (open >= 0 && open + 2 <= colon && open < symbolEnd) {
          symbolEnd = open;
          file = line.substring(open + 2, colon);
          lineno = line.substring(ld, n - 1);
        }
      }
    }
    return new FrameLine(module, address, line.substring(r, symbolEnd), file, lineno);
  }

  /**
   * {@code ^\s*(0x[0-9a-fA-F]+)\s*-\s*(0x[0-9a-fA-F]+)\s+\+?(.+)\s+(\S+?)\s+(?:\(([^)]+?)\))?\s+<([^>]+?)>\s+(.*?)$}:
   * the name is as long as it can be (so it may hold spaces), the arch is the word before the
   * optional {@code (version)}; without a version two white space characters must separate the
   * arch from {@code <uuid>}, else the reference pattern does not match.
   */
  static ImageLine image(String line) {
    int n = line.length();
    int i = Chars.skipSpace(line, 0, n);
    if (!line.startsWith("0x", i)) {
      return null;
    }
    int h1 = Chars.skipHex(line, i + 2, n);
    if (h1 == i + 2) {
      return null;
    }
    int j = Chars.skipSpace(line, h1, n);
    if (j >= n || line.charAt(j) != '-') {
      return null;
    }
    j = Chars.skipSpace(line, j + 1, n);
    if (!line.startsWith("0x", j)) {
      return null;
    }
    int h2 = Chars.skipHex(line, j + 2, n);
    if (h2 == j + 2 || h2 >= n || !Chars.isSpace(line.charAt(h2))) {
      return null;
    }
    int k = Chars.skipSpace(line, h2, n);
    String start = line.substring(i + 2, h1);
    String end = line.substring(j + 2, h2);
    if (k < n && line.charAt(k) == '+') {
      ImageLine stripped = imageRest(line, start, end, k + 1);
      if (stripped != null) {
        return stripped;
      }
    }
    return imageRest(line, start, end, k);
  }

  private static ImageLine imageRest(String line, String start, String end, int nameStart) {
    int n = line.length();
    int tried = 0;
    for (int lt = line.lastIndexOf('<');
        lt > nameStart && tried < AppleLimits.MAX_UUID_CANDIDATES_PER_LINE;
        lt = line.lastIndexOf('<', lt - 1), tried++) {
      int gt = line.indexOf('>', lt + 1);
      if (gt <= lt + 1 || gt + 1 >= n || !Chars.isSpace(line.charAt(gt + 1))) {
        continue;
      }
      int pathStart = Chars.skipSpace(line, gt + 1, n);
      int b = lt;
      while (b > nameStart && Chars.isSpace(line.charAt(b - 1))) {
        b--;
      }
      if (b == lt) {
        continue;
      }
      String uuid = line.substring(lt + 1, gt);
      String path = line.substring(pathStart);
      // without a version: arch, two or more white space characters, <uuid>
      if (lt - b >= 2) {
        int archStart = wordStart(line, b, nameStart);
        if (archStart - 1 > nameStart && archStart < b) {
          return new ImageLine(
              start,
              end,
              line.substring(nameStart, archStart - 1),
              line.substring(archStart, b),
              null,
              uuid,
              path);
        }
      }
      // with a version: arch, white space, (version), white space, <uuid>
      if (line.charAt(b - 1) == ')') {
        for (int open = b - 2; open > nameStart; open--) {
          char c = line.charAt(open);
          if (c == ')') {
            break;
          }
          if (c != '(' || open == b - 2) {
            continue;
          }
          int a = open;
          while (a > nameStart && Chars.isSpace(line.charAt(a - 1))) {
            a--;
          }
          if (a == open) {
            continue;
          }
          int archStart = wordStart(line, a, nameStart);
          if (archStart - 1 > nameStart && archStart < a) {
            return new ImageLine(
                start,
                end,
                line.substring(nameStart, archStart - 1),
                line.substring(archStart, a),
                line.substring(open + 1, b - 1),
                uuid,
                path);
          }
        }
      }
    }
    return null;
  }

  /** Start of the non-space word ending at {@code end}; a white space character precedes it. */
  private static int wordStart(String line, int end, int floor) {
    int s = end;
    while (s > floor && !Chars.isSpace(line.charAt(s - 1))) {
      s--;
    }
    return s > floor ? s : -1;
  }
}

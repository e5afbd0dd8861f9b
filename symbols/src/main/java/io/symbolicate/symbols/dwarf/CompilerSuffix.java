package io.symbolicate.symbols.dwarf;

import java.util.regex.Pattern;

/**
 * Mozilla's {@code fix_symbol_name}: the compiler suffixes ({@code .cold}, {@code .isra.0},
 * {@code [clone ...]}) at the end of a name removed. The rule is the regular expression {@link
 * #PATTERN} (its first match replaced by nothing); this class gives the same answer without the
 * regex engine, whose backtracking cost an eighth of a big debug file's conversion: the longest
 * tail of the name made only of suffixes goes, found right to left in one pass.
 */
final class CompilerSuffix {
  /** The rule as Mozilla writes it; a name ending in a line terminator still goes through it. */
  static final Pattern PATTERN =
      Pattern.compile(
          "((\\.(cold|constprop|llvm|localalias|lto_priv|isra|part|str)(\\.[0-9]+)?)"
              + "|( ?\\[clone[^\\]]*\\] ?))+$");

  private static final String[] WORDS = {
    "cold", "constprop", "llvm", "localalias", "lto_priv", "isra", "part", "str"
  };

  private CompilerSuffix() {}

  /** The name without its trailing compiler suffixes. */
  static String strip(String s) {
    int n = s.length();
    if (n == 0) {
      return s;
    }
    char last = s.charAt(n - 1);
    if (last == '\n' || last == '\r' || last == '\u0085' || last == '\u2028' || last == '\u2029') {
      return PATTERN.matcher(s).replaceFirst(""); // '$' also matches before a final line end
    }
    if (!mayEndASuffix(last)) {
      return s;
    }
    // tail[j]: s[j..n) is a run of one or more suffixes (tail[n]: the empty run)
    boolean[] tail = new boolean[n + 1];
    tail[n] = true;
    int first = n;
    for (int j = n - 1; j >= 0; j--) {
      if (dotted(s, j, tail) || clone(s, j, tail)) {
        tail[j] = true;
        first = j;
      }
    }
    return first == n ? s : s.substring(0, first);
  }

  private static boolean mayEndASuffix(char c) {
    return (c >= '0' && c <= '9')
        || c == ']'
        || c == ' '
        || c == 'd'
        || c == 'p'
        || c == 'm'
        || c == 's'
        || c == 'v'
        || c == 'a'
        || c == 't'
        || c == 'r';
  }

  /** {@code .word} or {@code .word.digits} at {@code j}, followed by a run of suffixes. */
  private static boolean dotted(String s, int j, boolean[] tail) {
    if (s.charAt(j) != '.') {
      return false;
    }
    int n = s.length();
    for (String w : WORDS) {
      if (!s.startsWith(w, j + 1)) {
        continue;
      }
      int k = j + 1 + w.length();
      if (tail[k]) {
        return true;
      }
      if (k < n && s.charAt(k) == '.') {
        // the digits may stop anywhere in their run (the regex backtracks)
        for (int m = k + 1; m < n && s.charAt(m) >= '0' && s.charAt(m) <= '9'; m++) {
          if (tail[m + 1]) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** {@code " ?[clone ...] ?"} at {@code j}, followed by a run of suffixes. */
  private static boolean clone(String s, int j, boolean[] tail) {
    int p = s.charAt(j) == ' ' ? j + 1 : j;
    if (!s.startsWith("[clone", p)) {
      return false;
    }
    int q = s.indexOf(']', p + 6);
    if (q < 0) {
      return false;
    }
    int k = q + 1;
    return tail[k] || (k < s.length() && s.charAt(k) == ' ' && tail[k + 1]);
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.Map;
import java.util.Set;

/**
 * Breakpad's postfix evaluator for CFI rules and STACK WIN program strings: tokens are numbers
 * (decimal, optional '-'), identifiers ($reg, .cfa, .raSearchStart, ...) looked up when popped,
 * the binary operators + - * / % @ (align), ^ (dereference stack memory) and = (assign a $reg).
 * Arithmetic wraps at the word size. Unlike Breakpad (whose C++ divides by zero), a division by
 * zero fails the evaluation, as does a read outside the stack memory, an unknown identifier,
 * an operator short of operands or a stack deeper than {@link #MAX_DEPTH}.
 */
final class Postfix {
  /** Deepest operand stack accepted. */
  static final int MAX_DEPTH = 64;

  private final Map<String, Long> dict;
  private final MemoryReader memory;
  private final int word;
  private final long mask;
  private final long[] vals = new long[MAX_DEPTH];
  private final String[] idents = new String[MAX_DEPTH];
  private int depth;

  Postfix(Map<String, Long> dict, MemoryReader memory, int wordBytes) {
    this.dict = dict;
    this.memory = memory;
    this.word = wordBytes;
    this.mask = wordBytes == 4 ? 0xFFFFFFFFL : -1L;
  }

  /** Runs a program string; true when every token evaluated and no operand is left over. */
  boolean evaluate(String[] tokens, Set<String> assigned) {
    depth = 0;
    return run(tokens, assigned) && depth == 0;
  }

  /** Evaluates an expression to one value; null when it fails or leaves other than one value. */
  Long evaluateForValue(String[] tokens) {
    depth = 0;
    if (!run(tokens, null) || depth != 1) {
      return null;
    }
    long[] out = new long[1];
    return pop(out) ? out[0] : null;
  }

  private boolean run(String[] tokens, Set<String> assigned) {
    for (String t : tokens) {
      if (t.length() > 1 && t.charAt(0) == '=') {
        if (!token("=", assigned) || !token(t.substring(1), assigned)) {
          return false;
        }
      } else if (!token(t, assigned)) {
        return false;
      }
    }
    return true;
  }

  private boolean token(String t, Set<String> assigned) {
    long[] v = new long[2];
    if (t.length() == 1) {
      char op = t.charAt(0);
      switch (op) {
        case '+', '-', '*', '/', '%', '@':
          {
            if (!pop(v, 1) || !pop(v, 0)) {
              return false;
            }
            long a = v[0];
            long b = v[1];
            long r;
            switch (op) {
              case '+' -> r = a + b;
              case '-' -> r = a - b;
              case '*' -> r = a * b;
              case '/' -> {
                if (b == 0) {
                  return false;
                }
                r = Long.divideUnsigned(a, b);
              }
              case '%' -> {
                if (b == 0) {
                  return false;
                }
                r = Long.remainderUnsigned(a, b);
              }
              default -> r = a & (mask ^ ((b - 1) & mask));
            }
            return push(r & mask);
          }
        case '^':
          {
            if (memory == null || !pop(v, 0) || !memory.has(v[0], word)) {
              return false;
            }
            return push(memory.word(v[0], word));
          }
        case '=':
          {
            if (!pop(v, 0) || depth == 0) {
              return false;
            }
            depth--;
            String id = idents[depth];
            if (id == null || id.isEmpty() || id.charAt(0) != '$') {
              return false;
            }
            dict.put(id, v[0]);
            if (assigned != null) {
              assigned.add(id);
            }
            return true;
          }
        default:
          break;
      }
    }
    if (depth == MAX_DEPTH) {
      return false;
    }
    Long lit = literal(t);
    idents[depth] = lit == null ? t : null;
    vals[depth] = lit == null ? 0 : lit;
    depth++;
    return true;
  }

  private boolean push(long value) {
    if (depth == MAX_DEPTH) {
      return false;
    }
    idents[depth] = null;
    vals[depth++] = value;
    return true;
  }

  private boolean pop(long[] out) {
    return pop(out, 0);
  }

  /** Pops a value (a literal or an identifier's value) into out[i]. */
  private boolean pop(long[] out, int i) {
    if (depth == 0) {
      return false;
    }
    depth--;
    String id = idents[depth];
    if (id == null) {
      out[i] = vals[depth];
      return true;
    }
    Long v = dict.get(id);
    if (v == null) {
      return false;
    }
    out[i] = v;
    return true;
  }

  private Long literal(String t) {
    return literalOf(t, word);
  }

  /** A decimal number with an optional '-' that fits the word, as C++'s stream extraction. */
  static Long literalOf(String t, int word) {
    long mask = word == 4 ? 0xFFFFFFFFL : -1L;
    int i = 0;
    boolean neg = false;
    if (t.charAt(0) == '-') {
      neg = true;
      i = 1;
    }
    if (i >= t.length() || t.length() - i > 20) {
      return null;
    }
    long v = 0;
    for (; i < t.length(); i++) {
      int d = t.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return null;
      }
      long next = v * 10 + d;
      if (Long.compareUnsigned(Long.divideUnsigned(next - d, 10), v) != 0
          || Long.compareUnsigned(next, v) < 0) {
        return null; // overflows 64 bits
      }
      v = next;
    }
    if (word == 4 && Long.compareUnsigned(v, 0xFFFFFFFFL) > 0) {
      return null;
    }
    return (neg ? -v : v) & mask;
  }

  /** Whitespace-separated tokens (space, tab, CR, LF), without a regular expression. */
  static String[] tokens(String expr) {
    int n = 0;
    int len = expr.length();
    for (int i = 0; i < len; ) {
      while (i < len && expr.charAt(i) <= ' ') {
        i++;
      }
      if (i < len) {
        n++;
      }
      while (i < len && expr.charAt(i) > ' ') {
        i++;
      }
    }
    String[] out = new String[n];
    int k = 0;
    for (int i = 0; i < len; ) {
      while (i < len && expr.charAt(i) <= ' ') {
        i++;
      }
      int s = i;
      while (i < len && expr.charAt(i) > ' ') {
        i++;
      }
      if (i > s) {
        out[k++] = expr.substring(s, i);
      }
    }
    return out;
  }
}

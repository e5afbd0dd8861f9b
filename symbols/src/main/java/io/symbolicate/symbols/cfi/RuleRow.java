package io.symbolicate.symbols.cfi;

import java.util.Arrays;

/**
 * One row of the unwind table: the CFA rule and the register rules, in the order the program
 * first gave each register a rule (the order Breakpad's and symbolic's output follows). Removing a
 * rule (a restore to "no rule") moves the last rule into its place, as gimli's table does, so the
 * output's register order is the same as symbolic's.
 */
final class RuleRow {
  static final int UNDEFINED = 0;
  static final int SAME_VALUE = 1;
  static final int OFFSET = 2;
  static final int VAL_OFFSET = 3;
  static final int REGISTER = 4;
  static final int EXPRESSION = 5;
  static final int VAL_EXPRESSION = 6;
  static final int CONSTANT = 7;

  /** Rules one row may hold (gimli's limit; a program that sets more loses the extra ones). */
  static final int MAX_RULES = 192;

  boolean cfaIsExpression;

  /** Register and offset, or for an expression its offset and length in the section. */
  long cfaA;

  long cfaB;

  int count;
  long[] regs = new long[8];
  int[] kinds = new int[8];
  long[] values = new long[8];
  long[] lengths = new long[8];

  RuleRow copy() {
    RuleRow r = new RuleRow();
    r.cfaIsExpression = cfaIsExpression;
    r.cfaA = cfaA;
    r.cfaB = cfaB;
    r.count = count;
    r.regs = Arrays.copyOf(regs, Math.max(8, count));
    r.kinds = Arrays.copyOf(kinds, Math.max(8, count));
    r.values = Arrays.copyOf(values, Math.max(8, count));
    r.lengths = Arrays.copyOf(lengths, Math.max(8, count));
    return r;
  }

  int indexOf(long reg) {
    for (int i = 0; i < count; i++) {
      if (regs[i] == reg) {
        return i;
      }
    }
    return -1;
  }

  /** Sets a rule; false when the row is full (the rule is then dropped). */
  boolean set(long reg, int kind, long value, long length) {
    int i = indexOf(reg);
    if (i < 0) {
      if (count == MAX_RULES) {
        return false;
      }
      if (count == regs.length) {
        int n = Math.min(MAX_RULES, count * 2);
        regs = Arrays.copyOf(regs, n);
        kinds = Arrays.copyOf(kinds, n);
        values = Arrays.copyOf(values, n);
        lengths = Arrays.copyOf(lengths, n);
      }
      i = count++;
      regs[i] = reg;
    }
    kinds[i] = kind;
    values[i] = value;
    lengths[i] = length;
    return true;
  }

  void clear(long reg) {
    int i = indexOf(reg);
    if (i >= 0) {
      int last = --count;
      regs[i] = regs[last];
      kinds[i] = kinds[last];
      values[i] = values[last];
      lengths[i] = lengths[last];
    }
  }
}

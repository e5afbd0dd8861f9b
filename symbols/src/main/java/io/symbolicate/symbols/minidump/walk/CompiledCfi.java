package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.Map;

/**
 * CFI rules compiled against one architecture's register map: registers become slots, numbers
 * are parsed once, and a caller's registers are computed without maps or strings. Gives the
 * answers of {@link CfiRules#callerRegisters} with {@link Walker#cfiCaller}'s use of them;
 * rules that assign ({@code =}) are left to the interpreter.
 */
final class CompiledCfi {
  private static final int LIT = 0;
  private static final int SLOT = 1;
  private static final int FAIL = 2;
  private static final int ADD = 3;
  private static final int SUB = 4;
  private static final int MUL = 5;
  private static final int DIV = 6;
  private static final int MOD = 7;
  private static final int ALIGN = 8;
  private static final int DEREF = 9;

  /** One expression: op codes and their operands (a literal or a slot). */
  private record Program(int[] ops, long[] args) {}

  private final Walker.CfiRegister[] map;
  private final Program cfa;
  private final Program ra;
  private final Program[] regs; // per map entry; null when the rules do not name it
  private final int cfaSlot;

  private CompiledCfi(Walker.CfiRegister[] map, Program cfa, Program ra, Program[] regs) {
    this.map = map;
    this.cfa = cfa;
    this.ra = ra;
    this.regs = regs;
    this.cfaSlot = map.length;
  }

  /** Null when some rule assigns or is too long for the evaluator's stack. */
  static CompiledCfi compile(
      String[] cfa,
      String[] ra,
      Map<String, String[]> registers,
      Walker.CfiRegister[] map,
      int word) {
    Program c = program(cfa, map, word);
    Program r = program(ra, map, word);
    if (c == null || r == null) {
      return null;
    }
    Program[] regs = new Program[map.length];
    for (Map.Entry<String, String[]> e : registers.entrySet()) {
      Program p = program(e.getValue(), map, word);
      if (p == null) {
        return null;
      }
      for (int i = 0; i < map.length; i++) {
        if (map[i].name().equals(e.getKey())) {
          regs[i] = p;
        }
      }
    }
    return new CompiledCfi(map, c, r, regs);
  }

  private static Program program(String[] tokens, Walker.CfiRegister[] map, int word) {
    if (tokens.length > Postfix.MAX_DEPTH * 2) {
      return null;
    }
    int[] ops = new int[tokens.length];
    long[] args = new long[tokens.length];
    for (int i = 0; i < tokens.length; i++) {
      String t = tokens[i];
      if (t.charAt(0) == '=') {
        return null;
      }
      if (t.length() == 1) {
        int op =
            switch (t.charAt(0)) {
              case '+' -> ADD;
              case '-' -> SUB;
              case '*' -> MUL;
              case '/' -> DIV;
              case '%' -> MOD;
              case '@' -> ALIGN;
              case '^' -> DEREF;
              default -> -1;
            };
        if (op >= 0) {
          ops[i] = op;
          continue;
        }
      }
      Long lit = Postfix.literalOf(t, word);
      if (lit != null) {
        ops[i] = LIT;
        args[i] = lit;
        continue;
      }
      ops[i] = FAIL;
      if (t.equals(".cfa")) {
        ops[i] = SLOT;
        args[i] = map.length;
      }
      for (int k = 0; k < map.length; k++) {
        if (map[k].name().equals(t)) {
          ops[i] = SLOT;
          args[i] = k;
        }
      }
    }
    return new Program(ops, args);
  }

  /** The caller's context, or null when the CFA or the return address does not evaluate. */
  CpuContext caller(CpuContext callee, Cpu cpu, MemoryReader memory, int word) {
    long mask = word == 4 ? 0xFFFFFFFFL : -1L;
    long[] slots = new long[map.length + 1];
    long valid = 0;
    for (int i = 0; i < map.length; i++) {
      if (callee.isValid(map[i].index())) {
        slots[i] = callee.get(map[i].index());
        valid |= 1L << i;
      }
    }
    long[] stack = new long[Postfix.MAX_DEPTH];
    long[] out = new long[1];
    if (!eval(cfa, slots, valid, memory, word, mask, stack, out)) {
      return null;
    }
    long cfaValue = out[0];
    slots[cfaSlot] = cfaValue;
    valid |= 1L << cfaSlot;
    if (!eval(ra, slots, valid, memory, word, mask, stack, out)) {
      return null;
    }
    long raValue = out[0];
    CpuContext c = new CpuContext(cpu);
    for (int i = 0; i < map.length; i++) {
      Walker.CfiRegister r = map[i];
      if (regs[i] != null && eval(regs[i], slots, valid, memory, word, mask, stack, out)) {
        c.set(r.index(), out[0]);
      } else if (".cfa".equals(r.alternate())) {
        c.set(r.index(), cfaValue);
      } else if (".ra".equals(r.alternate())) {
        c.set(r.index(), raValue);
      } else if (r.calleeSaves() && callee.isValid(r.index())) {
        c.set(r.index(), callee.get(r.index()));
      }
    }
    return c;
  }

  private static boolean eval(
      Program p,
      long[] slots,
      long valid,
      MemoryReader memory,
      int word,
      long mask,
      long[] stack,
      long[] out) {
    int sp = 0;
    int[] ops = p.ops();
    long[] args = p.args();
    for (int i = 0; i < ops.length; i++) {
      int op = ops[i];
      switch (op) {
        case LIT -> {
          if (sp == stack.length) {
            return false;
          }
          stack[sp++] = args[i];
        }
        case SLOT -> {
          int s = (int) args[i];
          if ((valid & (1L << s)) == 0 || sp == stack.length) {
            return false;
          }
          stack[sp++] = slots[s];
        }
        case FAIL -> {
          return false;
        }
        case DEREF -> {
          if (sp == 0 || memory == null || !memory.has(stack[sp - 1], word)) {
            return false;
          }
          stack[sp - 1] = memory.word(stack[sp - 1], word);
        }
        default -> {
          if (sp < 2) {
            return false;
          }
          long b = stack[--sp];
          long a = stack[sp - 1];
          long r;
          switch (op) {
            case ADD -> r = a + b;
            case SUB -> r = a - b;
            case MUL -> r = a * b;
            case DIV -> {
              if (b == 0) {
                return false;
              }
              r = Long.divideUnsigned(a, b);
            }
            case MOD -> {
              if (b == 0) {
                return false;
              }
              r = Long.remainderUnsigned(a, b);
            }
            default -> r = a & (mask ^ ((b - 1) & mask));
          }
          stack[sp - 1] = r & mask;
        }
      }
    }
    if (sp != 1) {
      return false;
    }
    out[0] = stack[0];
    return true;
  }
}

package io.symbolicate.symbols.minidump.walk;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The postfix evaluator's rules (Breakpad's, plus failures where Breakpad's C++ has undefined
 * behaviour), and the compiled CFI path giving the interpreter's answers.
 */
class CfiEvaluationTest {
  static final long STACK = 0x7fff0000L;

  static MemoryReader stack() {
    ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 32; i++) {
      b.putLong(8 * i, 0x401000L + 16 * i);
    }
    return MemoryReader.of(STACK, b.array());
  }

  static Long eval(String expr, Map<String, Long> dict, int word) {
    return new Postfix(dict, stack(), word).evaluateForValue(Postfix.tokens(expr));
  }

  @Test
  void postfixFollowsBreakpad() {
    Map<String, Long> d = new HashMap<>(Map.of("$rsp", STACK + 8, "$rbp", 5L));
    assertThat(eval("$rsp 8 +", d, 8)).isEqualTo(STACK + 16);
    assertThat(eval("$rsp -8 +", d, 8)).isEqualTo(STACK);
    assertThat(eval("$rsp ^", d, 8)).isEqualTo(0x401010L);
    assertThat(eval("17 16 @", d, 8)).isEqualTo(16L);
    assertThat(eval("7 2 %", d, 8)).isEqualTo(1L);
    assertThat(eval("0 1 -", d, 4)).isEqualTo(0xFFFFFFFFL); // wraps at the word
    assertThat(eval("4294967296", d, 4)).isNull(); // does not fit 32 bits: an unknown name
    assertThat(eval("0x10", d, 8)).isNull(); // decimal only, as C++'s stream extraction
    assertThat(eval("$rsp 0 /", d, 8)).isNull();
    assertThat(eval("$rsp 0 %", d, 8)).isNull();
    assertThat(eval("1 ^", d, 8)).isNull(); // outside the stack memory
    assertThat(eval("$rax", d, 8)).isNull(); // unknown register
    assertThat(eval("1 2", d, 8)).isNull(); // two values left
    assertThat(eval("+", d, 8)).isNull();
    assertThat(eval("1 ".repeat(Postfix.MAX_DEPTH + 1) + "+ ".repeat(Postfix.MAX_DEPTH), d, 8))
        .isNull();
    // a program string assigns registers, also with the "=$reg" shorthand
    Set<String> assigned = new HashSet<>();
    Map<String, Long> p = new HashMap<>(Map.of("$esp", STACK, ".raSearchStart", STACK + 8));
    assertThat(
            new Postfix(p, stack(), 4)
                .evaluate(
                    Postfix.tokens("$eip .raSearchStart ^ = $esp .raSearchStart 4 + =$ebx 7"),
                    assigned))
        .isFalse(); // "=$ebx" assigns $esp, then "$ebx 7" are left on the stack
    assigned.clear();
    assertThat(
            new Postfix(p, stack(), 4)
                .evaluate(
                    Postfix.tokens("$eip .raSearchStart ^ = $esp .raSearchStart 4 + ="), assigned))
        .isTrue();
    assertThat(assigned).containsExactlyInAnyOrder("$eip", "$esp");
    assertThat(p.get("$eip")).isEqualTo(0x401010L & 0xFFFFFFFFL);
    assertThat(p.get("$esp")).isEqualTo((STACK + 12) & 0xFFFFFFFFL);
    assertThat(new Postfix(p, stack(), 4).evaluate(Postfix.tokens("5 6 ="), new HashSet<>()))
        .isFalse(); // only $registers may be assigned
  }

  @Test
  void compiledRulesGiveTheInterpretersAnswers() {
    Walker.CfiRegister[] map = Amd64Walker.cfiMapForTests();
    String[] pieces = {
      "$rsp", "$rbp", "$rbx", "$r12", ".cfa", "8", "16", "-8", "0", "+", "-", "*", "/", "%", "@",
      "^", "$rax", "$nope"
    };
    Random r = new Random(42);
    int agreed = 0;
    int answered = 0;
    for (int i = 0; i < 3000; i++) {
      CfiRules rules = new CfiRules();
      StringBuilder sb = new StringBuilder();
      for (String name : List.of(".cfa:", ".ra:", "$rbp:", "$rbx:", "$rsp:")) {
        if (name.startsWith(".") || r.nextInt(3) == 0) {
          sb.append(name).append(' ').append(expr(r, pieces)).append(' ');
        }
      }
      if (!rules.apply(sb.toString())) {
        continue;
      }
      CpuContext callee = new CpuContext(Cpu.AMD64);
      for (int k = 0; k < Cpu.AMD64.registers().size(); k++) {
        if (r.nextInt(4) != 0) {
          callee.set(k, r.nextBoolean() ? STACK + 8 * r.nextInt(40) : r.nextInt(100));
        }
      }
      CompiledCfi compiled = rules.compiled(map, 8);
      assertThat(compiled).isNotNull();
      CpuContext fast = compiled.caller(callee, Cpu.AMD64, stack(), 8);
      CpuContext slow = interpreted(rules, callee, map);
      assertThat(String.valueOf(fast)).as(sb.toString()).isEqualTo(String.valueOf(slow));
      agreed++;
      answered += fast == null ? 0 : 1;
    }
    assertThat(agreed).isGreaterThan(1000);
    assertThat(answered).isGreaterThan(50);
  }

  private static String expr(Random r, String[] pieces) {
    if (r.nextInt(3) == 0) {
      return pieces[r.nextInt(5)]
          + " "
          + pieces[5 + r.nextInt(4)]
          + " "
          + pieces[9 + r.nextInt(6)]
          + (r.nextBoolean() ? " ^" : "");
    }
    StringBuilder sb = new StringBuilder();
    for (int n = 1 + r.nextInt(5); n > 0; n--) {
      sb.append(pieces[r.nextInt(pieces.length)]).append(' ');
    }
    return sb.toString().trim();
  }

  /** The interpreter's path of Walker.cfiCaller. */
  private static CpuContext interpreted(CfiRules rules, CpuContext lc, Walker.CfiRegister[] map) {
    Map<String, Long> callee = new HashMap<>();
    for (Walker.CfiRegister reg : map) {
      if (lc.isValid(reg.index())) {
        callee.put(reg.name(), lc.get(reg.index()));
      }
    }
    Map<String, Long> caller = rules.callerRegisters(callee, stack(), 8);
    if (caller == null) {
      return null;
    }
    CpuContext out = new CpuContext(Cpu.AMD64);
    for (Walker.CfiRegister reg : map) {
      Long v = caller.get(reg.name());
      if (v == null && reg.alternate() != null) {
        v = caller.get(reg.alternate());
      }
      if (v != null) {
        out.set(reg.index(), v);
      } else if (reg.calleeSaves() && lc.isValid(reg.index())) {
        out.set(reg.index(), lc.get(reg.index()));
      }
    }
    return out;
  }
}

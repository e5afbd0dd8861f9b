package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CFI rules in effect at one address: the {@code STACK CFI INIT} record's rules with the
 * later {@code STACK CFI} deltas up to the address applied on top, as Breakpad's CFIFrameInfo.
 */
public final class CfiRules {
  private String[] cfa;
  private String[] ra;
  private final Map<String, String[]> registers = new LinkedHashMap<>();

  /**
   * Applies one rule set ({@code .cfa: $rsp 8 + .ra: .cfa -8 + ^ ...}); returns false on a
   * malformed set (rules before the fault are kept, as in Breakpad's parser).
   */
  public boolean apply(String ruleSet) {
    String name = null;
    StringBuilder expr = new StringBuilder();
    for (String tok : Postfix.tokens(ruleSet)) {
      if (tok.endsWith(":")) {
        if (tok.length() < 2) {
          return false;
        }
        if (name != null || expr.length() > 0) {
          if (!report(name, expr)) {
            return false;
          }
        }
        name = tok.substring(0, tok.length() - 1);
        expr.setLength(0);
      } else {
        if (expr.length() > 0) {
          expr.append(' ');
        }
        expr.append(tok);
      }
    }
    return report(name, expr);
  }

  private boolean report(String name, StringBuilder expr) {
    if (name == null || name.isEmpty() || expr.length() == 0) {
      return false;
    }
    String[] t = Postfix.tokens(expr.toString());
    for (int i = 0; i < t.length; i++) {
      t[i] = undotted(t[i]);
    }
    name = undotted(name);
    switch (name) {
      case ".cfa" -> cfa = t;
      case ".ra" -> ra = t;
      default -> registers.put(name, t);
    }
    return true;
  }

  /**
   * A register name as the walker knows it: symbolic writes Windows arm64 unwind records with
   * dotted names ({@code .sp}, {@code .x29}); Breakpad's are {@code sp}, {@code x29}. {@code
   * .cfa}, {@code .ra} and every other token stay as they are.
   */
  private static String undotted(String t) {
    if (t.length() > 1
        && t.charAt(0) == '.'
        && !t.equals(".cfa")
        && !t.equals(".ra")
        && !t.equals(".undef")
        && Character.isLetter(t.charAt(1))) {
      return t.substring(1);
    }
    return t;
  }

  /** The compiled form and the register map it was made for, published together. */
  private record Compiled(Walker.CfiRegister[] map, CompiledCfi cfi) {}

  private volatile Compiled compiled;
  private volatile boolean notCompilable;

  /** The rules compiled for a walker's register map; null when they assign (interpreted). */
  CompiledCfi compiled(Walker.CfiRegister[] map, int word) {
    if (notCompilable || cfa == null || ra == null) {
      return null;
    }
    Compiled c = compiled;
    if (c != null && c.map() == map) {
      return c.cfi();
    }
    CompiledCfi cfi = CompiledCfi.compile(cfa, ra, registers, map, word);
    if (cfi == null) {
      notCompilable = true;
      return null;
    }
    compiled = new Compiled(map, cfi);
    return cfi;
  }

  /**
   * The caller's registers by name (".cfa" and ".ra" included), or null when the rules do not
   * give both the CFA and the return address.
   */
  Map<String, Long> callerRegisters(Map<String, Long> callee, MemoryReader memory, int word) {
    if (cfa == null || ra == null) {
      return null;
    }
    // each rule starts from the callee's registers (and the CFA); a rule that assigns ('=')
    // could change them for the next, so only then is the map copied again
    boolean assigns = assigns(cfa) || assigns(ra);
    for (String[] r : registers.values()) {
      assigns |= assigns(r);
    }
    Map<String, Long> working = new HashMap<>(callee);
    Long cfaValue = new Postfix(working, memory, word).evaluateForValue(cfa);
    if (cfaValue == null) {
      return null;
    }
    if (assigns) {
      working = new HashMap<>(callee);
    }
    working.put(".cfa", cfaValue);
    Long raValue = new Postfix(working, memory, word).evaluateForValue(ra);
    if (raValue == null) {
      return null;
    }
    Map<String, Long> out = new HashMap<>();
    for (Map.Entry<String, String[]> r : registers.entrySet()) {
      if (assigns) {
        working = new HashMap<>(callee);
        working.put(".cfa", cfaValue);
      }
      Long v = new Postfix(working, memory, word).evaluateForValue(r.getValue());
      if (v != null) {
        out.put(r.getKey(), v);
      }
    }
    out.put(".ra", raValue);
    out.put(".cfa", cfaValue);
    return out;
  }

  private static boolean assigns(String[] tokens) {
    for (String t : tokens) {
      if (t.charAt(0) == '=') {
        return true;
      }
    }
    return false;
  }
}

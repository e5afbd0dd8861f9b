package io.symbolicate.symbols.cfi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the rows of one FDE into {@code STACK CFI INIT} / {@code STACK CFI} rule strings the way
 * symbolic's {@code AsciiCfiWriter} (and so Mozilla's dump_syms) writes them: the first row is
 * the INIT record, later rows write only the rules that changed since the register's last written
 * rule; the CFA comes first, then registers in the table's order, the return-address register as
 * {@code .ra}; rules Breakpad cannot evaluate (expressions, undefined, constants) and registers
 * it has no name for are left out; an INIT row with no return-address rule gets {@code .ra: lr}
 * (x30 on arm64) where the return address lives in a register; a row with nothing written is no
 * record. Records are held until the FDE ends so a bad FDE emits nothing.
 */
final class BreakpadRuleWriter implements CfiMachine.RowSink {
  /** Records one FDE may produce before it is refused (a few hundred for real code). */
  static final int MAX_RECORDS = 1 << 16;

  /** Bytes of rule text one FDE may produce before it is refused. */
  static final int MAX_TEXT = 1 << 20;

  record Record(boolean init, long address, long size, String rules) {}

  private final CfiArch arch;
  private final long returnAddress;
  private final long loadAddress;
  private final long start;
  private final long length;

  private final Map<Long, long[]> ruleCache = new HashMap<>();
  private boolean cfaWritten;
  private boolean cfaIsExpression;
  private long cfaA;
  private long cfaB;
  private final List<Record> records = new ArrayList<>();
  private int textBytes;

  BreakpadRuleWriter(CfiArch arch, long returnAddress, long loadAddress, Fde fde) {
    this.arch = arch;
    this.returnAddress = returnAddress;
    this.loadAddress = loadAddress;
    this.start = fde.initialAddress();
    this.length = fde.range();
  }

  List<Record> records() {
    return records;
  }

  @Override
  public void row(long rowStart, long rowEnd, RuleRow row) {
    StringBuilder line = new StringBuilder();
    boolean written = false;
    if (!cfaWritten
        || cfaIsExpression != row.cfaIsExpression
        || cfaA != row.cfaA
        || cfaB != row.cfaB) {
      cfaWritten = true;
      cfaIsExpression = row.cfaIsExpression;
      cfaA = row.cfaA;
      cfaB = row.cfaB;
      written |= writeCfa(line, row);
    }
    boolean raWritten = false;
    for (int i = 0; i < row.count; i++) {
      long reg = row.regs[i];
      long[] rule = {row.kinds[i], row.values[i], row.lengths[i]};
      long[] cached = ruleCache.get(reg);
      if (cached == null || cached[0] != rule[0] || cached[1] != rule[1] || cached[2] != rule[2]) {
        ruleCache.put(reg, rule);
        if (reg == returnAddress) {
          raWritten = true;
        }
        written |= writeRegister(line, reg, row.kinds[i], row.values[i]);
      }
    }
    boolean init = rowStart == start;
    if (init && !raWritten && arch.returnAddressInRegister()) {
      String name = arch.registerName(returnAddress);
      if (name != null) {
        line.append(" .ra: ").append(name);
      }
    }
    if (!written) {
      return;
    }
    String rules = line.substring(1);
    textBytes += rules.length();
    if (records.size() >= MAX_RECORDS || textBytes > MAX_TEXT) {
      throw new CfiException(
          "FDE produces more than " + MAX_RECORDS + " records or " + MAX_TEXT + " bytes of rules");
    }
    records.add(new Record(init, rowStart - loadAddress, init ? length : 0, rules));
  }

  private boolean writeCfa(StringBuilder line, RuleRow row) {
    if (row.cfaIsExpression) {
      return false;
    }
    String name = arch.registerName(row.cfaA);
    if (name == null) {
      return false;
    }
    line.append(" .cfa: ").append(name).append(' ').append(row.cfaB).append(" +");
    return true;
  }

  private boolean writeRegister(StringBuilder line, long reg, int kind, long value) {
    String rule;
    switch (kind) {
      case RuleRow.SAME_VALUE -> rule = arch.registerName(reg);
      case RuleRow.OFFSET -> rule = ".cfa " + value + " + ^";
      case RuleRow.VAL_OFFSET -> rule = ".cfa " + value + " +";
      case RuleRow.REGISTER -> rule = arch.registerName(value);
      default -> rule = null; // undefined, expressions, constants: Breakpad cannot say them
    }
    if (rule == null) {
      return false;
    }
    String name = reg == returnAddress ? ".ra" : arch.registerName(reg);
    if (name == null) {
      return false;
    }
    line.append(' ').append(name).append(": ").append(rule);
    return true;
  }

  static byte[] bytes(String rules) {
    return rules.getBytes(StandardCharsets.US_ASCII);
  }
}

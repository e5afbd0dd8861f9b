package io.symbolicate.symbols.cfi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a CIE's initial instructions and an FDE's instructions (DWARF 5 section 6.4.2 and the GNU
 * and AArch64 extensions) and hands out each row of the unwind table with its address range. The
 * semantics follow gimli's {@code UnwindTable}, which symbolic and Mozilla's dump_syms write their
 * {@code STACK CFI} from: every advance ends a row (even by zero), an instruction we do not know
 * ends the program (the rest of the function keeps the current row), a row holds at most {@link
 * RuleRow#MAX_RULES} rules and the remember-state stack at most {@link #MAX_STACK} rows. Work is
 * linear in the program's bytes: every instruction consumes at least one.
 */
final class CfiMachine {
  /** Rows on the remember-state stack, the current one and the CIE's copy included (gimli's). */
  static final int MAX_STACK = 4;

  /** Receives the rows of one FDE, in address order. */
  interface RowSink {
    void row(long start, long end, RuleRow row);
  }

  /** The state after a CIE's initial instructions, shared by its FDEs (copied for each). */
  static final class Initial {
    final List<RuleRow> stack;
    final RuleRow cieRow;
    final boolean copyAtBottom;

    private Initial(List<RuleRow> stack, RuleRow cieRow, boolean copyAtBottom) {
      this.stack = stack;
      this.cieRow = cieRow;
      this.copyAtBottom = copyAtBottom;
    }
  }

  private static final int ADVANCE_LOC = 0x40;
  private static final int OFFSET = 0x80;
  private static final int RESTORE = 0xC0;

  private final ByteBuffer data;
  private final int addressSize;
  private final long codeAlignment;
  private final long dataAlignment;
  private final boolean aarch64;
  private final PointerEncoding.Bases bases;
  private final int setLocEncoding;

  private List<RuleRow> stack;
  private Initial initial;
  private boolean undefinedKeepsRule;

  private CfiMachine(
      ByteBuffer data, Cie cie, boolean aarch64, PointerEncoding.Bases bases, int setLocEncoding) {
    this.data = data;
    this.addressSize = cie.addressSize();
    this.codeAlignment = cie.codeAlignment();
    this.dataAlignment = cie.dataAlignment();
    this.aarch64 = aarch64;
    this.bases = bases;
    this.setLocEncoding = setLocEncoding;
  }

  /** Runs the CIE's initial instructions; {@link CfiException} when they are unusable. */
  static Initial initialize(
      ByteBuffer data, Cie cie, boolean aarch64, PointerEncoding.Bases bases) {
    return initialize(data, cie, aarch64, bases, false);
  }

  /**
   * {@code undefinedKeepsRule}: {@code DW_CFA_undefined} changes nothing, as in Breakpad's own
   * dump_syms (its handler drops undefined rules, so the register keeps its earlier rule).
   */
  static Initial initialize(
      ByteBuffer data,
      Cie cie,
      boolean aarch64,
      PointerEncoding.Bases bases,
      boolean undefinedKeepsRule) {
    CfiMachine m = new CfiMachine(data, cie, aarch64, bases, -1);
    m.undefinedKeepsRule = undefinedKeepsRule;
    m.stack = new ArrayList<>();
    m.stack.add(new RuleRow());
    m.run(new SectionCursor(data, cie.instructionsStart(), cie.instructionsEnd()), 0, 0, null);
    RuleRow current = m.top();
    boolean copy = current.count > 1;
    if (copy) {
      if (m.stack.size() >= MAX_STACK) {
        throw new CfiException("remember-state stack full after the CIE");
      }
      m.stack.add(0, current.copy());
    }
    return new Initial(m.stack, current.copy(), copy);
  }

  /** Runs an FDE's instructions from its CIE's state, handing each row to {@code sink}. */
  static void run(
      ByteBuffer data,
      Fde fde,
      Initial init,
      boolean aarch64,
      PointerEncoding.Bases bases,
      RowSink sink) {
    run(data, fde, init, aarch64, bases, false, sink);
  }

  /** {@link #run} with {@code undefinedKeepsRule} as {@link #initialize} takes it. */
  static void run(
      ByteBuffer data,
      Fde fde,
      Initial init,
      boolean aarch64,
      PointerEncoding.Bases bases,
      boolean undefinedKeepsRule,
      RowSink sink) {
    CfiMachine m = new CfiMachine(data, fde.cie(), aarch64, bases, fde.cie().fdeEncoding());
    m.undefinedKeepsRule = undefinedKeepsRule;
    m.initial = init;
    m.stack = new ArrayList<>(init.stack.size() + 2);
    for (RuleRow r : init.stack) {
      m.stack.add(r.copy());
    }
    m.run(
        new SectionCursor(data, fde.instructionsStart(), fde.instructionsEnd()),
        fde.initialAddress(),
        fde.endAddress(),
        sink);
  }

  private RuleRow top() {
    return stack.get(stack.size() - 1);
  }

  private void run(SectionCursor in, long start, long end, RowSink sink) {
    long address = start;
    while (!in.atEnd()) {
      int op = in.u8();
      int high = op & 0xC0;
      int low = op & 0x3F;
      long next;
      if (high == ADVANCE_LOC) {
        next = advance(address, low);
      } else if (high == OFFSET) {
        setRule(low, RuleRow.OFFSET, in.uleb() * dataAlignment, 0);
        continue;
      } else if (high == RESTORE) {
        restore(low);
        continue;
      } else {
        switch (op) {
          case 0x00 -> { // nop
            continue;
          }
          case 0x01 -> { // set_loc
            long a =
                setLocEncoding >= 0
                    ? PointerEncoding.pointer(setLocEncoding, in, bases, null, addressSize)
                    : in.address(addressSize);
            if (setLocEncoding >= 0 && (setLocEncoding & PointerEncoding.INDIRECT) != 0) {
              throw new CfiException("indirect DW_CFA_set_loc");
            }
            if (Long.compareUnsigned(a, address) < 0) {
              throw new CfiException("DW_CFA_set_loc goes backwards");
            }
            next = a;
          }
          case 0x02 -> next = advance(address, in.u8());
          case 0x03 -> next = advance(address, in.u16());
          case 0x04 -> next = advance(address, in.u32());
          case 0x05 -> { // offset_extended
            long reg = register(in);
            setRule(reg, RuleRow.OFFSET, in.uleb() * dataAlignment, 0);
            continue;
          }
          case 0x06 -> { // restore_extended
            restore(register(in));
            continue;
          }
          case 0x07 -> { // undefined
            long reg = register(in);
            if (!undefinedKeepsRule) {
              setRule(reg, RuleRow.UNDEFINED, 0, 0);
            }
            continue;
          }
          case 0x08 -> { // same_value
            setRule(register(in), RuleRow.SAME_VALUE, 0, 0);
            continue;
          }
          case 0x09 -> { // register
            long reg = register(in);
            setRule(reg, RuleRow.REGISTER, register(in), 0);
            continue;
          }
          case 0x0A -> { // remember_state
            if (stack.size() >= MAX_STACK) {
              throw new CfiException("remember-state stack over " + MAX_STACK + " rows");
            }
            stack.add(top().copy());
            continue;
          }
          case 0x0B -> { // restore_state
            int min = initial != null && initial.copyAtBottom ? 2 : 1;
            if (stack.size() <= min) {
              throw new CfiException("DW_CFA_restore_state without a remembered state");
            }
            stack.remove(stack.size() - 1);
            continue;
          }
          case 0x0C -> { // def_cfa
            long reg = register(in);
            setCfa(reg, in.uleb());
            continue;
          }
          case 0x0D -> { // def_cfa_register
            long reg = register(in);
            requireRegisterCfa().cfaA = reg;
            continue;
          }
          case 0x0E -> { // def_cfa_offset
            long off = in.uleb();
            requireRegisterCfa().cfaB = off;
            continue;
          }
          case 0x0F -> { // def_cfa_expression
            long len = in.uleb();
            int at = in.position();
            in.skip(len);
            RuleRow r = top();
            r.cfaIsExpression = true;
            r.cfaA = at;
            r.cfaB = len;
            continue;
          }
          case 0x10, 0x16 -> { // expression, val_expression
            long reg = register(in);
            long len = in.uleb();
            int at = in.position();
            in.skip(len);
            setRule(reg, op == 0x10 ? RuleRow.EXPRESSION : RuleRow.VAL_EXPRESSION, at, len);
            continue;
          }
          case 0x11 -> { // offset_extended_sf
            long reg = register(in);
            setRule(reg, RuleRow.OFFSET, in.sleb() * dataAlignment, 0);
            continue;
          }
          case 0x12 -> { // def_cfa_sf
            long reg = register(in);
            setCfa(reg, in.sleb() * dataAlignment);
            continue;
          }
          case 0x13 -> { // def_cfa_offset_sf
            long off = in.sleb() * dataAlignment;
            requireRegisterCfa().cfaB = off;
            continue;
          }
          case 0x14 -> { // val_offset
            long reg = register(in);
            setRule(reg, RuleRow.VAL_OFFSET, in.uleb() * dataAlignment, 0);
            continue;
          }
          case 0x15 -> { // val_offset_sf
            long reg = register(in);
            setRule(reg, RuleRow.VAL_OFFSET, in.sleb() * dataAlignment, 0);
            continue;
          }
          case 0x2E -> { // GNU_args_size: only the unwinder's business
            in.uleb();
            continue;
          }
          case 0x2F -> { // GNU_negative_offset_extended (Breakpad reads it; gimli stops)
            long reg = register(in);
            setRule(reg, RuleRow.OFFSET, -(in.uleb() * dataAlignment), 0);
            continue;
          }
          default -> {
            if (op == 0x2D && aarch64) {
              negateRaState();
              continue;
            }
            // an instruction we cannot size: the rest of the program is unreadable
            finish(address, end, sink);
            return;
          }
        }
      }
      if (sink != null) {
        sink.row(address, next, top());
      }
      address = next;
    }
    finish(address, end, sink);
  }

  private void finish(long address, long end, RowSink sink) {
    if (sink != null) {
      sink.row(address, end, top());
    }
  }

  private long advance(long address, long delta) {
    long d = delta * codeAlignment;
    long sum = address + d;
    boolean overflow = Long.compareUnsigned(sum, address) < 0;
    if (overflow || PointerEncoding.mask(sum, addressSize) != sum) {
      throw new CfiException("DW_CFA_advance_loc past the end of the address space");
    }
    return sum;
  }

  private static long register(SectionCursor in) {
    long reg = in.uleb();
    if (reg < 0 || reg > 0xFFFF) {
      throw new CfiException("register number " + Long.toUnsignedString(reg));
    }
    return reg;
  }

  private void setRule(long reg, int kind, long value, long length) {
    top().set(reg, kind, value, length); // a full row drops the rule, as gimli's does
  }

  private void setCfa(long reg, long offset) {
    RuleRow r = top();
    r.cfaIsExpression = false;
    r.cfaA = reg;
    r.cfaB = offset;
  }

  private RuleRow requireRegisterCfa() {
    RuleRow r = top();
    if (r.cfaIsExpression) {
      throw new CfiException("CFA register or offset change after a CFA expression");
    }
    return r;
  }

  private void restore(long reg) {
    if (initial == null) {
      throw new CfiException("DW_CFA_restore in a CIE");
    }
    RuleRow cie = initial.cieRow;
    int i = cie.indexOf(reg);
    if (i < 0) {
      top().clear(reg);
    } else {
      top().set(reg, cie.kinds[i], cie.values[i], cie.lengths[i]);
    }
  }

  /** AArch64 return-address signing: flips the RA_SIGN_STATE pseudo-register (34). */
  private void negateRaState() {
    RuleRow r = top();
    int i = r.indexOf(34);
    long value = 0;
    if (i >= 0) {
      if (r.kinds[i] != RuleRow.CONSTANT) {
        throw new CfiException("DW_CFA_AARCH64_negate_ra_state on a non-constant rule");
      }
      value = r.values[i];
    }
    r.set(34, RuleRow.CONSTANT, value ^ 1, 0);
  }
}

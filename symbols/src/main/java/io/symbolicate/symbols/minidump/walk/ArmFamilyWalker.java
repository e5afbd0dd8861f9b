package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Breakpad's arm and arm64 rules (the same shape): CFI (registers by name, pc from .ra and sp
 * from .cfa when not named, callee-saved registers carried over), then the frame-pointer chain
 * (fp, lr pairs), then stack scanning.
 */
abstract class ArmFamilyWalker extends Walker {
  private final int sp;
  private final int pc;
  private final int lr;
  private final int savedLow;
  private final int savedHigh;
  private final int adjust;

  ArmFamilyWalker(Cpu cpu, String osShort, MemoryReader memory, Symbolizer symbolizer, int sp,
      int pc, int lr, int savedLow, int savedHigh, int adjust) {
    super(cpu, osShort, memory, symbolizer);
    this.sp = sp;
    this.pc = pc;
    this.lr = lr;
    this.savedLow = savedLow;
    this.savedHigh = savedHigh;
    this.adjust = adjust;
  }

  /** CFI register name of index {@code i}. */
  abstract String cfiName(int i);

  /** The frame pointer register, or -1 when frame pointers are not used. */
  abstract int fpRegister();

  /** Strips pointer authentication bits (arm64); identity elsewhere. */
  long strip(long p) {
    return p;
  }

  boolean cfiAllowed() {
    return true;
  }

  @Override
  Frame callerFrame(List<Frame> frames, boolean scanAllowed) {
    Frame last = last(frames);
    Frame f = null;
    if (cfiAllowed()) {
      CfiRules rules = symbolizer.cfi(last);
      if (rules != null) {
        f = byCfi(last, rules);
      }
    }
    if (f == null && fpRegister() >= 0) {
      f = byFramePointer(frames, last);
    }
    if (f == null && scanAllowed) {
      long[] found = scanForReturnAddress(last.context.get(sp), last.trust == Trust.CONTEXT);
      if (found != null) {
        CpuContext c = new CpuContext(last.context);
        c.set(pc, found[1]);
        c.set(sp, (found[0] + word) & mask);
        c.keepOnly((1L << pc) | (1L << sp));
        f = new Frame(c, 0, Trust.SCAN);
      }
    }
    if (f == null) {
      return null;
    }
    if (terminate(f.context.get(pc), f.context.get(sp), last.context.get(sp),
        last.trust == Trust.CONTEXT)) {
      return null;
    }
    f.instruction = (f.context.get(pc) - adjust) & mask;
    return f;
  }

  private Frame byCfi(Frame last, CfiRules rules) {
    Map<String, Long> callee = new HashMap<>();
    CpuContext lc = last.context;
    int n = cpu.registers().size();
    for (int i = 0; i < n; i++) {
      if (lc.isValid(i)) {
        callee.put(cfiName(i), lc.get(i));
      }
    }
    Map<String, Long> caller = rules.callerRegisters(callee, memory, word);
    if (caller == null) {
      return null;
    }
    CpuContext c = new CpuContext(cpu);
    for (int i = 0; i < n; i++) {
      Long v = caller.get(cfiName(i));
      if (v != null) {
        c.set(i, v);
      } else if (i >= savedLow && i <= savedHigh && lc.isValid(i)) {
        c.set(i, lc.get(i));
      }
    }
    if (!c.isValid(pc) && caller.containsKey(".ra")) {
      c.set(pc, caller.get(".ra"));
    }
    if (!c.isValid(sp) && caller.containsKey(".cfa")) {
      c.set(sp, caller.get(".cfa"));
    }
    if (!c.isValid(pc) || !c.isValid(sp)) {
      return null;
    }
    c.set(pc, strip(c.get(pc)));
    return new Frame(c, 0, Trust.CFI);
  }

  Frame byFramePointer(List<Frame> frames, Frame last) {
    int fp = fpRegister();
    CpuContext lc = last.context;
    if (!lc.isValid(fp)) {
      return null;
    }
    long lastFp = lc.get(fp);
    long callerFp = 0;
    long callerLr = 0;
    if (lastFp != 0) {
      if (!has(lastFp) || !has((lastFp + word) & mask)) {
        return null;
      }
      callerFp = read(lastFp);
      callerLr = strip(read((lastFp + word) & mask));
    }
    long callerSp = lastFp != 0 ? (lastFp + 2L * word) & mask : lc.get(sp);
    CpuContext c = new CpuContext(lc);
    c.set(fp, callerFp);
    c.set(sp, callerSp);
    c.set(pc, lc.get(lr));
    c.set(lr, callerLr);
    c.keepOnly((1L << pc) | (1L << lr) | (1L << fp) | (1L << sp));
    return new Frame(c, 0, Trust.FRAME_POINTER);
  }
}

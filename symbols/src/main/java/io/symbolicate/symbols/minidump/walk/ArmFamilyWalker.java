package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.List;

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

  ArmFamilyWalker(
      Cpu cpu,
      String osShort,
      MemoryReader memory,
      Symbolizer symbolizer,
      int sp,
      int pc,
      int lr,
      int savedLow,
      int savedHigh,
      int adjust) {
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
    if (terminate(
        f.context.get(pc), f.context.get(sp), last.context.get(sp), last.trust == Trust.CONTEXT)) {
      return null;
    }
    f.instruction = (f.context.get(pc) - adjust) & mask;
    return f;
  }

  private CfiRegister[] cfiMap;

  /** CFI names by register; pc falls back to .ra and sp to .cfa; the callee-saved carry over. */
  private CfiRegister[] cfiMap() {
    if (cfiMap == null) {
      int n = cpu.registers().size();
      CfiRegister[] m = new CfiRegister[n];
      for (int i = 0; i < n; i++) {
        m[i] =
            new CfiRegister(
                i,
                cfiName(i),
                i == pc ? ".ra" : i == sp ? ".cfa" : null,
                i >= savedLow && i <= savedHigh);
      }
      cfiMap = m;
    }
    return cfiMap;
  }

  private Frame byCfi(Frame last, CfiRules rules) {
    CpuContext c = cfiCaller(last, rules, cfiMap());
    if (c == null || !c.isValid(pc) || !c.isValid(sp)) {
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

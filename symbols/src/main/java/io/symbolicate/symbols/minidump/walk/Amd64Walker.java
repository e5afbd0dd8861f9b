package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.List;

/**
 * Breakpad's amd64 rules: CFI; on Windows a leaf function's return is simulated below the
 * context frame; frame pointers (rbp chain) except on Windows; then stack scanning.
 */
final class Amd64Walker extends Walker {
  private static final int RBP = Cpu.AMD64_RBP;
  private static final int RSP = Cpu.AMD64_RSP;
  private static final int RIP = Cpu.AMD64_RIP;
  private static final CfiRegister[] CFI_MAP;

  static {
    List<String> regs = Cpu.AMD64.registers();
    CFI_MAP = new CfiRegister[regs.size()];
    for (int i = 0; i < regs.size(); i++) {
      String n = regs.get(i);
      boolean saved =
          n.equals("rbx")
              || n.equals("rbp")
              || n.equals("r12")
              || n.equals("r13")
              || n.equals("r14")
              || n.equals("r15");
      String alt = i == RSP ? ".cfa" : i == RIP ? ".ra" : null;
      CFI_MAP[i] = new CfiRegister(i, "$" + n, alt, saved);
    }
  }

  static CfiRegister[] cfiMapForTests() {
    return CFI_MAP;
  }

  Amd64Walker(String osShort, MemoryReader memory, Symbolizer symbolizer) {
    super(Cpu.AMD64, osShort, memory, symbolizer);
  }

  @Override
  Frame callerFrame(List<Frame> frames, boolean scanAllowed) {
    Frame last = last(frames);
    Frame f = null;
    CfiRules rules = symbolizer.cfi(last);
    if (rules != null) {
      f = byCfi(last, rules);
    }
    boolean windows = osShort.equals("windows");
    if (f == null && last.trust == Trust.CONTEXT && windows) {
      f = bySimulatingReturn(last);
    }
    if (f == null && !windows) {
      f = byFramePointer(last);
    }
    if (f == null && scanAllowed) {
      f = byScan(last);
    }
    if (f == null) {
      return null;
    }
    if (osShort.equals("nacl")) {
      f.context.set(RIP, f.context.get(RIP) & 0xFFFFFFFFL);
      f.context.set(RSP, f.context.get(RSP) & 0xFFFFFFFFL);
      f.context.set(RBP, f.context.get(RBP) & 0xFFFFFFFFL);
    }
    if (terminate(
        f.context.get(RIP),
        f.context.get(RSP),
        last.context.get(RSP),
        last.trust == Trust.CONTEXT)) {
      return null;
    }
    f.instruction = f.context.get(RIP) - 1;
    return f;
  }

  private Frame byCfi(Frame last, CfiRules rules) {
    CpuContext c = cfiCaller(last, rules, CFI_MAP);
    if (c == null || !c.isValid(RIP) || !c.isValid(RSP) || c.get(RIP) == 0 || c.get(RSP) == 0) {
      return null;
    }
    return new Frame(c, 0, Trust.CFI);
  }

  private static boolean nonCanonical(long p) {
    return Long.compareUnsigned(p, 0x7FFFFFFFFFFFL) > 0
        && Long.compareUnsigned(p, 0xFFFF800000000000L) < 0;
  }

  private Frame byFramePointer(Frame last) {
    long rbp = last.context.get(RBP);
    if (rbp % 8 != 0 || !has(rbp + 8) || !has(rbp)) {
      return null;
    }
    long callerRip = read(rbp + 8);
    long callerRbp = read(rbp);
    long callerRsp = rbp + 16;
    if (nonCanonical(callerRip)) {
      return null;
    }
    if (Long.compareUnsigned(callerRsp, rbp) <= 0
        || Long.compareUnsigned(callerRbp, callerRsp) < 0) {
      return null;
    }
    if (!has(callerRbp)) {
      return null;
    }
    CpuContext c = new CpuContext(last.context);
    c.set(RIP, callerRip);
    c.set(RSP, callerRsp);
    c.set(RBP, callerRbp);
    c.keepOnly((1L << RIP) | (1L << RSP) | (1L << RBP));
    return new Frame(c, 0, Trust.FRAME_POINTER);
  }

  private Frame bySimulatingReturn(Frame last) {
    long[] found = scanForReturnAddress(last.context.get(RSP), 1);
    if (found == null) {
      return null;
    }
    CpuContext c = new CpuContext(last.context);
    c.set(RIP, found[1]);
    c.set(RSP, found[0] + 8);
    c.keepOnly(last.context.validMask());
    return new Frame(c, 0, Trust.LEAF);
  }

  private Frame byScan(Frame last) {
    long[] found = scanForReturnAddress(last.context.get(RSP), last.trust == Trust.CONTEXT);
    if (found == null) {
      return null;
    }
    long location = found[0];
    CpuContext lc = last.context;
    CpuContext c = new CpuContext(lc);
    c.set(RIP, found[1]);
    c.set(RSP, location + 8);
    c.keepOnly((1L << RIP) | (1L << RSP));
    if (lc.isValid(RBP)) {
      long lastRbp = lc.get(RBP);
      if (location - 8 == lastRbp) {
        if (has(lastRbp)) {
          long callerRbp = read(lastRbp);
          if (Long.compareUnsigned(callerRbp, location) > 0) {
            c.set(RBP, callerRbp);
          }
        }
      } else if (Long.compareUnsigned(lastRbp, location + 8) >= 0) {
        c.set(RBP, lastRbp);
      }
    }
    return new Frame(c, 0, Trust.SCAN);
  }
}

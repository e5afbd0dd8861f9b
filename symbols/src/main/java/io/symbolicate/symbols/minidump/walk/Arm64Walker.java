package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.List;

/**
 * Breakpad's arm64 rules; pointer-authentication bits are stripped from recovered return
 * addresses (mask of the highest module address), and a frame without a valid lr gets the one
 * the frame-pointer chain holds.
 */
final class Arm64Walker extends ArmFamilyWalker {
  private long addressMask = -1L;

  Arm64Walker(String osShort, MemoryReader memory, Symbolizer symbolizer) {
    super(
        Cpu.ARM64,
        osShort,
        memory,
        symbolizer,
        Cpu.ARM64_SP,
        Cpu.ARM64_PC,
        Cpu.ARM64_LR,
        19,
        29,
        4);
  }

  void setHighestModuleEnd(long end) {
    if (end != 0) {
      int bits = 64 - Long.numberOfLeadingZeros(end);
      addressMask = bits >= 64 ? -1L : (1L << bits) - 1;
    }
  }

  @Override
  void prepareContextFrame(CpuContext c) {
    c.set(Cpu.ARM64_LR, strip(c.get(Cpu.ARM64_LR)));
  }

  /** Breakpad's PtrauthStrip: the masked pointer when it lands in a module, else as it was. */
  @Override
  long strip(long p) {
    long stripped = p & addressMask;
    return symbolizer.hasLoadedModule(stripped) ? stripped : p;
  }

  @Override
  String cfiName(int i) {
    return i == Cpu.ARM64_SP ? "sp" : i == Cpu.ARM64_PC ? "pc" : "x" + i;
  }

  @Override
  int fpRegister() {
    return Cpu.ARM64_FP;
  }

  @Override
  Frame byFramePointer(List<Frame> frames, Frame last) {
    if (!last.context.isValid(Cpu.ARM64_LR) && frames.size() >= 2) {
      correctLr(frames, last);
    }
    return super.byFramePointer(frames, last);
  }

  private void correctLr(List<Frame> frames, Frame last) {
    long fp = last.context.get(Cpu.ARM64_FP);
    if (Long.compareUnsigned(fp, last.context.get(Cpu.ARM64_SP)) <= 0) {
      return;
    }
    Frame prev = frames.get(frames.size() - 2);
    if (prev.context == null) {
      return;
    }
    long prevFp = prev.context.get(Cpu.ARM64_FP);
    long lastFp = 0;
    if (prevFp != 0) {
      if (!has(prevFp)) {
        return;
      }
      lastFp = read(prevFp);
    }
    if (fp != lastFp) {
      return;
    }
    long lr = 0;
    if (prevFp != 0) {
      if (!has(prevFp + 8)) {
        return;
      }
      lr = read(prevFp + 8);
    }
    last.context.set(Cpu.ARM64_LR, strip(lr));
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.MemoryReader;

/** Breakpad's arm rules: CFI (not on iOS), the r7 frame chain on iOS only, stack scanning. */
final class ArmWalker extends ArmFamilyWalker {
  private static final String[] NAMES = {
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr",
    "pc"
  };

  ArmWalker(String osShort, MemoryReader memory, Symbolizer symbolizer) {
    super(Cpu.ARM, osShort, memory, symbolizer, Cpu.ARM_SP, Cpu.ARM_PC, Cpu.ARM_LR, 4, 11, 2);
  }

  @Override
  String cfiName(int i) {
    return NAMES[i];
  }

  @Override
  int fpRegister() {
    return osShort.equals("ios") ? Cpu.ARM_IOS_FP : -1;
  }

  @Override
  boolean cfiAllowed() {
    return !osShort.equals("ios");
  }
}

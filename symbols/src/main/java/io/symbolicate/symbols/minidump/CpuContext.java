package io.symbolicate.symbols.minidump;

import java.util.Arrays;

/**
 * The registers of one frame: values by {@link Cpu} register index and a mask of the valid ones.
 * Values of 32-bit CPUs are kept zero-extended.
 */
public final class CpuContext {
  private final Cpu cpu;
  private final long[] regs;
  private long valid;

  public CpuContext(Cpu cpu) {
    this.cpu = cpu;
    this.regs = new long[cpu.registers().size()];
  }

  public CpuContext(CpuContext other) {
    this.cpu = other.cpu;
    this.regs = other.regs.clone();
    this.valid = other.valid;
  }

  public Cpu cpu() {
    return cpu;
  }

  public long get(int reg) {
    return regs[reg];
  }

  public boolean isValid(int reg) {
    return (valid & (1L << reg)) != 0;
  }

  public long validMask() {
    return valid;
  }

  public void set(int reg, long value) {
    regs[reg] = cpu.pointerSize() == 4 ? value & 0xFFFFFFFFL : value;
    valid |= 1L << reg;
  }

  public void invalidate(int reg) {
    valid &= ~(1L << reg);
  }

  /** Keeps only the registers in {@code mask} valid. */
  public void keepOnly(long mask) {
    valid &= mask;
  }

  public void setAllValid() {
    valid = (1L << regs.length) - 1;
  }

  public boolean allValid() {
    return valid == (1L << regs.length) - 1;
  }

  public long pc() {
    return switch (cpu) {
      case X86 -> regs[Cpu.X86_EIP];
      case AMD64 -> regs[Cpu.AMD64_RIP];
      case ARM -> regs[Cpu.ARM_PC];
      case ARM64 -> regs[Cpu.ARM64_PC];
    };
  }

  public long sp() {
    return switch (cpu) {
      case X86 -> regs[Cpu.X86_ESP];
      case AMD64 -> regs[Cpu.AMD64_RSP];
      case ARM -> regs[Cpu.ARM_SP];
      case ARM64 -> regs[Cpu.ARM64_SP];
    };
  }

  @Override
  public String toString() {
    return cpu + Arrays.toString(regs) + " valid=" + Long.toHexString(valid);
  }
}

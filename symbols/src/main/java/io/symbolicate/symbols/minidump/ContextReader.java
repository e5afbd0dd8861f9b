package io.symbolicate.symbols.minidump;

/** Reads a raw CPU context (Breakpad's MDRawContext* layouts) into a {@link CpuContext}. */
final class ContextReader {
  static final int X86_SIZE = 716;
  static final int AMD64_SIZE = 1232;
  static final int ARM_SIZE = 368;
  static final int ARM64_SIZE = 912;
  static final int ARM64_OLD_SIZE = 796;

  static final long FLAG_X86 = 0x00010000L;
  static final long FLAG_AMD64 = 0x00100000L;
  static final long FLAG_ARM = 0x40000000L;
  static final long FLAG_ARM64 = 0x00400000L;
  static final long FLAG_ARM64_OLD = 0x80000000L;
  private static final long CPU_MASK = 0xFFFFFF00L;

  private ContextReader() {}

  /**
   * Returns the context, or null when its size and flags name no CPU this reader knows (Breakpad
   * then has no stack walker for the thread). {@code systemCpu} decides contexts without CPU flags.
   */
  static CpuContext read(byte[] b, Cpu systemCpu) {
    int n = b.length;
    if (n == AMD64_SIZE && (LittleEndian.u32(b, 48) & CPU_MASK) == FLAG_AMD64) {
      return amd64(b);
    }
    if (n == ARM64_OLD_SIZE && (LittleEndian.u64(b, 0) & FLAG_ARM64_OLD) != 0) {
      CpuContext c = new CpuContext(Cpu.ARM64);
      for (int i = 0; i < 33; i++) {
        c.set(i, LittleEndian.u64(b, 8 + 8 * i));
      }
      return c;
    }
    if (n < 4) {
      return null;
    }
    long cpuFlags = LittleEndian.u32(b, 0) & CPU_MASK;
    if (cpuFlags == 0 && systemCpu != null) {
      cpuFlags =
          switch (systemCpu) {
            case X86 -> FLAG_X86;
            case AMD64 -> FLAG_AMD64;
            case ARM -> FLAG_ARM;
            case ARM64 -> FLAG_ARM64;
          };
    }
    if (cpuFlags == FLAG_X86 && n == X86_SIZE) {
      CpuContext c = new CpuContext(Cpu.X86);
      c.set(Cpu.X86_EIP, LittleEndian.u32(b, 184));
      c.set(Cpu.X86_ESP, LittleEndian.u32(b, 196));
      c.set(Cpu.X86_EBP, LittleEndian.u32(b, 180));
      c.set(Cpu.X86_EBX, LittleEndian.u32(b, 164));
      c.set(Cpu.X86_ESI, LittleEndian.u32(b, 160));
      c.set(Cpu.X86_EDI, LittleEndian.u32(b, 156));
      c.set(6, LittleEndian.u32(b, 176)); // eax
      c.set(7, LittleEndian.u32(b, 172)); // ecx
      c.set(8, LittleEndian.u32(b, 168)); // edx
      c.set(9, LittleEndian.u32(b, 192)); // eflags
      return c;
    }
    if (cpuFlags == FLAG_ARM && n == ARM_SIZE) {
      CpuContext c = new CpuContext(Cpu.ARM);
      for (int i = 0; i < 16; i++) {
        c.set(i, LittleEndian.u32(b, 4 + 4 * i));
      }
      return c;
    }
    if (cpuFlags == FLAG_ARM64 && n == ARM64_SIZE) {
      CpuContext c = new CpuContext(Cpu.ARM64);
      for (int i = 0; i < 33; i++) {
        c.set(i, LittleEndian.u64(b, 8 + 8 * i));
      }
      return c;
    }
    return null;
  }

  private static CpuContext amd64(byte[] b) {
    CpuContext c = new CpuContext(Cpu.AMD64);
    c.set(0, LittleEndian.u64(b, 120)); // rax
    c.set(1, LittleEndian.u64(b, 136)); // rdx
    c.set(2, LittleEndian.u64(b, 128)); // rcx
    c.set(3, LittleEndian.u64(b, 144)); // rbx
    c.set(4, LittleEndian.u64(b, 168)); // rsi
    c.set(5, LittleEndian.u64(b, 176)); // rdi
    c.set(Cpu.AMD64_RBP, LittleEndian.u64(b, 160));
    c.set(Cpu.AMD64_RSP, LittleEndian.u64(b, 152));
    for (int i = 0; i < 8; i++) {
      c.set(8 + i, LittleEndian.u64(b, 184 + 8 * i)); // r8..r15
    }
    c.set(Cpu.AMD64_RIP, LittleEndian.u64(b, 248));
    return c;
  }
}

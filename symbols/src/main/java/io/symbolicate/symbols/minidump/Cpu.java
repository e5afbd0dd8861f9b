package io.symbolicate.symbols.minidump;

import java.util.List;

/**
 * The CPU architectures whose contexts are read and walked, with their registers in the order
 * the walker indexes them (Breakpad's CFI register order, which is also its print order).
 */
public enum Cpu {
  X86("x86", 4, List.of("eip", "esp", "ebp", "ebx", "esi", "edi", "eax", "ecx", "edx", "efl")),
  AMD64(
      "amd64",
      8,
      List.of(
          "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12",
          "r13", "r14", "r15", "rip")),
  ARM(
      "arm",
      4,
      List.of(
          "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp", "r12", "sp",
          "lr", "pc")),
  ARM64(
      "arm64",
      8,
      List.of(
          "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
          "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",
          "x27", "x28", "fp", "lr", "sp", "pc"));

  private final String breakpadName;
  private final int pointerSize;
  private final List<String> registers;

  Cpu(String breakpadName, int pointerSize, List<String> registers) {
    this.breakpadName = breakpadName;
    this.pointerSize = pointerSize;
    this.registers = registers;
  }

  /** The name Breakpad prints (x86, amd64, arm, arm64). */
  public String breakpadName() {
    return breakpadName;
  }

  public int pointerSize() {
    return pointerSize;
  }

  public List<String> registers() {
    return registers;
  }

  public int register(String name) {
    return registers.indexOf(name);
  }

  // register indexes the walkers use
  public static final int X86_EIP = 0;
  public static final int X86_ESP = 1;
  public static final int X86_EBP = 2;
  public static final int X86_EBX = 3;
  public static final int X86_ESI = 4;
  public static final int X86_EDI = 5;
  public static final int AMD64_RBP = 6;
  public static final int AMD64_RSP = 7;
  public static final int AMD64_RIP = 16;
  public static final int ARM_FP = 11;
  public static final int ARM_IOS_FP = 7;
  public static final int ARM_SP = 13;
  public static final int ARM_LR = 14;
  public static final int ARM_PC = 15;
  public static final int ARM64_FP = 29;
  public static final int ARM64_LR = 30;
  public static final int ARM64_SP = 31;
  public static final int ARM64_PC = 32;
}

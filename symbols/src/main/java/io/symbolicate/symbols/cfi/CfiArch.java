package io.symbolicate.symbols.cfi;

import java.util.Locale;

/**
 * The machines whose unwind info we turn into Breakpad records: the DWARF register numbers' names
 * as Breakpad's processor expects them ({@code $rsp} on x86, {@code sp} on ARM), the size of a
 * pointer, and whether the return address lives in a register (ARM) rather than on the stack.
 */
public enum CfiArch {
  X86(
      4,
      false,
      "$eax",
      "$ecx",
      "$edx",
      "$ebx",
      "$esp",
      "$ebp",
      "$esi",
      "$edi",
      "$eip",
      "$eflags",
      "$unused1",
      "$st0",
      "$st1",
      "$st2",
      "$st3",
      "$st4",
      "$st5",
      "$st6",
      "$st7",
      "$unused2",
      "$unused3",
      "$xmm0",
      "$xmm1",
      "$xmm2",
      "$xmm3",
      "$xmm4",
      "$xmm5",
      "$xmm6",
      "$xmm7",
      "$mm0",
      "$mm1",
      "$mm2",
      "$mm3",
      "$mm4",
      "$mm5",
      "$mm6",
      "$mm7",
      "$fcw",
      "$fsw",
      "$mxcsr",
      "$es",
      "$cs",
      "$ss",
      "$ds",
      "$fs",
      "$gs",
      "$unused4",
      "$unused5",
      "$tr",
      "$ldtr"),
  X86_64(
      8,
      false,
      "$rax",
      "$rdx",
      "$rcx",
      "$rbx",
      "$rsi",
      "$rdi",
      "$rbp",
      "$rsp",
      "$r8",
      "$r9",
      "$r10",
      "$r11",
      "$r12",
      "$r13",
      "$r14",
      "$r15",
      "$rip",
      "$xmm0",
      "$xmm1",
      "$xmm2",
      "$xmm3",
      "$xmm4",
      "$xmm5",
      "$xmm6",
      "$xmm7",
      "$xmm8",
      "$xmm9",
      "$xmm10",
      "$xmm11",
      "$xmm12",
      "$xmm13",
      "$xmm14",
      "$xmm15",
      "$st0",
      "$st1",
      "$st2",
      "$st3",
      "$st4",
      "$st5",
      "$st6",
      "$st7",
      "$mm0",
      "$mm1",
      "$mm2",
      "$mm3",
      "$mm4",
      "$mm5",
      "$mm6",
      "$mm7",
      "$rflags",
      "$es",
      "$cs",
      "$ss",
      "$ds",
      "$fs",
      "$gs",
      "$unused1",
      "$unused2",
      "$fs.base",
      "$gs.base",
      "$unused3",
      "$unused4",
      "$tr",
      "$ldtr",
      "$mxcsr",
      "$fcw",
      "$fsw"),
  ARM(4, true, armNames()),
  ARM64(8, true, arm64Names());

  private final int pointerSize;
  private final boolean returnAddressInRegister;
  private final String[] names;

  CfiArch(int pointerSize, boolean returnAddressInRegister, String... names) {
    this.pointerSize = pointerSize;
    this.returnAddressInRegister = returnAddressInRegister;
    this.names = names;
  }

  public int pointerSize() {
    return pointerSize;
  }

  /** ARM keeps the return address in {@code lr}: a row without a rule for it says so. */
  boolean returnAddressInRegister() {
    return returnAddressInRegister;
  }

  /** The Breakpad name of a DWARF register, or null when Breakpad has none. */
  public String registerName(long dwarfRegister) {
    if (dwarfRegister < 0 || dwarfRegister >= names.length) {
      return null;
    }
    String n = names[(int) dwarfRegister];
    return n == null || n.isEmpty() ? null : n;
  }

  /** From a Breakpad MODULE line's architecture ({@code x86_64}, {@code arm64}...), or null. */
  public static CfiArch fromBreakpad(String arch) {
    return switch (arch.toLowerCase(Locale.ROOT)) {
      case "x86", "i386", "i486", "i586", "i686" -> X86;
      case "x86_64", "amd64", "x86_64h" -> X86_64;
      case "arm", "armv7", "armv7s", "armv7k", "armv6" -> ARM;
      case "arm64", "aarch64", "arm64e" -> ARM64;
      default -> null;
    };
  }

  private static String[] armNames() {
    String[] n = new String[104];
    String[] low = {
      "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr",
      "pc", "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "fps", "cpsr"
    };
    System.arraycopy(low, 0, n, 0, low.length);
    for (int i = 0; i < 32; i++) {
      n[64 + i] = "s" + i;
    }
    for (int i = 0; i < 8; i++) {
      n[96 + i] = "f" + i;
    }
    return n;
  }

  private static String[] arm64Names() {
    String[] n = new String[96];
    for (int i = 0; i <= 30; i++) {
      n[i] = "x" + i;
    }
    n[31] = "sp";
    for (int i = 0; i < 32; i++) {
      n[64 + i] = "v" + i;
    }
    return n;
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.SystemInfo;
import java.util.Map;

/**
 * macOS and iOS: the Mach exception type is the exception code, its first code (a {@code
 * kern_return_t} or a CPU-specific flavour) the flags. Breakpad names the flavours of ARM (32-bit
 * and the old arm64 id, not the current arm64 id 12), PowerPC and x86/amd64; other CPUs and
 * unknown flavours print the flags in hex.
 */
final class AppleReasons {
  private AppleReasons() {}

  /**
   * One Mach exception: its name, the flavours named on every CPU, then those of each CPU family
   * (null: the whole reason is the name, without flags).
   */
  record MachException(String name, CodeNames any, CodeNames arm, CodeNames ppc, CodeNames x86) {
    static MachException flagsOnly(String name) {
      return new MachException(
          name, CodeNames.NONE, CodeNames.NONE, CodeNames.NONE, CodeNames.NONE);
    }

    static MachException wholeReason(String name) {
      return new MachException(name, null, null, null, null);
    }
  }

  static final Map<Long, MachException> EXCEPTIONS =
      Map.ofEntries(
          Map.entry(
              1L,
              new MachException(
                  "EXC_BAD_ACCESS",
                  CodeNames.parse(
                      """
                      1 KERN_INVALID_ADDRESS, 2 KERN_PROTECTION_FAILURE, 8 KERN_NO_ACCESS
                      9 KERN_MEMORY_FAILURE, 10 KERN_MEMORY_ERROR, 50 KERN_CODESIGN_ERROR
                      """),
                  CodeNames.parse("0x101 EXC_ARM_DA_ALIGN, 0x102 EXC_ARM_DA_DEBUG"),
                  CodeNames.parse(
                      "0x101 EXC_PPC_VM_PROT_READ, 0x102 EXC_PPC_BADSPACE, 0x103 EXC_PPC_UNALIGNED"),
                  CodeNames.parse("13 EXC_I386_GPFLT"))),
          Map.entry(
              2L,
              new MachException(
                  "EXC_BAD_INSTRUCTION",
                  CodeNames.NONE,
                  CodeNames.parse("1 EXC_ARM_UNDEFINED"),
                  CodeNames.parse(
                      """
                      1 EXC_PPC_INVALID_SYSCALL, 2 EXC_PPC_UNIPL_INST, 3 EXC_PPC_PRIVINST
                      4 EXC_PPC_PRIVREG, 5 EXC_PPC_TRACE, 6 EXC_PPC_PERFMON
                      """),
                  CodeNames.parse(
                      """
                      1 EXC_I386_INVOP, 10 EXC_I386_INVTSSFLT, 11 EXC_I386_SEGNPFLT
                      12 EXC_I386_STKFLT, 13 EXC_I386_GPFLT, 17 EXC_I386_ALIGNFLT
                      """))),
          Map.entry(
              3L,
              new MachException(
                  "EXC_ARITHMETIC",
                  CodeNames.NONE,
                  CodeNames.NONE,
                  CodeNames.parse(
                      """
                      1 EXC_PPC_OVERFLOW, 2 EXC_PPC_ZERO_DIVIDE, 3 EXC_FLT_INEXACT
                      4 EXC_PPC_FLT_ZERO_DIVIDE, 5 EXC_PPC_FLT_UNDERFLOW, 6 EXC_PPC_FLT_OVERFLOW
                      7 EXC_PPC_FLT_NOT_A_NUMBER, 8 EXC_PPC_NOEMULATION, 9 EXC_PPC_ALTIVECASSIST
                      """),
                  CodeNames.parse(
                      """
                      1 EXC_I386_DIV, 2 EXC_I386_INTO, 3 EXC_I386_NOEXT, 4 EXC_I386_EXTOVR
                      5 EXC_I386_EXTERR, 6 EXC_I386_EMERR, 7 EXC_I386_BOUND, 8 EXC_I386_SSEEXTERR
                      """))),
          Map.entry(4L, MachException.flagsOnly("EXC_EMULATION")),
          Map.entry(
              5L,
              // EXC_PPC_TRAP and EXC_PPC_MIGRATE are named on every CPU, as Breakpad does
              new MachException(
                  "EXC_SOFTWARE",
                  CodeNames.parse(
                      """
                      0x10002 SIGABRT, 0xDEADC0DE UNCAUGHT_NS_EXCEPTION, 1 EXC_PPC_TRAP
                      0x10100 EXC_PPC_MIGRATE
                      """),
                  CodeNames.NONE,
                  CodeNames.NONE,
                  CodeNames.NONE)),
          Map.entry(
              6L,
              new MachException(
                  "EXC_BREAKPOINT",
                  CodeNames.NONE,
                  CodeNames.parse(
                      "0x101 EXC_ARM_DA_ALIGN, 0x102 EXC_ARM_DA_DEBUG, 1 EXC_ARM_BREAKPOINT"),
                  CodeNames.parse("1 EXC_PPC_BREAKPOINT"),
                  CodeNames.parse("1 EXC_I386_SGL, 2 EXC_I386_BPT"))),
          Map.entry(7L, MachException.flagsOnly("EXC_SYSCALL")),
          Map.entry(8L, MachException.flagsOnly("EXC_MACH_SYSCALL")),
          Map.entry(9L, MachException.flagsOnly("EXC_RPC_ALERT")),
          Map.entry(11L, MachException.flagsOnly("EXC_RESOURCE")),
          Map.entry(12L, MachException.flagsOnly("EXC_GUARD")),
          // Crashpad's SimulateCrash ('CPsx') and uncaught NSException ('CPnx')
          Map.entry(0x43507378L, MachException.wholeReason("Simulated Exception")),
          Map.entry(0x43506E78L, MachException.wholeReason("Uncaught NSException")));

  static String reason(long code, long flags, int arch, String flagsHex, String numeric) {
    MachException e = EXCEPTIONS.get(code & 0xFFFFFFFFL);
    if (e == null) {
      return numeric;
    }
    if (e.any() == null) {
      return e.name();
    }
    String flavour = e.any().get(flags);
    if (flavour == null) {
      flavour = forCpu(e, arch).get(flags, flagsHex);
    }
    return e.name() + " / " + flavour;
  }

  private static CodeNames forCpu(MachException e, int arch) {
    return switch (arch) {
      case SystemInfo.ARCH_ARM, SystemInfo.ARCH_ARM64_OLD -> e.arm();
      case SystemInfo.ARCH_PPC -> e.ppc();
      case SystemInfo.ARCH_X86, SystemInfo.ARCH_AMD64 -> e.x86();
      default -> CodeNames.NONE;
    };
  }
}

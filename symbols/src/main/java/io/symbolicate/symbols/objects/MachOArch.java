package io.symbolicate.symbols.objects;

/** Mach-O CPU types and their names, as Breakpad's MODULE line and Symbolicator write them. */
final class MachOArch {
  static final int CPU_ARCH_ABI64 = 0x01000000;
  static final int CPU_ARCH_ABI64_32 = 0x02000000;
  static final int CPU_TYPE_X86 = 7;
  static final int CPU_TYPE_X86_64 = CPU_TYPE_X86 | CPU_ARCH_ABI64;
  static final int CPU_TYPE_ARM = 12;
  static final int CPU_TYPE_ARM64 = CPU_TYPE_ARM | CPU_ARCH_ABI64;
  static final int CPU_TYPE_ARM64_32 = CPU_TYPE_ARM | CPU_ARCH_ABI64_32;
  static final int CPU_TYPE_PPC = 18;
  static final int CPU_TYPE_PPC64 = CPU_TYPE_PPC | CPU_ARCH_ABI64;

  private MachOArch() {}

  static String name(int cpuType, int cpuSubtype) {
    int sub = cpuSubtype & 0x00ffffff; // the high byte holds capability bits (ptrauth ABI)
    return switch (cpuType) {
      case CPU_TYPE_X86 -> "x86";
      case CPU_TYPE_X86_64 -> sub == 8 ? "x86_64h" : "x86_64";
      case CPU_TYPE_ARM64 -> sub == 2 ? "arm64e" : "arm64";
      case CPU_TYPE_ARM64_32 -> "arm64_32";
      case CPU_TYPE_ARM ->
          switch (sub) {
            case 5 -> "armv4t";
            case 6 -> "armv6";
            case 7 -> "armv5";
            case 9 -> "armv7";
            case 10 -> "armv7f";
            case 11 -> "armv7s";
            case 12 -> "armv7k";
            case 14 -> "armv6m";
            case 15 -> "armv7m";
            case 16 -> "armv7em";
            default -> "arm";
          };
      case CPU_TYPE_PPC -> "ppc";
      case CPU_TYPE_PPC64 -> "ppc64";
      default -> "unknown";
    };
  }
}

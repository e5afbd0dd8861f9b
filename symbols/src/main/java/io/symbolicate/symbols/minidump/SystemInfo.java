package io.symbolicate.symbols.minidump;

/** MDRawSystemInfo, with the names Breakpad derives from it. */
public record SystemInfo(
    int processorArchitecture,
    int processorLevel,
    int processorRevision,
    int cpuCount,
    int productType,
    long majorVersion,
    long minorVersion,
    long buildNumber,
    long platformId,
    String csdVersion,
    String cpuVendor) {

  public static final int ARCH_X86 = 0;
  public static final int ARCH_PPC = 3;
  public static final int ARCH_ARM = 5;
  public static final int ARCH_AMD64 = 9;
  public static final int ARCH_ARM64 = 12;
  public static final int ARCH_ARM64_OLD = 0x8003;

  public static final long OS_WIN32_WINDOWS = 1;
  public static final long OS_WIN32_NT = 2;
  public static final long OS_MAC = 0x8101;
  public static final long OS_IOS = 0x8102;
  public static final long OS_LINUX = 0x8201;
  public static final long OS_SOLARIS = 0x8202;
  public static final long OS_ANDROID = 0x8203;
  public static final long OS_PS3 = 0x8204;
  public static final long OS_NACL = 0x8205;
  public static final long OS_FUCHSIA = 0x8206;

  /** The walkable CPU, or null for others (ppc, mips, ...). */
  public Cpu cpu() {
    return switch (processorArchitecture) {
      case ARCH_X86 -> Cpu.X86;
      case ARCH_AMD64 -> Cpu.AMD64;
      case ARCH_ARM -> Cpu.ARM;
      case ARCH_ARM64, ARCH_ARM64_OLD -> Cpu.ARM64;
      default -> null;
    };
  }

  /** Breakpad's CPU name ({@code x86}, {@code amd64}, ... or {@code 0x%04x}). */
  public String cpuName() {
    return switch (processorArchitecture) {
      case ARCH_X86 -> "x86";
      case ARCH_AMD64 -> "amd64";
      case 3 -> "ppc";
      case 0x8002 -> "ppc64";
      case 0x8001 -> "sparc";
      case ARCH_ARM -> "arm";
      case ARCH_ARM64, ARCH_ARM64_OLD -> "arm64";
      case 1 -> "mips";
      case 0x8004 -> "mips64";
      case 0x8005 -> "riscv";
      case 0x8006 -> "riscv64";
      default -> String.format("0x%04x", processorArchitecture);
    };
  }

  /** Breakpad's CPU info line: vendor and family/model/stepping on x86; empty elsewhere. */
  public String cpuInfo() {
    if (processorArchitecture != ARCH_X86 && processorArchitecture != ARCH_AMD64) {
      return "";
    }
    // Breakpad reads the vendor of x86 dumps only (amd64 dumps print none)
    String vendor = cpuVendor == null || processorArchitecture != ARCH_X86 ? "" : cpuVendor + " ";
    return vendor
        + "family "
        + processorLevel
        + " model "
        + (processorRevision >> 8)
        + " stepping "
        + (processorRevision & 0xFF);
  }

  /** Breakpad's OS name. */
  public String os() {
    if (platformId == OS_WIN32_NT) {
      return "Windows NT";
    }
    if (platformId == OS_WIN32_WINDOWS) {
      return "Windows";
    }
    if (platformId == OS_MAC) {
      return "Mac OS X";
    }
    if (platformId == OS_IOS) {
      return "iOS";
    }
    if (platformId == OS_LINUX) {
      return "Linux";
    }
    if (platformId == OS_SOLARIS) {
      return "Solaris";
    }
    if (platformId == OS_ANDROID) {
      return "Android";
    }
    if (platformId == OS_PS3) {
      return "PS3";
    }
    if (platformId == OS_NACL) {
      return "NaCl";
    }
    if (platformId == OS_FUCHSIA) {
      return "Fuchsia";
    }
    return String.format("0x%08x", platformId);
  }

  /** Breakpad's short OS name (windows, mac, ios, linux, ...), as its walkers test it. */
  public String osShort() {
    if (platformId == OS_WIN32_NT || platformId == OS_WIN32_WINDOWS) {
      return "windows";
    }
    if (platformId == OS_MAC) {
      return "mac";
    }
    if (platformId == OS_IOS) {
      return "ios";
    }
    if (platformId == OS_LINUX) {
      return "linux";
    }
    if (platformId == OS_SOLARIS) {
      return "solaris";
    }
    if (platformId == OS_ANDROID) {
      return "android";
    }
    if (platformId == OS_PS3) {
      return "ps3";
    }
    if (platformId == OS_NACL) {
      return "nacl";
    }
    if (platformId == OS_FUCHSIA) {
      return "fuchsia";
    }
    return "";
  }

  /** {@code major.minor.build} and the CSD version (service pack; uname on Linux). */
  public String osVersion() {
    String v = majorVersion + "." + minorVersion + "." + buildNumber;
    return csdVersion == null ? v : v + " " + csdVersion;
  }

  public boolean isLinuxLike() {
    return platformId == OS_LINUX || platformId == OS_ANDROID;
  }

  /** Breakpad keeps the low 32 bits of the crash address on these (x86, mips, ppc, shx, arm). */
  public long crashAddress(long raw) {
    return switch (processorArchitecture) {
      case ARCH_X86, 1, 3, 4, ARCH_ARM, 10 -> raw & 0xFFFFFFFFL;
      default -> raw;
    };
  }
}

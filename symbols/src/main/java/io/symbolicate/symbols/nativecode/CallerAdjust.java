package io.symbolicate.symbols.nativecode;

import java.util.Locale;

/**
 * How far back from a return address Breakpad looks up a caller frame, by architecture: the
 * return address points after the call instruction.
 */
public enum CallerAdjust {
  NONE(0),
  X86(1),
  AMD64(1),
  ARM(2),
  ARM64(4);

  private final int bytes;

  CallerAdjust(int bytes) {
    this.bytes = bytes;
  }

  public int bytes() {
    return bytes;
  }

  /**
   * The address inside the call instruction; a return address below the adjustment (offset 0 of
   * a module, say) is kept as it is rather than wrapped to the top of the 64-bit space, where it
   * would name the module's last symbol.
   */
  public long apply(long returnAddress) {
    return Long.compareUnsigned(returnAddress, bytes) < 0 ? returnAddress : returnAddress - bytes;
  }

  /** Accepts Breakpad and common spellings: x86, amd64/x86_64, arm, arm64/aarch64, none. */
  public static CallerAdjust forArch(String arch) {
    switch (arch.toLowerCase(Locale.ROOT)) {
      case "none":
        return NONE;
      case "x86":
      case "i386":
      case "i686":
        return X86;
      case "amd64":
      case "x86_64":
      case "x86-64":
        return AMD64;
      case "arm":
      case "armv7":
        return ARM;
      case "arm64":
      case "aarch64":
        return ARM64;
      default:
        throw new IllegalArgumentException(
            "unknown architecture '" + arch + "' (expected x86, amd64, arm, arm64 or none)");
    }
  }
}

package io.symbolicate.api.minidump;

import io.symbolicate.symbols.minidump.SystemInfo;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The crash reason as Symbolicator (rust-minidump) words it, from the walker's (Breakpad's):
 * a Linux signal without a known code is the signal alone (Breakpad appends {@code /0x00000000}),
 * and a Mach exception {@code 0xTYPE / 0xCODE} is named ({@code EXC_BAD_ACCESS /
 * KERN_INVALID_ADDRESS}); anything else is Breakpad's. Only the exception types and the
 * {@code EXC_BAD_ACCESS} codes below are named; others stay in hex.
 */
final class CrashReasons {
  private CrashReasons() {}

  private static final Pattern UNKNOWN_SIGNAL_CODE =
      Pattern.compile("(SIG[A-Z0-9]+) ?/ ?0x[0-9a-fA-F]+");
  private static final Pattern MACH =
      Pattern.compile("0x([0-9a-fA-F]{1,8}) / 0x([0-9a-fA-F]{1,16})");
  private static final String[] EXCEPTIONS = {
    null,
    "EXC_BAD_ACCESS",
    "EXC_BAD_INSTRUCTION",
    "EXC_ARITHMETIC",
    "EXC_EMULATION",
    "EXC_SOFTWARE",
    "EXC_BREAKPOINT",
    "EXC_SYSCALL",
    "EXC_MACH_SYSCALL",
    "EXC_RPC_ALERT",
    "EXC_CRASH",
    "EXC_RESOURCE",
    "EXC_GUARD",
    "EXC_CORPSE_NOTIFY"
  };
  private static final String[] KERN_CODES = {
    null, "KERN_INVALID_ADDRESS", "KERN_PROTECTION_FAILURE"
  };

  static String symbolicators(ProcessState state) {
    String reason = state.crashReason() == null ? "" : state.crashReason();
    SystemInfo s = state.systemInfo();
    if (s == null) {
      return reason;
    }
    if (s.platformId() == SystemInfo.OS_LINUX || s.platformId() == SystemInfo.OS_ANDROID) {
      Matcher m = UNKNOWN_SIGNAL_CODE.matcher(reason);
      return m.matches() ? m.group(1) : reason;
    }
    if (s.platformId() == SystemInfo.OS_MAC || s.platformId() == SystemInfo.OS_IOS) {
      Matcher m = MACH.matcher(reason);
      if (m.matches()) {
        int type = (int) Long.parseLong(m.group(1), 16);
        long code = Long.parseUnsignedLong(m.group(2), 16);
        if (type > 0 && type < EXCEPTIONS.length) {
          String name = EXCEPTIONS[type];
          if (type == 1 && code > 0 && code < KERN_CODES.length) {
            return name + " / " + KERN_CODES[(int) code];
          }
          return name + " / 0x" + Long.toHexString(code);
        }
      }
    }
    return reason;
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Records.Assertion;
import io.symbolicate.symbols.minidump.Records.ExceptionInfo;
import io.symbolicate.symbols.minidump.SystemInfo;

/**
 * Breakpad's crash reason and crash address ({@code MinidumpProcessor::GetCrashReason}): the
 * exception code and flags named per OS family (Windows, macOS/iOS, Linux/Android, Fuchsia,
 * Solaris, PS3); unknown platforms and codes get Breakpad's numeric form {@code 0x<code> /
 * 0x<flags>}. The address is the exception address (a Windows access violation's or in-page
 * error's data address instead), cut to 32 bits on 32-bit CPUs. Breakpad's optional objdump
 * recovery of non-canonical amd64 fault addresses ({@code --objdump}) is not done.
 */
final class CrashReason {
  private CrashReason() {}

  record Result(String reason, long address) {}

  static Result of(ExceptionInfo e, SystemInfo si) {
    long code = e.code() & 0xFFFFFFFFL;
    long flags = e.flags() & 0xFFFFFFFFL;
    String flagsHex = String.format("0x%08x", flags);
    String numeric = String.format("0x%08x / %s", code, flagsHex);
    if (si == null) {
      return new Result(numeric, e.address());
    }
    long[] p = e.parameters();
    long platform = si.platformId();
    String reason;
    long address = e.address();
    if (platform == SystemInfo.OS_WIN32_NT || platform == SystemInfo.OS_WIN32_WINDOWS) {
      reason = WindowsReasons.reason(code, p, numeric);
      address = WindowsReasons.address(code, p, address);
    } else if (platform == SystemInfo.OS_MAC || platform == SystemInfo.OS_IOS) {
      reason = AppleReasons.reason(code, flags, si.processorArchitecture(), flagsHex, numeric);
    } else if (platform == SystemInfo.OS_LINUX || platform == SystemInfo.OS_ANDROID) {
      reason = LinuxReasons.reason(code, flags, flagsHex, numeric);
    } else if (platform == SystemInfo.OS_FUCHSIA) {
      reason = SimpleReasons.fuchsia(code, flagsHex, numeric);
    } else if (platform == SystemInfo.OS_SOLARIS) {
      reason = SimpleReasons.solaris(code, numeric);
    } else if (platform == SystemInfo.OS_PS3) {
      reason = SimpleReasons.ps3(code, numeric);
    } else {
      reason = numeric;
    }
    return new Result(reason, si.crashAddress(address));
  }

  /** Breakpad's assertion text (invalid parameter, pure virtual call). */
  static String assertion(Assertion a) {
    if (a == null) {
      return "";
    }
    String s;
    if (a.type() == 1) {
      s = "Invalid parameter passed to library function";
    } else if (a.type() == 2) {
      s = "Pure virtual function called";
    } else {
      s = String.format("Unknown assertion type 0x%08x", a.type());
    }
    if (!a.expression().isEmpty()) {
      s += " " + a.expression();
    }
    if (!a.function().isEmpty()) {
      s += " in function " + a.function();
    }
    if (!a.file().isEmpty()) {
      s += ", in file " + a.file();
    }
    if (a.line() != 0) {
      s += " at line " + a.line();
    }
    return s;
  }
}

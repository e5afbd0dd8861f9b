package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Records.Assertion;
import io.symbolicate.symbols.minidump.Records.ExceptionInfo;
import io.symbolicate.symbols.minidump.SystemInfo;

/**
 * Breakpad's crash reason strings and crash address for Windows, Linux and Android dumps; other
 * platforms and unknown codes get Breakpad's numeric form {@code 0x<code> / 0x<flags>}.
 */
final class CrashReason {
  private CrashReason() {}

  record Result(String reason, long address) {}

  static Result of(ExceptionInfo e, SystemInfo si) {
    long code = e.code();
    long flags = e.flags();
    String flagsString = String.format("0x%08x", flags);
    String reason = String.format("0x%08x / %s", code, flagsString);
    long address = e.address();
    if (si == null) {
      return new Result(reason, address);
    }
    long[] p = e.parameters();
    if (si.platformId() == SystemInfo.OS_WIN32_NT
        || si.platformId() == SystemInfo.OS_WIN32_WINDOWS) {
      if (code == 0xc0000005L || code == 0xc0000006L) {
        String base =
            code == 0xc0000005L ? "EXCEPTION_ACCESS_VIOLATION" : "EXCEPTION_IN_PAGE_ERROR";
        reason = base;
        if (p.length >= 1) {
          if (p[0] == 0) {
            reason = base + "_READ";
          } else if (p[0] == 1) {
            reason = base + "_WRITE";
          } else if (p[0] == 8) {
            reason = base + "_EXEC";
          }
        }
        if (p.length >= 2) {
          address = p[1];
        }
      } else {
        String w = windows(code);
        if (w != null) {
          reason = w;
        }
      }
    } else if (si.platformId() == SystemInfo.OS_LINUX || si.platformId() == SystemInfo.OS_ANDROID) {
      reason = linux(code, flags, flagsString, reason);
    }
    return new Result(reason, si.crashAddress(address));
  }

  private static String linux(long code, long flags, String flagsString, String numeric) {
    switch ((int) code) {
      case 1:
        return "SIGHUP";
      case 2:
        return "SIGINT";
      case 3:
        return "SIGQUIT";
      case 4:
        return "SIGILL / "
            + pick(
                flags,
                flagsString,
                "ILL_ILLOPC",
                "ILL_ILLOPN",
                "ILL_ILLADR",
                "ILL_ILLTRP",
                "ILL_PRVOPC",
                "ILL_PRVREG",
                "ILL_COPROC",
                "ILL_BADSTK");
      case 5:
        return "SIGTRAP";
      case 6:
        return "SIGABRT";
      case 7:
        return "SIGBUS / "
            + pick(
                flags,
                flagsString,
                "BUS_ADRALN",
                "BUS_ADRERR",
                "BUS_OBJERR",
                "BUS_MCEERR_AR",
                "BUS_MCEERR_AO");
      case 8:
        return "SIGFPE / "
            + pick(
                flags,
                flagsString,
                "FPE_INTDIV",
                "FPE_INTOVF",
                "FPE_FLTDIV",
                "FPE_FLTOVF",
                "FPE_FLTUND",
                "FPE_FLTRES",
                "FPE_FLTINV",
                "FPE_FLTSUB");
      case 9:
        return "SIGKILL";
      case 10:
        return "SIGUSR1";
      case 11:
        return "SIGSEGV /"
            + pick(flags, flagsString, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR");
      case 12:
        return "SIGUSR2";
      case 13:
        return "SIGPIPE";
      case 14:
        return "SIGALRM";
      case 15:
        return "SIGTERM";
      case 16:
        return "SIGSTKFLT";
      case 17:
        return "SIGCHLD";
      case 18:
        return "SIGCONT";
      case 19:
        return "SIGSTOP";
      case 20:
        return "SIGTSTP";
      case 21:
        return "SIGTTIN";
      case 22:
        return "SIGTTOU";
      case 23:
        return "SIGURG";
      case 24:
        return "SIGXCPU";
      case 25:
        return "SIGXFSZ";
      case 26:
        return "SIGVTALRM";
      case 27:
        return "SIGPROF";
      case 28:
        return "SIGWINCH";
      case 29:
        return "SIGIO";
      case 30:
        return "SIGPWR";
      case 31:
        return "SIGSYS";
      case -1:
        return "DUMP_REQUESTED";
      default:
        return numeric;
    }
  }

  /** si_code names numbered from 1; others print as hex flags. */
  private static String pick(long flags, String flagsString, String... names) {
    return flags >= 1 && flags <= names.length ? names[(int) flags - 1] : flagsString;
  }

  private static String windows(long code) {
    return switch ((int) code) {
      case 0x40010005 -> "DBG_CONTROL_C";
      case 0x80000001 -> "EXCEPTION_GUARD_PAGE";
      case 0x80000002 -> "EXCEPTION_DATATYPE_MISALIGNMENT";
      case 0x80000003 -> "EXCEPTION_BREAKPOINT";
      case 0x80000004 -> "EXCEPTION_SINGLE_STEP";
      case 0xc0000008 -> "EXCEPTION_INVALID_HANDLE";
      case 0xc000001d -> "EXCEPTION_ILLEGAL_INSTRUCTION";
      case 0xc0000025 -> "EXCEPTION_NONCONTINUABLE_EXCEPTION";
      case 0xc0000026 -> "EXCEPTION_INVALID_DISPOSITION";
      case 0xc000008c -> "EXCEPTION_BOUNDS_EXCEEDED";
      case 0xc000008d -> "EXCEPTION_FLT_DENORMAL_OPERAND";
      case 0xc000008e -> "EXCEPTION_FLT_DIVIDE_BY_ZERO";
      case 0xc000008f -> "EXCEPTION_FLT_INEXACT_RESULT";
      case 0xc0000090 -> "EXCEPTION_FLT_INVALID_OPERATION";
      case 0xc0000091 -> "EXCEPTION_FLT_OVERFLOW";
      case 0xc0000092 -> "EXCEPTION_FLT_STACK_CHECK";
      case 0xc0000093 -> "EXCEPTION_FLT_UNDERFLOW";
      case 0xc0000094 -> "EXCEPTION_INT_DIVIDE_BY_ZERO";
      case 0xc0000095 -> "EXCEPTION_INT_OVERFLOW";
      case 0xc0000096 -> "EXCEPTION_PRIV_INSTRUCTION";
      case 0xc00000fd -> "EXCEPTION_STACK_OVERFLOW";
      case 0xc00000ff -> "EXCEPTION_BAD_FUNCTION_TABLE";
      case 0xc0000194 -> "EXCEPTION_POSSIBLE_DEADLOCK";
      case 0xc0000374 -> "EXCEPTION_HEAP_CORRUPTION";
      case 0xe0000008 -> "Out of Memory";
      case 0xe06d7363 -> "Unhandled C++ Exception";
      case 0x0517a7ed -> "Simulated Exception";
      default -> null;
    };
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

package io.symbolicate.symbols.minidump.walk;

/**
 * Linux and Android: the signal number is the exception code, {@code si_code} the flags. Breakpad
 * names si_code for SIGILL, SIGBUS, SIGFPE and SIGSEGV only (hex flags when unknown), and writes
 * {@code "SIGSEGV /"} without the space the others have.
 */
final class LinuxReasons {
  private LinuxReasons() {}

  // 0xFFFFFFFF: Breakpad's client writes this "signal" for a dump requested without a crash
  static final CodeNames SIGNALS =
      CodeNames.parse(
          """
          1 SIGHUP, 2 SIGINT, 3 SIGQUIT, 4 SIGILL, 5 SIGTRAP, 6 SIGABRT, 7 SIGBUS, 8 SIGFPE
          9 SIGKILL, 10 SIGUSR1, 11 SIGSEGV, 12 SIGUSR2, 13 SIGPIPE, 14 SIGALRM, 15 SIGTERM
          16 SIGSTKFLT, 17 SIGCHLD, 18 SIGCONT, 19 SIGSTOP, 20 SIGTSTP, 21 SIGTTIN, 22 SIGTTOU
          23 SIGURG, 24 SIGXCPU, 25 SIGXFSZ, 26 SIGVTALRM, 27 SIGPROF, 28 SIGWINCH, 29 SIGIO
          30 SIGPWR, 31 SIGSYS, 0xFFFFFFFF DUMP_REQUESTED
          """);

  private static final CodeNames ILL =
      CodeNames.numbered(
          1,
          "ILL_ILLOPC",
          "ILL_ILLOPN",
          "ILL_ILLADR",
          "ILL_ILLTRP",
          "ILL_PRVOPC",
          "ILL_PRVREG",
          "ILL_COPROC",
          "ILL_BADSTK");
  private static final CodeNames BUS =
      CodeNames.numbered(
          1, "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO");
  private static final CodeNames FPE =
      CodeNames.numbered(
          1,
          "FPE_INTDIV",
          "FPE_INTOVF",
          "FPE_FLTDIV",
          "FPE_FLTOVF",
          "FPE_FLTUND",
          "FPE_FLTRES",
          "FPE_FLTINV",
          "FPE_FLTSUB");
  private static final CodeNames SEGV =
      CodeNames.numbered(1, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR");

  static String reason(long code, long flags, String flagsHex, String numeric) {
    String signal = SIGNALS.get(code);
    if (signal == null) {
      return numeric;
    }
    return switch ((int) code) {
      case 4 -> signal + " / " + ILL.get(flags, flagsHex);
      case 7 -> signal + " / " + BUS.get(flags, flagsHex);
      case 8 -> signal + " / " + FPE.get(flags, flagsHex);
      case 11 -> signal + " /" + SEGV.get(flags, flagsHex);
      default -> signal;
    };
  }
}

package io.symbolicate.symbols.minidump.walk;

/**
 * The platforms whose exception code alone names the crash: Solaris signals, PS3 exceptions and
 * Fuchsia's exception types (Breakpad appends the hex flags to Fuchsia's).
 */
final class SimpleReasons {
  private SimpleReasons() {}

  static final CodeNames SOLARIS =
      CodeNames.parse(
          """
          1 SIGHUP, 2 SIGINT, 3 SIGQUIT, 4 SIGILL, 5 SIGTRAP, 6 SIGIOT | SIGABRT, 7 SIGEMT
          8 SIGFPE, 9 SIGKILL, 10 SIGBUS, 11 SIGSEGV, 12 SIGSYS, 13 SIGPIPE, 14 SIGALRM
          15 SIGTERM, 16 SIGUSR1, 17 SIGUSR2, 18 SIGCLD | SIGCHLD, 19 SIGPWR, 20 SIGWINCH
          21 SIGURG, 22 SIGPOLL | SIGIO, 23 SIGSTOP, 24 SIGTSTP, 25 SIGCONT, 26 SIGTTIN
          27 SIGTTOU, 28 SIGVTALRM, 29 SIGPROF, 30 SIGXCPU, 31 SIGXFSZ, 32 SIGWAITING, 33 SIGLWP
          34 SIGFREEZE, 35 SIGTHAW, 36 SIGCANCEL, 37 SIGLOST, 38 SIGXRES, 39 SIGJVM1, 40 SIGJVM2
          """);

  static final CodeNames PS3 =
      CodeNames.numbered(
          0,
          "UNKNOWN",
          "TRAP_EXCEP",
          "PRIV_INSTR",
          "ILLEGAL_INSTR",
          "INSTR_STORAGE",
          "INSTR_SEGMENT",
          "DATA_STORAGE",
          "DATA_SEGMENT",
          "FLOAT_POINT",
          "DABR_MATCH",
          "ALIGN_EXCEP",
          "MEMORY_ACCESS",
          "COPRO_ALIGN",
          "COPRO_INVALID_COM",
          "COPRO_ERR",
          "COPRO_FIR",
          "COPRO_DATA_SEGMENT",
          "COPRO_DATA_STORAGE",
          "COPRO_STOP_INSTR",
          "COPRO_HALT_INSTR",
          "COPRO_HALTINSTR_UNKNOWN",
          "COPRO_MEMORY_ACCESS",
          "GRAPHIC");

  /** Zircon's exception types (ZX_EXCP_*). */
  static final CodeNames FUCHSIA =
      CodeNames.parse(
          """
          0x8 GENERAL, 0x108 FATAL_PAGE_FAULT, 0x208 UNDEFINED_INSTRUCTION, 0x308 SW_BREAKPOINT
          0x408 HW_BREAKPOINT, 0x508 UNALIGNED_ACCESS, 0x8008 THREAD_STARTING
          0x8108 THREAD_EXITING, 0x8208 POLICY_ERROR, 0x8308 PROCESS_STARTING
          """);

  static String solaris(long code, String numeric) {
    return SOLARIS.get(code, numeric);
  }

  static String ps3(long code, String numeric) {
    return PS3.get(code, numeric);
  }

  static String fuchsia(long code, String flagsHex, String numeric) {
    String type = FUCHSIA.get(code);
    return type == null ? numeric : type + " / " + flagsHex;
  }
}

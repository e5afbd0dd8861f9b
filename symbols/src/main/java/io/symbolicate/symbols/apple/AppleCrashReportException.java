package io.symbolicate.symbols.apple;

/** An Apple crash report (text or .ips) that cannot be read; the message says why, and where. */
public final class AppleCrashReportException extends Exception {
  public AppleCrashReportException(String reason) {
    super(reason);
  }

  public AppleCrashReportException(String reason, Throwable cause) {
    super(reason, cause);
  }
}

package io.symbolicate.app.cli;

/** An error caused by the user's input or environment, reported as one line without a trace. */
public class UserException extends RuntimeException {
  private final int exitCode;

  public UserException(String message) {
    this(message, 2, null);
  }

  public UserException(String message, Throwable cause) {
    this(message, 2, cause);
  }

  public UserException(String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}

package io.symbolicate.signatures;

/** Crash data that cannot be read: not JSON, a field of the wrong type, or beyond a bound. */
public final class SignatureInputException extends Exception {
  private static final long serialVersionUID = 1L;

  public SignatureInputException(String message) {
    super(message);
  }

  public SignatureInputException(String message, Throwable cause) {
    super(message, cause);
  }
}

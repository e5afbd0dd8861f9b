package io.symbolicate.signatures;

/** A signature list file is missing, unreadable, too large, not UTF-8, or has a bad regex line. */
public final class SignatureListException extends Exception {
  private static final long serialVersionUID = 1L;

  public SignatureListException(String message) {
    super(message);
  }

  public SignatureListException(String message, Throwable cause) {
    super(message, cause);
  }
}

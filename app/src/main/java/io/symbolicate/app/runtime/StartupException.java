package io.symbolicate.app.runtime;

/** The app could not start; the message says why, for the user. */
public final class StartupException extends RuntimeException {
  public StartupException(String message) {
    super(message);
  }
}

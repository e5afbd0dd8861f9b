package io.symbolicate.app.reset;

/** The reset cannot be done (the app still runs, the input topic is missing, the cluster is away). */
public final class ResetException extends RuntimeException {
  public ResetException(String message) {
    super(message);
  }
}

package io.symbolicate.app.reprocess;

/** The reprocessing cannot be done (Kafka away, topic missing). */
public final class ReprocessException extends RuntimeException {
  public ReprocessException(String message) {
    super(message);
  }
}

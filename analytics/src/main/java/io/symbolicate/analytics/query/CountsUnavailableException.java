package io.symbolicate.analytics.query;

/** The counts cannot be read now (the aggregation is starting, rebalancing or restoring): try again. */
public final class CountsUnavailableException extends Exception {
  public CountsUnavailableException(String message) {
    super(message);
  }

  public CountsUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}

package io.symbolicate.symbolication.platform;

import io.symbolicate.schema.ErrorKind;

/**
 * An event a step can never symbolicate, for a reason the event carries (its dump does not read,
 * its stored file is gone): it goes to the DLQ with this kind and message, the stream goes on.
 */
public final class UnusableEventException extends RuntimeException {
  private final ErrorKind kind;

  public UnusableEventException(ErrorKind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public ErrorKind kind() {
    return kind;
  }
}

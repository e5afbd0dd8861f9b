package io.symbolicate.topology.decode;

import io.symbolicate.schema.ErrorKind;

/** An input record that cannot become a valid event; it goes to the DLQ with this reason. */
public final class InvalidEventException extends Exception {
  private final ErrorKind kind;
  private final String eventId;

  public InvalidEventException(ErrorKind kind, String message) {
    this(kind, message, null, null);
  }

  public InvalidEventException(ErrorKind kind, String message, String eventId, Throwable cause) {
    super(message, cause, false, false);
    this.kind = kind;
    this.eventId = eventId;
  }

  public ErrorKind kind() {
    return kind;
  }

  /** The event id if it could be read, to help find the event again. */
  public String eventId() {
    return eventId;
  }

  public InvalidEventException withEventId(String id) {
    return new InvalidEventException(kind, getMessage(), id, getCause());
  }
}

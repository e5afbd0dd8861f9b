package io.symbolicate.app.cli;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** An option's ISO-8601 instant, in the epoch-milliseconds range Kafka looks offsets up by. */
final class InstantOption {
  private InstantOption() {}

  /** The instant {@code value} names, null for none; a usage error (exit 2) otherwise. */
  static Instant parse(String option, String value) {
    if (value == null) {
      return null;
    }
    try {
      Instant i = Instant.parse(value);
      i.toEpochMilli();
      return i;
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new UserException(
          option
              + " must be an ISO-8601 instant such as 2026-11-20T00:00:00Z, "
              + "in the epoch-milliseconds range, got '"
              + value
              + "'");
    }
  }
}

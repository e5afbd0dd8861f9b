package io.symbolicate.topology.decode;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.JsException;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.NativeThread;
import java.util.regex.Pattern;

/**
 * Event-level checks: what makes an event unusable as a whole goes to the DLQ. Frame-level
 * problems (a module index out of range, a frame without an address) are left to the platform
 * steps, which give those frames a status instead.
 */
public final class EventValidator {
  /** Scopes become parts of storage keys: keep them to a safe alphabet. */
  private static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /** The longest event id of a valid event. */
  public static final int MAX_EVENT_ID = 256;

  private final int maxFrames;

  public EventValidator(int maxFrames) {
    this.maxFrames = maxFrames;
  }

  public void validate(CrashEvent e) throws InvalidEventException {
    String id = e.getEventId();
    if (id == null || id.isBlank()) {
      throw new InvalidEventException(ErrorKind.invalid_event, "event_id is empty");
    }
    if (id.length() > MAX_EVENT_ID) {
      throw new InvalidEventException(
          ErrorKind.invalid_event, "event_id is longer than " + MAX_EVENT_ID + " characters");
    }
    // Key fields end up in record keys, store keys and log lines: a NUL or a newline there
    // splits keys and forges log entries downstream.
    rejectControl("event_id", id, id);
    rejectControl("release", e.getRelease(), id);
    rejectControl("dist", e.getDist(), id);
    if (!SCOPE.matcher(e.getScope()).matches()) {
      throw new InvalidEventException(
          ErrorKind.invalid_event, "scope must match " + SCOPE.pattern(), id, null);
    }
    long frames;
    switch (e.getPlatform()) {
      case native$ -> {
        if (e.getNative$() == null) {
          throw missingPayload(id, "native");
        }
        frames = 0;
        for (NativeThread t : e.getNative$().getThreads()) {
          frames += t.getFrames().size();
        }
      }
      case javascript -> {
        if (e.getJavascript() == null) {
          throw missingPayload(id, "javascript");
        }
        frames = 0;
        for (JsException x : e.getJavascript().getExceptions()) {
          frames += x.getFrames().size();
        }
      }
      case jvm -> {
        if (e.getJvm() == null) {
          throw missingPayload(id, "jvm");
        }
        frames = 0;
        for (JvmException x : e.getJvm().getExceptions()) {
          frames += x.getFrames().size();
        }
      }
      default ->
          throw new InvalidEventException(
              ErrorKind.unknown_platform,
              "unknown platform (expected native, javascript or jvm)",
              id,
              null);
    }
    if (frames > maxFrames) {
      throw new InvalidEventException(
          ErrorKind.too_large,
          "event has " + frames + " frames, more than max.frames.per.event=" + maxFrames,
          id,
          null);
    }
  }

  private static void rejectControl(String field, String value, String id)
      throws InvalidEventException {
    if (value == null) {
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        throw new InvalidEventException(
            ErrorKind.invalid_event,
            String.format("%s contains control character U+%04X at index %d", field, (int) c, i),
            "event_id".equals(field) ? null : id,
            null);
      }
    }
  }

  private static InvalidEventException missingPayload(String id, String platform) {
    return new InvalidEventException(
        ErrorKind.invalid_event,
        "platform is " + platform + " but the '" + platform + "' payload is missing",
        id,
        null);
  }
}

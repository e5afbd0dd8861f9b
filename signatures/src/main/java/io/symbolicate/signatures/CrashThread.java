package io.symbolicate.signatures;

import java.util.List;
import java.util.Objects;

/**
 * One thread of siggen's crash data: its frames, innermost first, and the Windows
 * {@code last_error_value} that the OOM rule reads. Only the first
 * {@link NativeSignatureTool#MAXIMUM_FRAMES_TO_CONSIDER} frames (inlines counted) take part in a
 * signature, so a thread read from JSON keeps no more than that.
 *
 * <p>A thread read from malformed JSON (a {@code null} entry, a number, {@code frames} that are
 * not a list) keeps what siggen's Python would raise on it, so that the rules which read it fail
 * with siggen's note while the others still run.
 */
public final class CrashThread {
  private final List<CrashFrame> frames;
  private final String lastErrorValue;

  /** The JSON value when the thread was not an object ({@code null} included), else absent. */
  final Object notAnObject;

  final boolean isObject;

  /** What siggen raises when it iterates the thread's frames, or null. */
  final RuleFailure framesFailure;

  public CrashThread(List<CrashFrame> frames, String lastErrorValue) {
    this(frames, lastErrorValue, true, null, null);
  }

  private CrashThread(
      List<CrashFrame> frames,
      String lastErrorValue,
      boolean isObject,
      Object notAnObject,
      RuleFailure framesFailure) {
    this.frames = frames == null ? List.of() : List.copyOf(frames);
    this.lastErrorValue = lastErrorValue;
    this.isObject = isObject;
    this.notAnObject = notAnObject;
    this.framesFailure = framesFailure;
  }

  public static CrashThread of(List<CrashFrame> frames) {
    return new CrashThread(frames, null);
  }

  /** A {@code threads} entry that is not an object: {@code null}, a number, a string, a list. */
  static CrashThread notAnObject(Object value) {
    return new CrashThread(List.of(), null, false, value, null);
  }

  /** A thread whose {@code frames} siggen cannot iterate as a list of objects. */
  static CrashThread badFrames(String lastErrorValue, RuleFailure failure) {
    return new CrashThread(List.of(), lastErrorValue, true, null, failure);
  }

  /** What {@code thread.get(...)} raises in siggen when the entry is not an object, or null. */
  RuleFailure getFailure() {
    return isObject
        ? null
        : new RuleFailure(
            "AttributeError",
            "'" + PythonBuiltins.typeName(notAnObject) + "' object has no attribute 'get'");
  }

  public List<CrashFrame> frames() {
    return frames;
  }

  public String lastErrorValue() {
    return lastErrorValue;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CrashThread t
        && frames.equals(t.frames)
        && Objects.equals(lastErrorValue, t.lastErrorValue)
        && isObject == t.isObject
        && Objects.equals(notAnObject, t.notAnObject);
  }

  @Override
  public int hashCode() {
    return Objects.hash(frames, lastErrorValue, isObject, notAnObject);
  }

  @Override
  public String toString() {
    return isObject
        ? "CrashThread[frames=" + frames + ", lastErrorValue=" + lastErrorValue + "]"
        : "CrashThread[" + PythonBuiltins.repr(notAnObject) + "]";
  }
}

package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;

/**
 * The caching rules, as the stream side applies them to a module's state: may an event that
 * needs it be symbolicated now, and should the loader be asked (again)?
 */
public final class ModuleReadiness {
  /** What to do about one module for one event. */
  public enum Verdict {
    /** Usable now (found, or a settled negative answer). */
    READY,
    /** Usable now, but built by an older compatible engine: ask for a rebuild in the background. */
    READY_REBUILD,
    /** Not known yet, or a negative answer that has expired: ask the loader and wait. */
    REQUEST,
    /** Being loaded or transiently failing: wait, do not ask again yet. */
    WAIT
  }

  private final int currentVersion;
  private final int minReadableVersion;
  private final long startedAt;

  /**
   * @param startedAt when this instance started: malformed answers from before are tried again
   */
  public ModuleReadiness(int currentVersion, int minReadableVersion, long startedAt) {
    this.currentVersion = currentVersion;
    this.minReadableVersion = minReadableVersion;
    this.startedAt = startedAt;
  }

  public Verdict of(ModuleState s, long now) {
    if (s == null) {
      return Verdict.REQUEST;
    }
    boolean expired = s.getRetryAfter() != null && s.getRetryAfter().toEpochMilli() <= now;
    return switch (s.getStatus()) {
      case found ->
          s.getFormatVersion() < minReadableVersion || s.getFormatVersion() > currentVersion
              ? Verdict.REQUEST
              : s.getFormatVersion() < currentVersion ? Verdict.READY_REBUILD : Verdict.READY;
      case missing -> expired ? Verdict.REQUEST : Verdict.READY;
      case malformed ->
          expired
                  || s.getUpdatedAt().toEpochMilli() < startedAt
                  || s.getFormatVersion() != currentVersion
              ? Verdict.REQUEST
              : Verdict.READY;
      // a transient failure is never an answer: keep waiting, ask again once its retry time passed
      case fetch_failed -> expired ? Verdict.REQUEST : Verdict.WAIT;
      default -> Verdict.REQUEST;
    };
  }
}

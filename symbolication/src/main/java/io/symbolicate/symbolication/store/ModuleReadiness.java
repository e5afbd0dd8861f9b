package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.symbols.table.TableKind;

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
  // a step that reads tables of a second kind (the native step's .NET tables): their versions
  private final TableKind otherKind;
  private final int otherCurrent;
  private final int otherMinReadable;

  /**
   * @param startedAt when this instance started: malformed answers from before are tried again
   */
  public ModuleReadiness(int currentVersion, int minReadableVersion, long startedAt) {
    this(currentVersion, minReadableVersion, startedAt, null, 0, 0);
  }

  private ModuleReadiness(
      int currentVersion,
      int minReadableVersion,
      long startedAt,
      TableKind otherKind,
      int otherCurrent,
      int otherMinReadable) {
    this.currentVersion = currentVersion;
    this.minReadableVersion = minReadableVersion;
    this.startedAt = startedAt;
    this.otherKind = otherKind;
    this.otherCurrent = otherCurrent;
    this.otherMinReadable = otherMinReadable;
  }

  /** These rules, with the table versions of {@code kind} given apart (told by the state's module). */
  public ModuleReadiness withKind(TableKind kind, int current, int minReadable) {
    return new ModuleReadiness(
        currentVersion, minReadableVersion, startedAt, kind, current, minReadable);
  }

  public Verdict of(ModuleState s, long now) {
    if (s == null) {
      return Verdict.REQUEST;
    }
    if (otherKind != null && isOfKind(s.getModule(), otherKind)) {
      return of(s, now, otherCurrent, otherMinReadable);
    }
    return of(s, now, currentVersion, minReadableVersion);
  }

  /** Whether a state's {@code scope|kind|key} names a table of {@code kind}. */
  private static boolean isOfKind(String module, TableKind kind) {
    int bar = module == null ? -1 : module.indexOf('|');
    return bar >= 0 && bar + 1 < module.length() && module.charAt(bar + 1) == kind.tag();
  }

  private Verdict of(ModuleState s, long now, int currentVersion, int minReadableVersion) {
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

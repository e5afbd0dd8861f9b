package io.symbolicate.signatures;

import java.util.List;

/**
 * One thread of siggen's crash data: its frames, innermost first, and the Windows
 * {@code last_error_value} that the OOM rule reads. Only the first
 * {@link NativeSignatureTool#MAXIMUM_FRAMES_TO_CONSIDER} frames (inlines counted) take part in a
 * signature, so a thread read from JSON keeps no more than that.
 */
public record CrashThread(List<CrashFrame> frames, String lastErrorValue) {
  public CrashThread {
    frames = frames == null ? List.of() : List.copyOf(frames);
  }

  public static CrashThread of(List<CrashFrame> frames) {
    return new CrashThread(frames, null);
  }
}

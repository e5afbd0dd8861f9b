package io.symbolicate.symbols.apple;

import java.util.List;
import java.util.SortedMap;

/**
 * A report made ready for native symbolication: images as modules with Breakpad identities,
 * frames as module-relative addresses. A plain model, for the caller to map onto its event
 * schema (the CrashEvent's {@code NativePayload}, Symbolicator's response).
 *
 * @param arch Breakpad's name for the CPU ({@code x86}, {@code amd64}, {@code arm}, {@code arm64}),
 *     or null when the report's code type is none of those
 * @param crashReason the {@code Exception Type} header, or null
 * @param crashDetails the application specific information, or null
 * @param timestampSeconds the crash time in Unix seconds, or null
 */
public record NativeCrash(
    String arch,
    String crashReason,
    String crashDetails,
    Long timestampSeconds,
    SystemInfo systemInfo,
    List<Module> modules,
    List<Thread> threads) {

  /**
   * One binary image as a native module.
   *
   * @param index position in {@link #modules()}: the binary image's index in the report
   * @param codeFile the image's full path
   * @param codeId the UUID as 32 lower-case hex digits (what Sentry calls the Mach-O code id)
   * @param debugFile the path's last segment, as Breakpad's MODULE record and the symbol store
   *     key name a Mach-O file
   * @param debugId Breakpad's debug id: the UUID in upper-case hex followed by the age {@code 0}
   * @param uuid the UUID, lower-case hyphenated (Sentry's {@code debug_id} for Mach-O)
   * @param imageAddr load address (unsigned)
   * @param imageSize bytes the image spans (unsigned; saturated at 2^64 - 1 for an image that
   *     spans everything)
   */
  public record Module(
      int index,
      String type,
      String codeFile,
      String codeId,
      String debugFile,
      String debugId,
      String uuid,
      String name,
      String arch,
      long imageAddr,
      long imageSize) {

    /** Sentry's {@code image_size}: one less, as apple-crash-report-parser computes it. */
    public long sentryImageSize() {
      return imageSize == -1L ? -1L : imageSize - 1;
    }
  }

  /**
   * One frame.
   *
   * @param instructionAddr absolute address (unsigned)
   * @param moduleIndex the module containing it, or -1
   * @param moduleOffset address relative to that module's {@code imageAddr}; 0 without a module
   * @param trust {@code context} for a thread's first frame (its program counter), null for the
   *     others (return addresses)
   */
  public record Frame(long instructionAddr, int moduleIndex, long moduleOffset, String trust) {}

  /** One thread; {@code registers} only on the crashed one. */
  public record Thread(
      long id,
      String name,
      boolean crashed,
      List<Frame> frames,
      SortedMap<String, Long> registers) {}

  /**
   * What Symbolicator's response calls {@code system_info}, from the header.
   *
   * @param osName {@code macOS} for Mac OS X, {@code iOS} for iPhone OS, else as written
   * @param cpuArch the code type as an image arch name ({@code x86_64}, {@code arm64}, ...)
   */
  public record SystemInfo(
      String osName, String osVersion, String osBuild, String deviceModel, String cpuArch) {}
}

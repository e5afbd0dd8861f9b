package io.symbolicate.symbols.apple;

/**
 * Bounds on what one report may make the parser do or hold. Real reports are far inside them
 * (a macOS report has a few hundred threads and images at most, Apple stops a stack at 512
 * frames); past them the report is refused with a reason instead of growing without end.
 */
public final class AppleLimits {
  /** Bytes of one report (text or .ips, before decoding). */
  public static final int MAX_REPORT_BYTES = 16 << 20;

  /** Characters of one line of a text report (C++ symbol names run to a few KB). */
  public static final int MAX_LINE_CHARS = 64 << 10;

  public static final int MAX_THREADS = 4096;
  public static final int MAX_FRAMES_PER_THREAD = 16384;

  /** Frames over all threads. */
  public static final int MAX_FRAMES = 262_144;

  public static final int MAX_IMAGES = 16384;

  /** Distinct header keys kept in {@code metadata}. */
  public static final int MAX_METADATA_ENTRIES = 4096;

  /** Distinct register names. */
  public static final int MAX_REGISTERS = 1024;

  /** Characters of the multi-line sections (application specific information, filtered syslog). */
  public static final int MAX_SECTION_CHARS = 1 << 20;

  /** JSON nesting of an .ips report (Apple's is 5 deep). */
  public static final int MAX_JSON_DEPTH = 64;

  /** Characters of one JSON string of an .ips report (vmSummary is the longest, a few KB). */
  public static final int MAX_JSON_STRING_CHARS = 1 << 20;

  /** Characters of one JSON number (a u64 has 20 digits). */
  public static final int MAX_JSON_NUMBER_CHARS = 64;

  /**
   * {@code <uuid>} candidates tried on one binary image line, from the right (a real line has
   * one); keeps a line full of '<' linear.
   */
  public static final int MAX_UUID_CANDIDATES_PER_LINE = 8;

  private AppleLimits() {}
}

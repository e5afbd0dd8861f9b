package io.symbolicate.symbols.apple;

/**
 * One loaded image (executable, dylib, framework).
 *
 * @param addr load address (unsigned)
 * @param endAddr last address, inclusive, as a text report prints it (unsigned; for .ips
 *     {@code base + size - 1}, wrapping as Apple's own rendering does for size 0)
 * @param uuid lower-case hyphenated Mach-O LC_UUID
 * @param version the text inside parentheses, or null
 * @param name leading {@code +} (outside the app bundle marker) stripped
 */
public record BinaryImage(
    long addr, long endAddr, String uuid, String arch, String version, String name, String path) {

  /**
   * {@code endAddr - addr}, what apple-crash-report-parser (and Sentry after it) call the size:
   * one less than the number of bytes the image spans.
   */
  public long reportedSize() {
    return endAddr - addr;
  }

  /** True when the image spans all of the 64-bit space ({@code 0x0 - 0xffffffffffffffff ???}). */
  public boolean spansEverything() {
    return endAddr - addr == -1L;
  }
}

package io.symbolicate.symbols.apple;

/**
 * One stack frame.
 *
 * @param module the image name the report gives, null for {@code ???}
 * @param symbol null when the report gives none (a text report's {@code 0x1000 + 42} form)
 * @param lineno unsigned 32-bit, or null
 * @param instructionAddr absolute address (unsigned)
 * @param imageIndex .ips only: the frame's index into {@code usedImages}; -1 for text reports
 * @param imageOffset .ips only: the address relative to that image (unsigned)
 */
public record AppleFrame(
    String module,
    String symbol,
    String filename,
    Long lineno,
    long instructionAddr,
    int imageIndex,
    long imageOffset) {

  /** A frame of a text report, which locates frames by absolute address only. */
  public static AppleFrame ofText(
      String module, String symbol, String filename, Long lineno, long address) {
    return new AppleFrame(module, symbol, filename, lineno, address, -1, 0);
  }
}

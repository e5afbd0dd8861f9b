package io.symbolicate.symbols.objects;

/**
 * One section header of a PE file: its name (long names resolved through the COFF string
 * table), where it is loaded relative to the image base ({@code virtualAddress}, an RVA) and
 * where its bytes are in the file.
 */
public record PeSection(
    String name,
    long virtualAddress,
    long virtualSize,
    long rawOffset,
    long rawSize,
    int characteristics) {
  /** {@code IMAGE_SCN_MEM_EXECUTE}. */
  public static final int EXECUTE = 0x20000000;

  /** Whether the RVA {@code rva} falls inside the section as loaded. */
  public boolean containsRva(long rva) {
    long size = Math.max(virtualSize, rawSize);
    return rva >= virtualAddress && rva - virtualAddress < size;
  }
}

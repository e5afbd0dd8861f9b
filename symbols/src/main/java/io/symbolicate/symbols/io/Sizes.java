package io.symbolicate.symbols.io;

/** Byte counts as people read them in error messages. */
public final class Sizes {
  private Sizes() {}

  /** {@code 128 MB}, {@code 200 KB} or {@code 512 bytes} (binary units, rounded down). */
  public static String of(long bytes) {
    if (bytes >= 1L << 20) {
      return (bytes >> 20) + " MB";
    }
    if (bytes >= 1L << 10) {
      return (bytes >> 10) + " KB";
    }
    return bytes + " bytes";
  }
}

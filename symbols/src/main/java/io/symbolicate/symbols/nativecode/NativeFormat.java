package io.symbolicate.symbols.nativecode;

/** Public facts about the native table format, for stores that keep tables of several versions. */
public final class NativeFormat {
  /** Version of the tables this engine writes. */
  public static final int VERSION = NativeTableBuilder.FORMAT_VERSION;

  /** Oldest version this engine's reader still reads. */
  public static final int MIN_READABLE_VERSION = NativeTableBuilder.FORMAT_VERSION;

  private NativeFormat() {}
}

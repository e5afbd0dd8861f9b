package io.symbolicate.symbols.minidump.walk;

/**
 * One {@code STACK WIN} record (MSVC frame data or FPO), or only a function's parameter size
 * when the module has no STACK WIN record for an address ({@link #allValid} false).
 */
public record WinFrameInfo(int type, boolean allValid, long prologSize, long epilogSize,
    long parameterSize, long savedRegisterSize, long localSize, long maxStackSize,
    boolean allocatesBasePointer, String programString) {
  public static final int TYPE_FPO = 0;
  public static final int TYPE_FRAME_DATA = 4;
  public static final int TYPE_UNKNOWN = -1;

  static WinFrameInfo parameterSizeOnly(long parameterSize) {
    return new WinFrameInfo(TYPE_UNKNOWN, false, 0, 0, parameterSize, 0, 0, 0, false, "");
  }
}

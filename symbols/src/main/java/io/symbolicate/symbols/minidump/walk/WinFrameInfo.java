package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.nativecode.StackWinRecord;

/**
 * One {@code STACK WIN} record (MSVC frame data or FPO), or only a function's parameter size
 * when the module has no STACK WIN record for an address ({@link #allValid} false).
 */
public record WinFrameInfo(
    int type,
    boolean allValid,
    long prologSize,
    long epilogSize,
    long parameterSize,
    long savedRegisterSize,
    long localSize,
    long maxStackSize,
    boolean allocatesBasePointer,
    String programString) {
  public static final int TYPE_FPO = 0;
  public static final int TYPE_FRAME_DATA = 4;
  public static final int TYPE_UNKNOWN = -1;

  static WinFrameInfo parameterSizeOnly(long parameterSize) {
    return new WinFrameInfo(TYPE_UNKNOWN, false, 0, 0, parameterSize, 0, 0, 0, false, "");
  }

  /** Parses a STACK WIN record's fields as Breakpad's WindowsFrameInfo::ParseFromString. */
  static WinFrameInfo parse(StackWinRecord w) {
    String[] t = w.fields().strip().split("[ \r\n]+", 8);
    long[] v = new long[7];
    for (int i = 0; i < 7 && i < t.length; i++) {
      v[i] = hexPrefix(t[i]) & 0xFFFFFFFFL;
    }
    boolean hasProgram = v[6] != 0;
    String last = t.length > 7 ? t[7] : "";
    return new WinFrameInfo(
        w.type(),
        true,
        v[0],
        v[1],
        v[2],
        v[3],
        v[4],
        v[5],
        !hasProgram && (hexPrefix(last) & 0xFFFFFFFFL) != 0,
        hasProgram ? last : "");
  }

  /** strtoul(s, NULL, 16): the leading hex digits (after an optional 0x), 0 when none. */
  static long hexPrefix(String s) {
    int i = 0;
    if (s.length() > 2 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
      i = 2;
    }
    long v = 0;
    for (; i < s.length(); i++) {
      int d = Character.digit(s.charAt(i), 16);
      if (d < 0) {
        break;
      }
      if ((v >>> 60) != 0) {
        return -1;
      }
      v = (v << 4) | d;
    }
    return v;
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.nativecode.NativeFrame;

/** What the walker asks of one module's symbols; addresses are relative to the module's base. */
public interface ModuleSymbols {
  /** The function, line and inlines at {@code rel}, or null when the symbols name nothing. */
  NativeFrame lookup(long rel);

  /** The CFI rules at {@code rel}, or null. */
  CfiRules cfiRules(long rel);

  /**
   * The STACK WIN record at {@code rel} (frame data preferred to FPO), else the parameter size of
   * the FUNC holding it, else null.
   */
  WinFrameInfo windowsFrameInfo(long rel);

  /** True when the symbol file had lines that did not parse (Breakpad's "corrupt symbols"). */
  boolean corrupt();
}

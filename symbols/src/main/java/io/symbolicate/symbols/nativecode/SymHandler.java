package io.symbolicate.symbols.nativecode;

/**
 * Receives the records of a Breakpad symbol file in file order. Byte ranges point into the
 * parser's buffer and are valid only during the call. Addresses are unsigned 64-bit values.
 */
interface SymHandler {
  void module(String os, String arch, String debugId, String name);

  void codeId(String codeId, String codeFile);

  void file(int id, byte[] buf, int off, int len);

  void inlineOrigin(int id, byte[] buf, int off, int len);

  void func(boolean multiple, long address, long size, byte[] buf, int nameOff, int nameLen);

  /** Returns false when there is no current FUNC (a malformed file). */
  boolean line(long address, long size, int line, int fileId);

  /**
   * An INLINE record; {@code callFile} is -1 in the old format (no call-site file). {@code ranges}
   * holds {@code rangeCount} (address, size) pairs.
   */
  /** Returns false when there is no current FUNC. */
  boolean inline(int level, int callLine, int callFile, int origin, long[] ranges, int rangeCount);

  void publicSymbol(boolean multiple, long address, byte[] buf, int nameOff, int nameLen);

  /** A line that does not parse; the module still loads but is flagged corrupt. */
  void badLine(long lineNumber, String reason);
}

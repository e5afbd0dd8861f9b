package io.symbolicate.symbols.nativecode;

/**
 * Receives the records of a Breakpad symbol file in file order: what {@link SymParser} reads from
 * a {@code .sym}, and what the debug-file readers ({@code symbols.dwarf}, {@code symbols.cfi},
 * {@code symbols.dumpsyms}) produce from ELF and Mach-O files, for {@link NativeTableBuilder} (a
 * table) or a {@code .sym} writer. Byte ranges point into the caller's buffer and are valid only
 * during the call. Addresses are unsigned 64-bit values. {@code line} and {@code inline} records
 * belong to the last {@code func}; FILE and INLINE_ORIGIN ids are the producer's.
 */
public interface SymHandler {
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

  // ---- unwind records (for stack walking); ignored unless a handler keeps them ----

  /** {@code STACK CFI INIT address size rules}: the rules are the rest of the line. */
  default void stackCfiInit(long address, long size, byte[] buf, int off, int len) {}

  /** {@code STACK CFI address rules}: a delta applied from {@code address} on. */
  default void stackCfiDelta(long address, byte[] buf, int off, int len) {}

  /**
   * {@code STACK WIN type rva size ...} of the types Breakpad walks with (0 FPO, 4 frame data);
   * {@code buf[off, off + len)} holds the fields after the size (prolog .. program string).
   */
  default void stackWin(int type, long rva, long size, byte[] buf, int off, int len) {}

  /** A FUNC's parameter size when not zero (x86 walks use it for the callee's parameters). */
  default void funcParameterSize(long address, long parameterSize) {}

  /**
   * The next PUBLIC's parameter size when not zero, for a {@code .sym} writer (the table has no
   * field for it: the walker takes parameter sizes from FUNC and STACK WIN records only).
   */
  default void publicParameterSize(long address, long parameterSize) {}
}

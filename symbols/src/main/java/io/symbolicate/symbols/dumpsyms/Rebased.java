package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.nativecode.SymHandler;

/**
 * Passes records on with addresses made relative to the module's load address, as Breakpad's
 * symbol files hold them (a non-PIE executable loads at 0x400000; a PIE and a library at 0).
 */
final class Rebased implements SymHandler {
  private final SymHandler out;
  private final long base;
  private long[] shifted = new long[16];

  Rebased(SymHandler out, long base) {
    this.out = out;
    this.base = base;
  }

  @Override
  public void module(String os, String arch, String debugId, String name) {
    out.module(os, arch, debugId, name);
  }

  @Override
  public void codeId(String codeId, String codeFile) {
    out.codeId(codeId, codeFile);
  }

  @Override
  public void file(int id, byte[] buf, int off, int len) {
    out.file(id, buf, off, len);
  }

  @Override
  public void inlineOrigin(int id, byte[] buf, int off, int len) {
    out.inlineOrigin(id, buf, off, len);
  }

  @Override
  public void func(
      boolean multiple, long address, long size, byte[] buf, int nameOff, int nameLen) {
    out.func(multiple, address - base, size, buf, nameOff, nameLen);
  }

  @Override
  public boolean line(long address, long size, int line, int fileId) {
    return out.line(address - base, size, line, fileId);
  }

  @Override
  public boolean inline(
      int level, int callLine, int callFile, int origin, long[] ranges, int rangeCount) {
    if (base == 0) {
      return out.inline(level, callLine, callFile, origin, ranges, rangeCount);
    }
    if (shifted.length < 2 * rangeCount) {
      shifted = new long[2 * rangeCount];
    }
    for (int i = 0; i < rangeCount; i++) {
      shifted[2 * i] = ranges[2 * i] - base;
      shifted[2 * i + 1] = ranges[2 * i + 1];
    }
    return out.inline(level, callLine, callFile, origin, shifted, rangeCount);
  }

  @Override
  public void publicSymbol(boolean multiple, long address, byte[] buf, int nameOff, int nameLen) {
    out.publicSymbol(multiple, address - base, buf, nameOff, nameLen);
  }

  @Override
  public void badLine(long lineNumber, String reason) {
    out.badLine(lineNumber, reason);
  }

  @Override
  public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
    out.stackCfiInit(address, size, buf, off, len);
  }

  @Override
  public void stackCfiDelta(long address, byte[] buf, int off, int len) {
    out.stackCfiDelta(address, buf, off, len);
  }
}

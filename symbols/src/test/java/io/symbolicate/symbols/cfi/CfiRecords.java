package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.nativecode.SymHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the STACK CFI records a reader emits as the lines a {@code .sym} would hold, ignoring
 * every other record (tests override what else they need).
 */
public class CfiRecords implements SymHandler {
  final List<String> lines = new ArrayList<>();

  @Override
  public void module(String os, String arch, String debugId, String name) {}

  @Override
  public void codeId(String codeId, String codeFile) {}

  @Override
  public void file(int id, byte[] buf, int off, int len) {}

  @Override
  public void inlineOrigin(int id, byte[] buf, int off, int len) {}

  @Override
  public void func(boolean multiple, long address, long size, byte[] buf, int nameOff, int len) {}

  @Override
  public boolean line(long address, long size, int line, int fileId) {
    return true;
  }

  @Override
  public boolean inline(
      int level, int callLine, int callFile, int origin, long[] ranges, int rangeCount) {
    return true;
  }

  @Override
  public void publicSymbol(boolean multiple, long address, byte[] buf, int nameOff, int len) {}

  @Override
  public void badLine(long lineNumber, String reason) {}

  @Override
  public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
    lines.add(
        "STACK CFI INIT "
            + Long.toHexString(address)
            + " "
            + Long.toHexString(size)
            + " "
            + new String(buf, off, len, StandardCharsets.US_ASCII));
  }

  @Override
  public void stackCfiDelta(long address, byte[] buf, int off, int len) {
    lines.add(
        "STACK CFI "
            + Long.toHexString(address)
            + " "
            + new String(buf, off, len, StandardCharsets.US_ASCII));
  }

  String text() {
    return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
  }
}

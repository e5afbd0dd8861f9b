package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The handler on the other thread sees every call, with the same values, in the same order. */
class PipelinedSymHandlerTest {
  /** Writes each call as a line, and the thread it came on. */
  static class Recorder implements SymHandler {
    final List<String> calls = new ArrayList<>();
    final List<String> threads = new ArrayList<>();

    private void add(String s) {
      calls.add(s);
      threads.add(Thread.currentThread().getName());
    }

    private static String s(byte[] b, int off, int len) {
      return new String(b, off, len, StandardCharsets.UTF_8);
    }

    @Override
    public void module(String os, String arch, String debugId, String name) {
      add("MODULE " + os + " " + arch + " " + debugId + " " + name);
    }

    @Override
    public void codeId(String codeId, String codeFile) {
      add("INFO " + codeId + " " + codeFile);
    }

    @Override
    public void file(int id, byte[] buf, int off, int len) {
      add("FILE " + id + " " + s(buf, off, len));
    }

    @Override
    public void inlineOrigin(int id, byte[] buf, int off, int len) {
      add("INLINE_ORIGIN " + id + " " + s(buf, off, len));
    }

    @Override
    public void func(boolean m, long address, long size, byte[] buf, int off, int len) {
      add("FUNC " + m + " " + address + " " + size + " " + s(buf, off, len));
    }

    @Override
    public boolean line(long address, long size, int line, int fileId) {
      add("LINE " + address + " " + size + " " + line + " " + fileId);
      return false;
    }

    @Override
    public boolean inline(int level, int callLine, int callFile, int origin, long[] r, int n) {
      add(
          "INLINE "
              + level
              + " "
              + callLine
              + " "
              + callFile
              + " "
              + origin
              + " "
              + Arrays.toString(Arrays.copyOf(r, 2 * n)));
      return false;
    }

    @Override
    public void publicSymbol(boolean m, long address, byte[] buf, int off, int len) {
      add("PUBLIC " + m + " " + address + " " + s(buf, off, len));
    }

    @Override
    public void badLine(long lineNumber, String reason) {
      add("BAD " + lineNumber + " " + reason);
    }

    @Override
    public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
      add("STACK CFI INIT " + address + " " + size + " " + s(buf, off, len));
    }

    @Override
    public void stackCfiDelta(long address, byte[] buf, int off, int len) {
      add("STACK CFI " + address + " " + s(buf, off, len));
    }

    @Override
    public void stackWin(int type, long rva, long size, byte[] buf, int off, int len) {
      add("STACK WIN " + type + " " + rva + " " + size + " " + s(buf, off, len));
    }

    @Override
    public void funcParameterSize(long address, long parameterSize) {
      add("PARAM " + address + " " + parameterSize);
    }
  }

  private static void feed(SymHandler h, int functions) {
    byte[] buf = "xx name yy".getBytes(StandardCharsets.UTF_8);
    h.module("Linux", "x86_64", "ABC0", "app");
    h.codeId("CODE", null);
    for (int i = 0; i < functions; i++) {
      h.file(i, buf, 3, 4);
      h.inlineOrigin(i, buf, 0, buf.length);
      h.func(i % 7 == 0, i * 16L, 16, buf, 3, 4);
      h.line(i * 16L, 8, i, i);
      h.line(i * 16L + 8, 8, i + 1, i);
      long[] ranges = new long[2 * (1 + i % 5) + 3]; // longer than used, as callers pass
      Arrays.fill(ranges, i);
      h.inline(i % 3, i, i + 1, i + 2, ranges, 1 + i % 5);
      h.publicSymbol(false, i * 16L + 4, buf, 3, 4);
      h.badLine(i, "why " + i);
      h.stackCfiInit(i, 16, buf, 0, 2);
      h.stackCfiDelta(i + 1, buf, 8, 2);
      h.stackWin(4, i, 16, buf, 3, 4);
      h.funcParameterSize(i, 8);
    }
  }

  @Test
  void replaysEveryCallInOrderOnItsOwnThread() {
    Recorder direct = new Recorder();
    feed(direct, 20_000); // many chunks
    Recorder behind = new Recorder();
    try (PipelinedSymHandler p = new PipelinedSymHandler(behind, "records")) {
      feed(p, 20_000);
    }
    assertThat(behind.calls).isEqualTo(direct.calls);
    assertThat(behind.threads).containsOnly("records");
  }

  @Test
  void whatTheConsumerThrowsComesBackAtClose() {
    Recorder failing =
        new Recorder() {
          @Override
          public void func(boolean m, long address, long size, byte[] buf, int off, int len) {
            throw new IllegalArgumentException("bad function " + address);
          }
        };
    PipelinedSymHandler p = new PipelinedSymHandler(failing, "records");
    feed(p, 50_000); // more than the queue holds: the producer must not wait forever
    assertThatThrownBy(p::close)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad function 0");
  }
}

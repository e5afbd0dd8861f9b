package io.symbolicate.demo;

import io.symbolicate.symbols.minidump.DumpBuilder;
import io.symbolicate.symbols.minidump.Minidump;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The minidump the demo posts to {@code /submit}: a Linux amd64 process that crashed (SIGSEGV)
 * in {@code crash_handler}, called from {@code main}, called from libc's
 * {@code __libc_start_call_main}. Its two modules are the sample symbols' ({@code crashy} and
 * {@code libc.so.6}, their ELF build ids giving the debug ids of the .sym files), and its stack
 * is an rbp chain, so the walker finds every caller by frame pointer without CFI. Written here,
 * with the walker tests' {@link DumpBuilder}, so the demo needs no generated corpus.
 */
public final class DemoDump {
  static final long CRASHY_BASE = 0x400000L;
  static final long LIBC_BASE = 0x7f0000000000L;
  static final long STACK = 0x7ffd00000000L;
  static final int STACK_SIZE = 0x100;
  static final long THREAD_ID = 4242;
  static final int SIGSEGV = 11;

  /** ELF build ids: Breakpad's debug id is their first 16 bytes as a GUID, plus age 0. */
  static final byte[] CRASHY_BUILD_ID = HexFormat.of().parseHex("7C1A5E0D3A2B4C5D8E9F0A1B2C3D4E5F");

  static final byte[] LIBC_BUILD_ID = HexFormat.of().parseHex("D4C3B2A1F6E51807293A4B5C6D7E8F90");

  private DemoDump() {}

  public static byte[] bytes() {
    DumpBuilder d = new DumpBuilder();
    ByteBuffer stack = DumpBuilder.le(STACK_SIZE);
    // crash_handler's frame: rbp = STACK+0x10 -> [saved rbp, return into main]
    stack.putLong(0x10, STACK + 0x30).putLong(0x18, CRASHY_BASE + 0x1a2b);
    // main's frame -> [saved rbp, return into __libc_start_call_main]
    stack.putLong(0x30, STACK + 0x50).putLong(0x38, LIBC_BASE + 0x29d95);
    // __libc_start_call_main's frame: a zero chain ends the walk
    int stackRva = d.blob(stack.array());
    int ctx = d.amd64Context(CRASHY_BASE + 0x1c35, STACK, STACK + 0x10);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, THREAD_ID, STACK, STACK_SIZE, stackRva, ctx);
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(
        Minidump.MODULE_LIST,
        d.moduleList(
            new long[] {CRASHY_BASE, LIBC_BASE},
            new int[] {0x20000, 0x200000},
            new String[] {"/opt/crashy/bin/crashy", "/lib/x86_64-linux-gnu/libc.so.6"},
            new byte[][] {CRASHY_BUILD_ID, LIBC_BUILD_ID}));
    d.stream(Minidump.EXCEPTION, d.exception(THREAD_ID, SIGSEGV, ctx));
    return d.build();
  }
}

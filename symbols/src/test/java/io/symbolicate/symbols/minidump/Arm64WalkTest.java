package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.StopReason;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.minidump.walk.Trust;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The arm64 walker on synthetic Linux dumps (the shared fixtures have no arm64 minidump with
 * expected outputs: Breakpad's arm64 golden is a microdump). Expectations follow Breakpad's
 * arm64 stackwalker: CFI with registers named x0-x30, sp, pc; the leaf's caller from lr; the
 * frame-pointer chain (caller pc = lr, caller fp = [fp], caller lr = [fp+8], caller sp = fp+16);
 * a walk that ends at a zero return address.
 */
class Arm64WalkTest {
  static final long BASE = 0x5500000000L;
  static final long STACK = 0x7ff0000000L;
  static final long IN_CALLER = BASE + 0x1254;
  static final long IN_OUTER = BASE + 0x1454;

  static SymbolSupplier symbols(boolean withCfi) {
    String sym =
        "MODULE Linux arm64 0 libarm.so\n"
            + "FUNC 1000 200 0 leaf\n"
            + "FUNC 1200 200 0 caller\n"
            + "FUNC 1400 200 0 outer\n"
            + (withCfi
                ? "STACK CFI INIT 1000 200 .cfa: sp 0 + .ra: x30\n"
                    + "STACK CFI INIT 1200 200 .cfa: sp 32 + .ra: .cfa -24 + ^ x29: .cfa -32 + ^\n"
                : "");
    return m -> {
      try {
        return SymbolDirectory.of(
            NativeSymbolizer.inMemory(
                NativeSymbols.convert(
                    new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
                    NativeSymbols.Options.defaults())));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  /** A crashed thread in leaf: sp at STACK+0x100, fp and lr as given, the stack's words at 0x100 on. */
  static byte[] dump(long fp, long lr, long[] words) {
    DumpBuilder d = new DumpBuilder();
    ByteBuffer stack = DumpBuilder.le(0x1000);
    for (int i = 0; i < words.length; i++) {
      stack.putLong(0x100 + 8 * i, words[i]);
    }
    int stackRva = d.blob(stack.array());
    ByteBuffer c = DumpBuilder.le(912);
    c.putInt(0, 0x00400002); // arm64, integer registers
    c.putLong(8 + 8 * 29, fp)
        .putLong(8 + 8 * 30, lr)
        .putLong(8 + 8 * 31, STACK + 0x100)
        .putLong(8 + 8 * 32, BASE + 0x1010);
    int ctx = d.blob(c.array());
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 9, STACK, 0x1000, stackRva, ctx);
    threads.putInt(4 + 40, 912);
    ByteBuffer si = DumpBuilder.le(56);
    si.putShort(0, (short) 12).put(6, (byte) 1).putInt(20, 0x8201); // arm64, Linux
    d.stream(Minidump.SYSTEM_INFO, si.array());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(
        Minidump.MODULE_LIST,
        d.moduleList(
            BASE,
            0x10000,
            "/system/lib64/libarm.so",
            new byte[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6}));
    d.stream(Minidump.EXCEPTION, exception(d, ctx));
    return d.build();
  }

  static byte[] exception(DumpBuilder d, int ctx) {
    ByteBuffer e = DumpBuilder.le(168);
    e.putInt(0, 9).putInt(8, 11).putInt(160, 912).putInt(164, ctx);
    return e.array();
  }

  @Test
  void cfiFindsTheLeafsCallerFromLrAndTheNextFromTheStack() throws Exception {
    long[] words = new long[0x40];
    words[0] = STACK + 0x300; // [sp] saved x29 (= .cfa - 32)
    words[1] = IN_OUTER; // [sp+8] the return address (= .cfa - 24)
    CallStack s =
        new MinidumpProcessor(symbols(true))
            .process(Minidump.read(dump(0, IN_CALLER, words)))
            .threads()
            .get(0);
    assertThat(s.frames().get(0).trust()).isEqualTo(Trust.CONTEXT);
    assertThat(s.frames().get(0).context().cpu()).isEqualTo(Cpu.ARM64);
    assertThat(s.frames().get(1).trust()).isEqualTo(Trust.CFI);
    assertThat(s.frames().get(1).function()).isEqualTo("caller");
    assertThat(s.frames().get(1).returnAddress()).isEqualTo(IN_CALLER);
    assertThat(s.frames().get(1).instruction()).isEqualTo(IN_CALLER - 4); // arm64's call adjustment
    assertThat(s.frames().get(1).context().sp()).isEqualTo(STACK + 0x100);
    assertThat(s.frames().get(2).trust()).isEqualTo(Trust.CFI);
    assertThat(s.frames().get(2).function()).isEqualTo("outer");
    assertThat(s.frames().get(2).context().sp()).isEqualTo(STACK + 0x120);
    assertThat(s.frames().get(2).context().get(Cpu.ARM64_FP)).isEqualTo(STACK + 0x300);
  }

  @Test
  void withoutCfiTheFramePointerChainIsFollowedToItsEnd() throws Exception {
    long fp = STACK + 0x200;
    long[] words = new long[0x60];
    words[(int) ((fp - STACK - 0x100) / 8)] = STACK + 0x300; // [fp] the caller's fp
    words[(int) ((fp - STACK - 0x100) / 8) + 1] = IN_OUTER; // [fp+8] the caller's lr
    // [0x300] = 0, [0x308] = 0: the chain's end
    CallStack s =
        new MinidumpProcessor(symbols(false))
            .process(Minidump.read(dump(fp, IN_CALLER, words)))
            .threads()
            .get(0);
    assertThat(s.frames()).hasSizeGreaterThanOrEqualTo(3);
    assertThat(s.frames().get(1).trust()).isEqualTo(Trust.FRAME_POINTER);
    assertThat(s.frames().get(1).returnAddress()).isEqualTo(IN_CALLER);
    assertThat(s.frames().get(1).function()).isEqualTo("caller");
    assertThat(s.frames().get(1).context().sp()).isEqualTo(fp + 16);
    assertThat(s.frames().get(1).context().get(Cpu.ARM64_FP)).isEqualTo(STACK + 0x300);
    assertThat(s.frames().get(2).trust()).isEqualTo(Trust.FRAME_POINTER);
    assertThat(s.frames().get(2).returnAddress()).isEqualTo(IN_OUTER);
    assertThat(s.frames().get(2).function()).isEqualTo("outer");
    assertThat(s.frames().get(2).context().sp()).isEqualTo(STACK + 0x310);
    assertThat(s.stopReason()).isNotEqualTo(StopReason.FRAME_CAP);
  }
}

package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.HumanReadableWriter;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
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
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken dumps: each is refused with a reason (a MinidumpException) or walked with
 * Breakpad's fallbacks; nothing else escapes, and nothing is allocated from a claimed count.
 */
class HostileDumpTest {
  static final long BASE = 0x400000;
  static final long STACK = 0x7fff0000L;
  static final byte[] BUILD_ID = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
  };

  /** A module of two functions; CFI rules for the leaf as given. */
  static SymbolSupplier symbols(String leafCfi) {
    String sym =
        "MODULE Linux x86_64 0 libhostile.so\n"
            + "FUNC 1000 200 0 leaf\n"
            + "FUNC 1200 200 0 caller\n"
            + (leafCfi == null ? "" : "STACK CFI INIT 1000 400 " + leafCfi + "\n");
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

  /** One crashed thread in leaf at 0x401010 whose stack holds a return address into caller. */
  static byte[] oneThread(long rbp, long[] stackWords) {
    DumpBuilder d = new DumpBuilder();
    ByteBuffer stack = DumpBuilder.le(0x1000);
    for (int i = 0; i < stackWords.length; i++) {
      stack.putLong(0x100 + 8 * i, stackWords[i]);
    }
    int stackRva = d.blob(stack.array());
    int ctx = d.amd64Context(BASE + 0x1010, STACK + 0x100, rbp);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 7, STACK, 0x1000, stackRva, ctx);
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(Minidump.MODULE_LIST, d.moduleList(BASE, 0x10000, "/lib/libhostile.so", BUILD_ID));
    d.stream(Minidump.EXCEPTION, d.exception(7, 11, ctx));
    return d.build();
  }

  static ProcessState walk(byte[] dump, SymbolSupplier s) throws MinidumpException {
    return new MinidumpProcessor(s).process(Minidump.read(dump));
  }

  static final long RET = BASE + 0x1251; // inside caller

  @Test
  void validCfiIsUsedAndBrokenCfiFallsBackToScanning() throws Exception {
    byte[] dump = oneThread(0, new long[] {RET});
    CallStack good = walk(dump, symbols(".cfa: $rsp 8 + .ra: .cfa -8 + ^")).threads().get(0);
    assertThat(good.frames().get(1).trust()).isEqualTo(Trust.CFI);
    assertThat(good.frames().get(1).function()).isEqualTo("caller");
    for (String bad :
        new String[] {
          ".cfa: $rsp 0 / .ra: .cfa -8 + ^", // divides by zero
          ".cfa: $rsp 0 % .ra: .cfa -8 + ^", // remainder by zero
          ".cfa: $rsp 8 + .ra: 12345678 ^", // dereferences unmapped memory
          ".cfa: .cfa 8 + .ra: .cfa -8 + ^", // refers to itself
          ".cfa: $rsp 8 + .ra: .ra", // the return address defined by itself
          ".cfa: " + "1 ".repeat(100) + "+ ".repeat(99) + ".ra: .cfa -8 + ^", // too deep
          ".cfa: $rsp + .ra: .cfa -8 + ^", // an operator short of operands
          ".cfa: $rsp 8 + 1 .ra: .cfa -8 + ^", // leaves two values
        }) {
      CallStack s = walk(dump, symbols(bad)).threads().get(0);
      assertThat(s.frames()).as(bad).hasSizeGreaterThan(1);
      Frame caller = s.frames().get(1);
      assertThat(caller.trust()).as(bad).isEqualTo(Trust.SCAN);
      assertThat(caller.function()).as(bad).isEqualTo("caller");
      assertThat(caller.returnAddress()).isEqualTo(RET);
    }
  }

  @Test
  void aStackThatDoesNotMoveUpStopsWithAReason() throws Exception {
    // every frame's CFA is its own stack pointer: the second unwind does not advance
    long ret = BASE + 0x1010;
    byte[] dump = oneThread(0, new long[] {RET});
    CallStack s =
        walk(dump, symbols(".cfa: $rsp .ra: " + Long.toUnsignedString(ret + 1))).threads().get(0);
    assertThat(s.frames()).hasSize(2);
    assertThat(s.stopReason()).isEqualTo(StopReason.STACK_POINTER_NOT_ADVANCING);
    // a CFA below the stack pointer ends the walk at once
    CallStack down =
        walk(dump, symbols(".cfa: $rsp 16 - .ra: " + Long.toUnsignedString(ret + 1)))
            .threads()
            .get(0);
    assertThat(down.frames()).hasSize(1);
    assertThat(down.stopReason()).isEqualTo(StopReason.STACK_POINTER_NOT_ADVANCING);
    // a frame-pointer chain that points at itself is refused, and scanning goes on upwards
    long rbp = STACK + 0x200;
    long[] words = new long[0x40];
    words[(int) ((rbp - STACK - 0x100) / 8)] = rbp;
    words[(int) ((rbp - STACK - 0x100) / 8) + 1] = RET;
    CallStack loop = walk(oneThread(rbp, words), SymbolSupplier.NONE).threads().get(0);
    assertThat(loop.frames().size()).isLessThan(10);
    for (int i = 1; i < loop.frames().size(); i++) {
      assertThat(
              Long.compareUnsigned(
                  loop.frames().get(i).context().sp(), loop.frames().get(i - 1).context().sp()))
          .isPositive();
    }
  }

  @Test
  void theFrameCapStopsAWalk() throws Exception {
    long[] words = new long[0x1e0];
    Arrays.fill(words, RET);
    byte[] dump = oneThread(0, words);
    CallStack all =
        new MinidumpProcessor(SymbolSupplier.NONE).process(Minidump.read(dump)).threads().get(0);
    assertThat(all.frames().size()).isGreaterThan(100);
    CallStack capped =
        new MinidumpProcessor(SymbolSupplier.NONE, 10)
            .process(Minidump.read(dump))
            .threads()
            .get(0);
    assertThat(capped.frames()).hasSize(11);
    assertThat(capped.stopReason()).isEqualTo(StopReason.FRAME_CAP);
  }

  @Test
  void aThousandThreadsAreWalked() throws Exception {
    DumpBuilder d = new DumpBuilder();
    int n = 1000;
    ByteBuffer threads = DumpBuilder.le(4 + 48 * n).putInt(0, n);
    for (int i = 0; i < n; i++) {
      ByteBuffer stack = DumpBuilder.le(256).putLong(0, RET);
      int stackRva = d.blob(stack.array());
      long sp = STACK + 0x10000L * i;
      int ctx = d.amd64Context(BASE + 0x1010, sp, 0);
      DumpBuilder.thread(threads, 4 + 48 * i, 100 + i, sp, 256, stackRva, ctx);
    }
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(Minidump.MODULE_LIST, d.moduleList(BASE, 0x10000, "/lib/libhostile.so", BUILD_ID));
    ProcessState s = walk(d.build(), symbols(".cfa: $rsp 8 + .ra: .cfa -8 + ^"));
    assertThat(s.threads()).hasSize(n);
    for (CallStack t : s.threads()) {
      assertThat(t.frames().get(1).function()).isEqualTo("caller");
    }
    assertThat(MachineReadableWriter.write(s).lines().filter(l -> l.contains("|caller|")).count())
        .isEqualTo(n);
  }

  @Test
  void countsClaimingMoreThanTheStreamHoldsAreRefused() {
    for (long type :
        new long[] {Minidump.THREAD_LIST, Minidump.MODULE_LIST, Minidump.MEMORY_LIST}) {
      DumpBuilder d = new DumpBuilder();
      d.stream(type, DumpBuilder.le(8).putInt(0, 0xFFFFFFFF).array());
      assertThatThrownBy(() -> Minidump.read(d.build()))
          .isInstanceOf(MinidumpException.class)
          .hasMessageContaining("claims 4294967295 entries");
      DumpBuilder e = new DumpBuilder();
      e.stream(type, DumpBuilder.le(8).putInt(0, 3).array());
      assertThatThrownBy(() -> Minidump.read(e.build()))
          .isInstanceOf(MinidumpException.class)
          .hasMessageContaining("does not match its 8-byte stream");
    }
    DumpBuilder m64 = new DumpBuilder();
    m64.stream(Minidump.MEMORY64_LIST, DumpBuilder.le(16).putLong(0, 1L << 62).array());
    assertThatThrownBy(() -> Minidump.read(m64.build()))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("ranges, over the maximum");
    DumpBuilder m64b = new DumpBuilder();
    m64b.stream(
        Minidump.MEMORY64_LIST,
        DumpBuilder.le(32)
            .putLong(0, 1)
            .putLong(8, 64)
            .putLong(16, 0x1000)
            .putLong(24, 1L << 40)
            .array());
    assertThatThrownBy(() -> Minidump.read(m64b.build()))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("outside");
  }

  /** Optional streams claiming 2^32 - 1 entries are left out with a reason; the walk goes on. */
  @Test
  void optionalListsClaimingFourBillionEntriesAreLeftOutWithReasons() throws Exception {
    byte[] names = DumpBuilder.le(8).putInt(0, 0xFFFFFFFF).array();
    byte[] unloaded = DumpBuilder.le(16).putInt(0, 12).putInt(4, 24).putInt(8, 0xFFFFFFFF).array();
    DumpBuilder d = new DumpBuilder();
    ByteBuffer stack = DumpBuilder.le(0x1000).putLong(0x100, RET);
    int stackRva = d.blob(stack.array());
    int ctx = d.amd64Context(BASE + 0x1010, STACK + 0x100, 0);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 7, STACK, 0x1000, stackRva, ctx);
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(Minidump.MODULE_LIST, d.moduleList(BASE, 0x10000, "/lib/libhostile.so", BUILD_ID));
    d.stream(Minidump.THREAD_NAME_LIST, names);
    d.stream(Minidump.UNLOADED_MODULE_LIST, unloaded);
    Minidump dump = Minidump.read(d.build());
    assertThat(dump.problems())
        .anySatisfy(
            p -> assertThat(p).startsWith("thread name list left out").contains("4294967295"));
    assertThat(dump.problems())
        .anySatisfy(
            p -> assertThat(p).startsWith("unloaded module list left out").contains("4294967295"));
    ProcessState s =
        new MinidumpProcessor(symbols(".cfa: $rsp 8 + .ra: .cfa -8 + ^")).process(dump);
    assertThat(s.threads().get(0).frames().get(1).function()).isEqualTo("caller");
    assertThat(s.problems()).hasSize(2);
  }

  /** Two frames whose saved frame pointers point at each other: the walk ends, never loops. */
  @Test
  void aFramePointerCycleOfTwoFramesEnds() throws Exception {
    long a = STACK + 0x200;
    long b = STACK + 0x300;
    long[] words = new long[0x60];
    words[(int) ((a - STACK - 0x100) / 8)] = b; // frame A's saved rbp: B
    words[(int) ((a - STACK - 0x100) / 8) + 1] = RET;
    words[(int) ((b - STACK - 0x100) / 8)] = a; // frame B's saved rbp: back to A
    words[(int) ((b - STACK - 0x100) / 8) + 1] = RET;
    ProcessState s = walk(oneThread(a, words), SymbolSupplier.NONE);
    CallStack t = s.threads().get(0);
    assertThat(t.frames().size()).isLessThan(40);
    assertThat(t.stopReason()).isNotNull();
    for (int i = 1; i < t.frames().size(); i++) {
      assertThat(
              Long.compareUnsigned(
                  t.frames().get(i).context().sp(), t.frames().get(i - 1).context().sp()))
          .as("frame %d moves up", i)
          .isPositive();
    }
    assertThat(t.frames().stream().filter(f -> f.trust() == Trust.FRAME_POINTER).count())
        .isPositive();
  }

  @Test
  void directoriesAndListsPointingOutsideTheFileAreRefused() throws Exception {
    DumpBuilder d = new DumpBuilder();
    d.rawEntry(Minidump.THREAD_LIST, 52, 1 << 30);
    assertThatThrownBy(() -> Minidump.read(d.build()))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("outside");
    // a memory descriptor whose bytes lie past the end
    DumpBuilder m = new DumpBuilder();
    m.stream(
        Minidump.MEMORY_LIST,
        DumpBuilder.le(4 + 16)
            .putInt(0, 1)
            .putLong(4, 0x1000)
            .putInt(12, 0x100)
            .putInt(16, 1 << 24)
            .array());
    assertThatThrownBy(() -> Minidump.read(m.build()))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("outside");
    // a directory claiming more streams than Breakpad reads, and one past the end
    byte[] ok = oneThread(0, new long[] {RET});
    byte[] many = ok.clone();
    ByteBuffer.wrap(many).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 100000);
    assertThatThrownBy(() -> Minidump.read(many))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("exceeds the maximum");
    byte[] far = ok.clone();
    ByteBuffer.wrap(far).order(ByteOrder.LITTLE_ENDIAN).putInt(12, ok.length - 4);
    assertThatThrownBy(() -> Minidump.read(far))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("stream directory");
    assertThatThrownBy(() -> Minidump.read(new byte[] {'M', 'D'}))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("the header");
    assertThatThrownBy(() -> Minidump.read(new byte[64]))
        .isInstanceOf(MinidumpException.class)
        .hasMessageContaining("not a minidump");
  }

  @Test
  void overlappingMemoryRangesReadTheFirstThatHoldsTheAddress() throws Exception {
    DumpBuilder d = new DumpBuilder();
    ByteBuffer a = DumpBuilder.le(0x100);
    a.putLong(0, RET);
    ByteBuffer b = DumpBuilder.le(0x200);
    int ra = d.blob(a.array());
    int rb = d.blob(b.array());
    int ctx = d.amd64Context(BASE + 0x1010, STACK, 0);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 7, STACK, 0, 0, ctx); // no stack of its own: the list's
    ByteBuffer mem = DumpBuilder.le(4 + 32).putInt(0, 2);
    mem.putLong(4, STACK).putInt(12, 0x100).putInt(16, ra);
    mem.putLong(20, STACK - 0x80).putInt(28, 0x200).putInt(32, rb);
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.MEMORY_LIST, mem.array());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(Minidump.MODULE_LIST, d.moduleList(BASE, 0x10000, "/lib/libhostile.so", BUILD_ID));
    Minidump dump = Minidump.read(d.build());
    assertThat(dump.memoryList()).hasSize(2);
    assertThat(dump.stackOf(dump.threads().get(0)).rva()).isEqualTo(ra);
    CallStack s = new MinidumpProcessor(symbols(null)).process(dump).threads().get(0);
    assertThat(s.frames().get(1).function()).isEqualTo("caller");
  }

  /**
   * Every truncation of Breakpad's minidump2.dmp, and seeded byte corruptions of it and of a
   * synthetic dump, read and walk or fail with a MinidumpException: nothing else escapes.
   */
  @Test
  void truncatedAndCorruptedDumpsFailOnlyWithReasons() throws Exception {
    byte[] real = Files.readAllBytes(MinidumpReaderTest.testdata().resolve("minidump2.dmp"));
    SymbolSupplier syms = new SymbolDirectory(MinidumpReaderTest.testdata().resolve("symbols"));
    int refused = 0;
    for (int len = 0; len < real.length; len += 37) {
      refused += survive(Arrays.copyOf(real, len), syms) ? 0 : 1;
    }
    assertThat(refused).isGreaterThan(100);
    Random r = new Random(20261127);
    byte[] synthetic = oneThread(STACK + 0x180, new long[] {RET, RET, RET});
    for (int i = 0; i < 400; i++) {
      byte[] base = i % 2 == 0 ? real : synthetic;
      byte[] m = base.clone();
      int flips = 1 + r.nextInt(8);
      for (int k = 0; k < flips; k++) {
        int at = r.nextInt(Math.min(m.length, i % 4 < 2 ? 2048 : m.length));
        m[at] = (byte) (r.nextInt(4) == 0 ? 0xFF : r.nextInt(256));
      }
      survive(m, i % 2 == 0 ? syms : symbols(".cfa: $rsp 8 + .ra: .cfa -8 + ^"));
    }
  }

  @Test
  void stackContentsStayWithinTheThreadsStackMemory() throws Exception {
    // a fuzz finding: a caller's sp ~1.4 MB above its frame's made the -s output 6 MB of blank
    // rows for a 13 KB dump (395 MB of heap instrumented); Breakpad prints them all
    byte[] dump;
    try (var in =
        HostileDumpTest.class.getResourceAsStream(
            "MinidumpFuzzTestsInputs/dump/regression-stack-contents-far-caller-sp")) {
      dump = in.readAllBytes();
    }
    ProcessState s = new MinidumpProcessor(SymbolSupplier.NONE).process(Minidump.read(dump));
    String out = HumanReadableWriter.write(s, HumanReadableWriter.Dialect.NPM_0_26, true);
    assertThat(out).contains("only the rows within the thread's stack memory");
    assertThat(out.length()).isLessThan(64 * 1024);
  }

  /** True when the dump was walked and printed, false when refused with a reason. */
  private static boolean survive(byte[] dump, SymbolSupplier syms) {
    try {
      ProcessState s = new MinidumpProcessor(syms, 4096).process(Minidump.read(dump));
      MachineReadableWriter.write(s);
      HumanReadableWriter.write(s, HumanReadableWriter.Dialect.CURRENT, true);
      return true;
    } catch (MinidumpException e) {
      assertThat(e.getMessage()).isNotBlank();
      return false;
    }
  }
}

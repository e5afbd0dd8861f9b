package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The requesting (crashed) thread is walked before the others, so a supplier that answers only
 * so many modules (the stream's max.modules.per.event) spends them on the crash; the threads
 * still come out in dump order.
 */
class WalkOrderTest {
  private static final long IDLE = 0x400000L;
  private static final long CRASH = 0x500000L;
  private static final long STACK = 0x7ff000000000L;

  /** Thread 5 idles in libidle.so and is listed first; thread 7 crashed in libcrash.so. */
  static byte[] twoThreads() {
    DumpBuilder d = new DumpBuilder();
    int stack5 = d.blob(new byte[0x100]);
    int stack7 = d.blob(new byte[0x100]);
    int ctx5 = d.amd64Context(IDLE + 0x1000, STACK + 0x10000, 0);
    int ctx7 = d.amd64Context(CRASH + 0x2000, STACK, 0);
    ByteBuffer threads = DumpBuilder.le(4 + 2 * 48).putInt(0, 2);
    DumpBuilder.thread(threads, 4, 5, STACK + 0x10000, 0x100, stack5, ctx5);
    DumpBuilder.thread(threads, 4 + 48, 7, STACK, 0x100, stack7, ctx7);
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(
        Minidump.MODULE_LIST,
        d.moduleList(
            new long[] {IDLE, CRASH},
            new int[] {0x10000, 0x10000},
            new String[] {"/lib/libidle.so", "/lib/libcrash.so"},
            new byte[][] {
              new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
              new byte[] {16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
            }));
    d.stream(Minidump.EXCEPTION, d.exception(7, 11, ctx7));
    return d.build();
  }

  @Test
  void crashedThreadConsultsItsModulesFirst() throws Exception {
    List<CodeModule> consulted = new ArrayList<>();
    SymbolSupplier recording =
        m -> {
          consulted.add(m);
          return null;
        };
    ProcessState s = new MinidumpProcessor(recording).process(Minidump.read(twoThreads()));
    assertThat(s.requestingThread()).isEqualTo(1);
    assertThat(s.threads()).extracting(CallStack::threadId).containsExactly(5L, 7L);
    assertThat(s.threads().get(1).frames().get(0).module().codeFile())
        .isEqualTo("/lib/libcrash.so");
    assertThat(s.threads().get(0).frames().get(0).module().codeFile()).isEqualTo("/lib/libidle.so");
    assertThat(consulted).extracting(CodeModule::codeFile).first().isEqualTo("/lib/libcrash.so");
    assertThat(consulted).extracting(CodeModule::codeFile).contains("/lib/libidle.so");
  }

  @Test
  void withoutAnExceptionTheDumpOrderStays() throws Exception {
    byte[] dump = twoThreads();
    List<CodeModule> consulted = new ArrayList<>();
    // the same dump without its exception stream: no requesting thread, walked as listed
    Minidump read = Minidump.read(dump);
    assertThat(read.exception()).isNotNull();
    ProcessState s =
        new MinidumpProcessor(
                m -> {
                  consulted.add(m);
                  return null;
                })
            .process(Minidump.read(withoutException(dump)));
    assertThat(s.requestingThread()).isNegative();
    assertThat(consulted).extracting(CodeModule::codeFile).first().isEqualTo("/lib/libidle.so");
  }

  /** The dump with its last directory entry (the exception) turned into an unused one. */
  private static byte[] withoutException(byte[] dump) {
    ByteBuffer b = ByteBuffer.wrap(dump.clone()).order(ByteOrder.LITTLE_ENDIAN);
    int count = b.getInt(8);
    b.putInt(32 + 12 * (count - 1), 0); // stream type 0: unused
    return b.array();
  }
}

package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Findings of the native-table fuzz target (docs/fuzzing.md), each kept as a test of its own:
 * a page's claimed uncompressed length is not allocated before the body produces it, a
 * compressed body may not expand without bound (an LZ bomb), and a page whose FUNCs overlap is
 * refused.
 */
class NativePageFuzzFindingsTest {
  private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** version, first key, claimed raw length (varint), codec, then a body of a few bytes. */
  private static byte[] page(int rawLen, int codec, byte... body) {
    ByteWriter w = new ByteWriter(32);
    w.writeByte(NativeTableBuilder.PAGE_VERSION);
    w.writeVar(0x1000);
    w.writeVar(rawLen);
    w.writeByte(codec);
    for (byte b : body) {
      w.writeByte(b);
    }
    return w.toByteArray();
  }

  private static long allocatedBy(Runnable r) {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    r.run();
    return THREADS.getCurrentThreadAllocatedBytes() - before;
  }

  @Test
  void deflatePageClaimingHundredsOfMegabytesFailsWithoutAllocatingThem() {
    // the fuzzer's input: 18 bytes claiming 232 MB once inflated
    byte[] bytes =
        page(
            232_000_000,
            NativeTableBuilder.CODEC_DEFLATE,
            (byte) 0x01,
            (byte) 0,
            (byte) 0,
            (byte) 0,
            (byte) 0xF2,
            (byte) 0x04,
            (byte) 0x30,
            (byte) 0x5F);
    // once to load the decoder's classes, whose loading would count in the measurement
    assertThatThrownBy(() -> NativePage.decode(bytes)).isInstanceOf(CorruptTableException.class);
    long allocated =
        allocatedBy(
            () ->
                assertThatThrownBy(() -> NativePage.decode(bytes))
                    .isInstanceOf(CorruptTableException.class));
    assertThat(allocated).isLessThan(16L << 20);
  }

  @Test
  void lzPageClaimingHundredsOfMegabytesFailsWithoutAllocatingThem() {
    // a literal run of 3 bytes, then the body ends: far short of the 200 MB claimed
    byte[] bytes =
        page(200_000_000, NativeTableBuilder.CODEC_LZ, (byte) 0x30, (byte) 1, (byte) 2, (byte) 3);
    assertThatThrownBy(() -> NativePage.decode(bytes)).isInstanceOf(CorruptTableException.class);
    long allocated =
        allocatedBy(
            () ->
                assertThatThrownBy(() -> NativePage.decode(bytes))
                    .isInstanceOf(CorruptTableException.class));
    assertThat(allocated).isLessThan(16L << 20);
  }

  @Test
  void compressedPagesStillDecodeToTheirDeclaredLength() throws Exception {
    // pages of every codec from a real-shaped .sym decode as before (growth is invisible)
    String sym =
        "MODULE Linux x86_64 000102030405060708090A0B0C0D0E0F0 m\nFILE 0 a.c\n"
            + "FUNC 1000 20 0 f\n1000 10 1 0\n1010 10 2 0\nPUBLIC 2000 0 g\n";
    for (PageCompression codec : PageCompression.values()) {
      NativeTable t =
          NativeSymbols.convert(
              new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
              NativeSymbols.Options.defaults().withCodec(codec));
      NativePage p = NativePage.decode(t.pages().get(0).bytes());
      assertThat(p.lookup(0x1012).function()).isEqualTo("f");
      assertThat(p.lookup(0x1012).line()).isEqualTo(2);
      assertThat(p.lookup(0x2004).function()).isEqualTo("g");
    }
  }

  @Test
  void lzBombIsRefusedBeforeItExpands() {
    // 3 literal bytes, then one match at offset 1 whose length (a varint) fills 232 MB: the
    // fuzzer's input took over 10 s instrumented and 232 MB of heap
    byte[] bytes =
        page(
            232_000_000,
            NativeTableBuilder.CODEC_LZ,
            (byte) 0x3F,
            (byte) 1,
            (byte) 2,
            (byte) 3,
            (byte) 1,
            (byte) 0,
            (byte) 0xCD,
            (byte) 0xB2,
            (byte) 0xCD,
            (byte) 0x6E);
    assertThatThrownBy(() -> NativePage.decode(bytes)).isInstanceOf(CorruptTableException.class);
    long allocated =
        allocatedBy(
            () ->
                assertThatThrownBy(() -> NativePage.decode(bytes))
                    .isInstanceOf(CorruptTableException.class)
                    .hasMessageContaining("uncompressed from a"));
    assertThat(allocated).isLessThan(16L << 20);
  }

  @Test
  void aPageThatCompressesLikeABombIsWrittenRawAndDecodes() throws Exception {
    // one FUNC with a 2 MB name of one repeated letter: its page body is one long repetition,
    // which LZ shrinks more than readers accept; the writer stores it raw instead (a FUNC's line
    // records no longer do it: LZ leaves FUNC bodies as literals)
    String name = "f" + "a".repeat(2 << 20);
    StringBuilder sym =
        new StringBuilder(
            "MODULE Linux x86_64 000102030405060708090A0B0C0D0E0F0 m\nFILE 0 a.c\n"
                + "FUNC 1000 7a120 0 "
                + name
                + "\n1000 7a120 7 0\n");
    for (PageCompression codec : PageCompression.values()) {
      NativeTable t =
          NativeSymbols.convert(
              new ByteArrayInputStream(sym.toString().getBytes(StandardCharsets.UTF_8)),
              NativeSymbols.Options.defaults().withCodec(codec));
      int bigPages = 0;
      for (var stored : t.pages()) {
        ByteReader head = new ByteReader(stored.bytes());
        head.readByte();
        head.readVar();
        boolean big = head.readInt() > NativePageDecoder.MIN_EXPANSION_BOUND;
        if (big && codec == PageCompression.LZ) { // LZ passes the bound here
          assertThat(head.readByte()).isEqualTo(NativeTableBuilder.CODEC_RAW);
          bigPages++;
        }
        NativePage p = NativePage.decode(stored.bytes());
        if (p.lookup(0x1000 + 150_000) != null) {
          assertThat(p.lookup(0x1000 + 150_000).line()).isEqualTo(7);
        }
      }
      assertThat(NativeSymbolizer.inMemory(t).lookup(0x1000 + 150_000).function()).isEqualTo(name);
      assertThat(bigPages).isEqualTo(codec == PageCompression.LZ ? 1 : 0);
    }
  }

  /**
   * The third run's finding: a corrupt page whose FUNCs overlap (a FUNC starting inside another)
   * left its segments out of order, so the page with answer memo (bucket index)
   * answered the top of the address space with the big FUNC and the page without (the segment
   * search) with nothing. Such a page is refused now, as the builder never writes one.
   */
  @Test
  void aPageWhoseFuncsOverlapIsRefused() throws Exception {
    byte[] bytes;
    try (var in =
        getClass()
            .getResourceAsStream(
                "NativeFuzzTestsInputs/tableBytes/regression-overlapping-funcs-memo-vs-plain")) {
      bytes = in.readAllBytes();
    }
    for (boolean memo : new boolean[] {true, false}) {
      assertThatThrownBy(() -> NativePage.decode(bytes, memo))
          .isInstanceOf(CorruptTableException.class)
          .hasMessageContaining("overlap or are out of order");
    }
  }
}

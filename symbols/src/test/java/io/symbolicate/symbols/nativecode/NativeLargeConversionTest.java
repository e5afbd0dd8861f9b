package io.symbolicate.symbols.nativecode;

import static io.symbolicate.symbols.nativecode.NativeHostileInputTest.convert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A file whose FUNC records span many chunks of the builder's FUNC store, which frees each chunk
 * once its last record is copied into a page: the table must not depend on the order FUNCs come
 * in (sorted: chunks freed one after the other; shuffled: freed in random order).
 */
class NativeLargeConversionTest {
  private static final int FUNCS = 3000;

  /** FUNC records of ~0.6 KB each in the store (long names, 40 lines): ~1.8 MB, about 7 chunks. */
  private static List<String> funcBlocks() {
    List<String> blocks = new ArrayList<>();
    for (int f = 0; f < FUNCS; f++) {
      long start = 0x10000L + f * 0x400L;
      StringBuilder b = new StringBuilder();
      b.append(String.format("FUNC %x 400 0 ns::Type<%d>::function_%d(", start, f, f))
          .append("x".repeat(200 + f % 300))
          .append(")\n");
      for (int l = 0; l < 40; l++) {
        b.append(String.format("%x 10 %d %d%n", start + l * 0x10, 100 + l, 1 + (f + l) % 3));
      }
      blocks.add(b.toString());
    }
    return blocks;
  }

  private static NativeTable convertBlocks(List<String> blocks) throws IOException {
    StringBuilder text =
        new StringBuilder("MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 big\n")
            .append("FILE 1 a.cc\nFILE 2 b.cc\nFILE 3 c.cc\n");
    blocks.forEach(text::append);
    text.append("PUBLIC 8000 0 before_everything\n");
    return convert(text.toString());
  }

  @Test
  void shuffledFuncsGiveTheSameTableAsSortedOnesAcrossManyStoreChunks() throws IOException {
    List<String> sorted = funcBlocks();
    List<String> shuffled = new ArrayList<>(sorted);
    Collections.shuffle(shuffled, new Random(5));
    NativeTable a = convertBlocks(sorted);
    NativeTable b = convertBlocks(shuffled);

    assertThat(a.nativeHeader().functionCount()).isEqualTo(FUNCS);
    assertThat(a.pages().size()).isGreaterThan(1);
    assertThat(b.header()).isEqualTo(a.header());
    assertThat(b.pages()).hasSameSizeAs(a.pages());
    for (int i = 0; i < a.pages().size(); i++) {
      TablePage pa = a.pages().get(i);
      TablePage pb = b.pages().get(i);
      assertThat(pb.firstKey()).isEqualTo(pa.firstKey());
      assertThat(pb.bytes()).as("page %d", i).isEqualTo(pa.bytes());
    }

    NativeSymbolizer s = NativeSymbolizer.inMemory(b);
    for (int f : new int[] {0, 1, 1234, FUNCS - 1}) {
      NativeFrame frame = s.lookup(0x10000L + f * 0x400L + 0x25);
      assertThat(frame.function()).startsWith("ns::Type<" + f + ">::function_" + f + "(");
      assertThat(frame.line()).isEqualTo(102);
    }
    assertThat(s.lookup(0x8001).function()).isEqualTo("before_everything");
  }

  @Test
  void chunkedBytesFreesSingleChunks() {
    ChunkedBytes store = new ChunkedBytes();
    byte[] data = new byte[(1 << ChunkedBytes.SHIFT) + 100];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    long at = store.append(data, 0, data.length);
    assertThat(store.chunks()).isEqualTo(2);
    assertThat(ChunkedBytes.chunkOf(at + data.length - 1)).isEqualTo(1);
    store.free(0);
    byte[] tail = new byte[100];
    store.read(at + (1 << ChunkedBytes.SHIFT), tail, 0, 100);
    assertThat(tail[0]).isEqualTo(data[1 << ChunkedBytes.SHIFT]);
    assertThatThrownBy(() -> store.read(at, new byte[1], 0, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("chunk 0 was freed");
    assertThat(store.heldBytes()).isEqualTo(1 << ChunkedBytes.SHIFT);
    store.close();
    assertThat(store.heldBytes()).isZero();
    assertThat(store.size()).isZero();
  }

  @Test
  void runningOutOfDirectMemoryIsAnIoFailureNamingTheLimit() {
    int[] allocated = {0};
    ChunkedBytes store =
        new ChunkedBytes(
            n -> {
              if (allocated[0]++ == 4) {
                throw new OutOfMemoryError("Cannot reserve 262144 bytes of direct buffer memory");
              }
              return ByteBuffer.allocateDirect(n);
            });
    byte[] data = new byte[6 << ChunkedBytes.SHIFT];
    assertThatThrownBy(() -> store.append(data, 0, data.length))
        .isInstanceOf(ChunkedBytes.OutOfDirectMemory.class)
        .hasMessageContaining("not enough direct memory")
        .hasMessageContaining("MaxDirectMemorySize")
        .hasMessageContaining("1 MB held by this store")
        .hasRootCauseInstanceOf(OutOfMemoryError.class);
    assertThat(store.heldBytes()).isEqualTo(4L << ChunkedBytes.SHIFT);
    store.close();
    assertThat(store.heldBytes()).isZero();
  }

  @Test
  void aConversionOutOfDirectMemoryFailsWithAnIoExceptionAndReleasesWhatItHeld() {
    // the loader retries an IOException as a transient failure (never cached as malformed)
    int[] allocated = {0};
    NativeTableBuilder b =
        new NativeTableBuilder(
            NativeTableBuilder.DEFAULT_PAGE_TARGET,
            NativeTableBuilder.DEFAULT_CODEC,
            n -> {
              if (allocated[0]++ == 3) {
                throw new OutOfMemoryError("Cannot reserve 262144 bytes of direct buffer memory");
              }
              return ByteBuffer.allocateDirect(n);
            });
    StringBuilder sym =
        new StringBuilder("MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 m\n");
    for (int f = 0; f < 20_000; f++) {
      sym.append("FUNC ")
          .append(Long.toHexString(0x1000L + f * 0x100L))
          .append(" 80 0 ")
          .append("ns::function_with_a_long_enough_name_")
          .append(f)
          .append("()\n");
    }
    byte[] input = sym.toString().getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(
            () ->
                NativeSymbols.convert(
                    new ByteArrayInputStream(input),
                    NativeSymbols.Options.defaults(),
                    page -> {},
                    b))
        .isExactlyInstanceOf(IOException.class)
        .hasMessageContaining("not enough direct memory");
    assertThat(allocated[0]).isEqualTo(4);
    assertThat(b.heldBytes()).isZero();
  }

  @Test
  void aBuilderReleasesItsOffHeapRecordsWhenClosedUnfinished() {
    // a conversion that fails half way (malformed input, a read error) closes its builder:
    // the records and names already stored off the heap are released then
    NativeTableBuilder b = new NativeTableBuilder();
    b.module("Linux", "x86_64", "0123456789ABCDEF0123456789ABCDEF0", "m");
    byte[] name = "origin_with_a_long_name".getBytes(StandardCharsets.US_ASCII);
    b.inlineOrigin(0, name, 0, name.length);
    byte[] big = new byte[3 << ChunkedBytes.SHIFT];
    b.file(1, big, 0, big.length);
    assertThat(b.heldBytes()).isEqualTo(4L << ChunkedBytes.SHIFT);
    b.close();
    assertThat(b.heldBytes()).isZero();
    b.close(); // twice is harmless
  }

  @Test
  void releasedDirectBuffersGoBackAtOnce() {
    assertThat(DirectBuffers.freesAtOnce()).isTrue();
    ByteBuffer b = ByteBuffer.allocateDirect(64 << 20);
    long held = directBytesUsed();
    DirectBuffers.release(b);
    assertThat(held - directBytesUsed()).isGreaterThanOrEqualTo(64 << 20);
    DirectBuffers.release(ByteBuffer.allocate(16)); // a heap buffer is ignored
  }

  private static long directBytesUsed() {
    return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(p -> p.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed)
        .sum();
  }

  @Test
  void nameBytesSurviveTheirChunkBoundary() throws IOException {
    // a FUNC name long enough to straddle two 256 KB chunks is read back whole
    String longName = "n".repeat((1 << ChunkedBytes.SHIFT) - 10) + "_end";
    NativeTable t =
        convert(
            "MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 m\n"
                + "FUNC 1000 10 0 "
                + "a".repeat(100)
                + "\nFUNC 2000 10 0 "
                + longName
                + "\nFUNC 3000 10 0 last\n");
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    assertThat(s.lookup(0x2004).function()).isEqualTo(longName);
    assertThat(s.lookup(0x3004).function()).isEqualTo("last");
    assertThat(longName.getBytes(StandardCharsets.ISO_8859_1).length).isGreaterThan(1 << 17);
  }
}

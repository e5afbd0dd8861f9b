package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.loader.nativecode.NativeTableConverter;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The loader's CPU-share pacing, with a fake CPU clock and a recording sleeper (no timing). */
class LoadPacerTest {
  private static final long MS = 1_000_000L;

  /** A CPU clock that the test advances, and the sleeps the pacer asked for. */
  private final AtomicLong cpu = new AtomicLong(1_000 * MS);

  private final List<Long> sleeps = new ArrayList<>();

  private LoadPacer pacer(double share) {
    return new LoadPacer(share, cpu::get, sleeps::add);
  }

  @Test
  void sleepsInProportionToTheWorkOfASlice() throws Exception {
    LoadPacer p = pacer(0.25);
    cpu.addAndGet(5 * MS);
    p.pace();
    assertThat(sleeps).as("less than a slice of work: no sleep yet").isEmpty();
    cpu.addAndGet(35 * MS);
    p.pace();
    // 40 ms of work at a quarter of a core: 120 ms of pause
    assertThat(sleeps).containsExactly(120 * MS);
    cpu.addAndGet(20 * MS);
    p.pace();
    assertThat(sleeps).containsExactly(120 * MS, 60 * MS);
    assertThat(p.workMillis()).isEqualTo(60);
    assertThat(p.sleptMillis()).isEqualTo(180);
  }

  @Test
  void aHalfShareSleepsAsLongAsItWorks() throws Exception {
    LoadPacer p = pacer(0.5);
    for (int i = 0; i < 10; i++) {
      cpu.addAndGet(30 * MS);
      p.pace();
    }
    assertThat(sleeps).hasSize(10).allMatch(s -> s == 30 * MS);
  }

  @Test
  void aFullShareNeverSleeps() throws Exception {
    LoadPacer p = pacer(1.0);
    cpu.addAndGet(10_000 * MS);
    p.pace();
    assertThat(sleeps).isEmpty();
    LoadPacer.unpaced().pace();
  }

  @Test
  void timeSpentSleepingIsNotCountedAsWork() throws Exception {
    // a wall clock would advance while sleeping; the next slice starts after the sleep
    LoadPacer p =
        new LoadPacer(
            0.25,
            cpu::get,
            n -> {
              sleeps.add(n);
              cpu.addAndGet(n);
            });
    cpu.addAndGet(20 * MS);
    p.pace();
    p.pace();
    assertThat(sleeps).containsExactly(60 * MS);
  }

  @Test
  void rejectsShareThatIsNotPositive() {
    assertThatThrownBy(() -> pacer(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("loader.cpu.share");
    assertThatThrownBy(() -> pacer(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pacer(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void pacedInputPacesEveryBlockReadAndKeepsTheBytes() throws Exception {
    byte[] data = new byte[1 << 20];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31);
    }
    LoadPacer p = pacer(0.25);
    // each block read "costs" 10 ms of CPU (the parse downstream)
    InputStream slow =
        new FilterInputStream(new ByteArrayInputStream(data)) {
          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            cpu.addAndGet(10 * MS);
            return super.read(b, off, Math.min(len, 64 << 10));
          }
        };
    byte[] read;
    try (InputStream in = new PacedInput(slow, p)) {
      read = in.readAllBytes();
    }
    assertThat(read).isEqualTo(data);
    // 10 ms per read against a 20 ms slice: a 60 ms pause every second read
    assertThat(sleeps).isNotEmpty().allMatch(s -> s == 60 * MS);
    assertThat(p.sleptMillis()).isEqualTo(3 * p.workMillis());
    assertThat(p.workMillis()).isGreaterThanOrEqualTo(140);
  }

  @Test
  void nativeConversionPacesWhileCuttingPagesAndBuildsTheSameTable() throws Exception {
    byte[] sym = syntheticSym(30_000);
    CompactTable plain =
        new NativeTableConverter().convert(new ByteArrayInputStream(sym), 1L << 30);
    assertThat(plain.pages()).hasSizeGreaterThan(2);

    // every CPU reading advances 20 ms: each call to pace() is a full slice
    LoadPacer p = new LoadPacer(0.5, () -> cpu.addAndGet(20 * MS), sleeps::add);
    CompactTable paced =
        new NativeTableConverter().convert(new ByteArrayInputStream(sym), 1L << 30, p);

    assertThat(sleeps)
        .as("one pause per page cut")
        .hasSizeGreaterThanOrEqualTo(plain.pages().size());
    assertThat(paced.header()).isEqualTo(plain.header());
    assertThat(paced.pages()).hasSameSizeAs(plain.pages());
    for (int i = 0; i < plain.pages().size(); i++) {
      TablePage a = plain.pages().get(i);
      TablePage b = paced.pages().get(i);
      assertThat(b.firstKey()).isEqualTo(a.firstKey());
      assertThat(b.bytes()).isEqualTo(a.bytes());
    }
  }

  private static byte[] syntheticSym(int functions) {
    StringBuilder s =
        new StringBuilder("MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 big.so\n");
    s.append("FILE 0 /src/big.c\n");
    for (int i = 0; i < functions; i++) {
      long addr = 0x1000L + i * 0x40L;
      s.append(
          String.format(
              "FUNC %x 40 0 function_number_%d_with_a_long_name(int, char const*)%n", addr, i));
      s.append(String.format("%x 20 %d 0%n", addr, 10 + i));
      s.append(String.format("%x 20 %d 0%n", addr + 0x20, 11 + i));
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }
}

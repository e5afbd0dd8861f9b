package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.connectors.loader.nativecode.NativeTableConverter;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The loader's start-up warm-up of its converters: once per JVM and converter class, in the
 * background, a failing or interrupted warm-up harms nothing. Each test uses converter classes of
 * its own, because "warmed" is a property of the JVM.
 */
class ConverterWarmupTest {

  /** Counts its warm-ups; converts nothing for real. */
  private abstract static class CountingConverter implements TableConverter {
    final AtomicInteger warmUps = new AtomicInteger();

    @Override
    public TableKind kind() {
      return TableKind.JVM;
    }

    @Override
    public int formatVersion() {
      return 1;
    }

    @Override
    public CompactTable convert(InputStream in, long maxInputBytes) {
      throw new UnsupportedOperationException("not used by the warm-up");
    }

    @Override
    public long warmUp(LoadPacer pacer) throws IOException, MalformedSymbolsException {
      warmUps.incrementAndGet();
      return 123;
    }
  }

  @Test
  void warmsEachConverterClassOncePerJvm() throws Exception {
    class Once extends CountingConverter {}
    Once first = new Once();
    Map<TableKind, Long> done =
        ConverterWarmup.start(List.of(first), CpuBudget.fixed(1.0)).done().get(1, TimeUnit.MINUTES);
    assertThat(done).containsExactly(Map.entry(TableKind.JVM, 123L));
    assertThat(first.warmUps).hasValue(1);

    // another loader in the same JVM, with another instance of the same converter class
    Once second = new Once();
    assertThat(
            ConverterWarmup.start(List.of(second), CpuBudget.fixed(1.0))
                .done()
                .get(1, TimeUnit.MINUTES))
        .isEmpty();
    assertThat(second.warmUps).hasValue(0);
  }

  @Test
  void aFailingWarmUpIsLoggedAndTheOthersStillRun() throws Exception {
    class Failing extends CountingConverter {
      @Override
      public long warmUp(LoadPacer pacer) throws MalformedSymbolsException {
        warmUps.incrementAndGet();
        throw new MalformedSymbolsException("converter bug", null);
      }
    }
    class Fine extends CountingConverter {
      @Override
      public TableKind kind() {
        return TableKind.JS;
      }
    }
    Failing failing = new Failing();
    Fine fine = new Fine();
    Map<TableKind, Long> done =
        ConverterWarmup.start(List.of(failing, fine), CpuBudget.fixed(1.0))
            .done()
            .get(1, TimeUnit.MINUTES);
    assertThat(done).containsExactly(Map.entry(TableKind.JS, 123L));
    assertThat(failing.warmUps).hasValue(1);
    assertThat(fine.warmUps).hasValue(1);
  }

  @Test
  void aWarmUpStoppedByTheLoadersCloseIsLeftToTheNextLoader() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    class Slow extends CountingConverter {
      @Override
      public long warmUp(LoadPacer pacer) throws IOException {
        if (warmUps.incrementAndGet() == 1) {
          started.countDown();
          try {
            Thread.sleep(60_000); // stands for a paced conversion: interrupted by close()
          } catch (InterruptedException e) {
            throw new InterruptedIOException("load interrupted");
          }
        }
        return 7;
      }
    }
    Slow slow = new Slow();
    ConverterWarmup w = ConverterWarmup.start(List.of(slow), CpuBudget.fixed(1.0));
    assertThat(started.await(1, TimeUnit.MINUTES)).isTrue();
    w.close();
    assertThat(w.done().get(1, TimeUnit.MINUTES)).isEmpty();

    Map<TableKind, Long> next =
        ConverterWarmup.start(List.of(slow), CpuBudget.fixed(1.0)).done().get(1, TimeUnit.MINUTES);
    assertThat(next).containsExactly(Map.entry(TableKind.JVM, 7L));
    assertThat(slow.warmUps).hasValue(2);
  }

  @Test
  void aStartedLoaderWarmsItsConvertersUnlessTheSettingIsOff() throws Exception {
    class ForLoader extends CountingConverter {}
    class ForLoaderOff extends CountingConverter {
      @Override
      public TableKind kind() {
        return TableKind.NATIVE;
      }
    }
    ForLoader on = new ForLoader();
    ForLoaderOff off = new ForLoaderOff();
    LoaderSettings d = LoaderSettings.defaults();
    LoaderSettings noWarmup =
        new LoaderSettings(
            d.concurrency(),
            d.attempts(),
            d.backoff(),
            d.missingRetry(),
            d.malformedRetry(),
            d.failedRetry(),
            d.unusedTtl(),
            d.maxInputBytes(),
            d.coalesceWindow(),
            d.cpuBudget(),
            false);
    SourceChain none =
        new SourceChain(List.of(new FileSystemSource(Path.of("target", "no-symbols"))));
    // no broker at this address: the warm-up needs none
    try (SymbolLoader loader =
            new SymbolLoader(
                "127.0.0.1:1",
                Map.of(),
                "g",
                new TopicNames("raw", "out", "dlq", "r", "t", "i", "u", "missing"),
                none,
                Map.of(TableKind.JVM, on),
                Map.of(),
                d);
        SymbolLoader offLoader =
            new SymbolLoader(
                "127.0.0.1:1",
                Map.of(),
                "g2",
                new TopicNames("raw", "out", "dlq", "r", "t", "i", "u", "missing"),
                none,
                Map.of(TableKind.NATIVE, off),
                Map.of(),
                noWarmup)) {
      assertThat(loader.start().warmupDone().get(1, TimeUnit.MINUTES))
          .containsExactly(Map.entry(TableKind.JVM, 123L));
      assertThat(offLoader.start().warmupDone().get(1, TimeUnit.MINUTES)).isEmpty();
    }
    assertThat(on.warmUps).hasValue(1);
    assertThat(off.warmUps).hasValue(0);
  }

  @Test
  void theNativeConverterConvertsItsSyntheticFileAndTheLoaderPacesIt() throws Exception {
    AtomicInteger paces = new AtomicInteger();
    LoadPacer counting =
        new LoadPacer(0.5, () -> paces.incrementAndGet() * 25_000_000L, nanos -> {});
    long bytes = new NativeTableConverter().warmUp(counting);
    assertThat(bytes).isGreaterThan(4L * 10_000_000);
    assertThat(counting.sleptMillis()).as("paced between page cuts").isPositive();
  }
}

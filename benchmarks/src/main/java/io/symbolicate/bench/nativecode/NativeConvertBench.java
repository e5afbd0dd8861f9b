package io.symbolicate.bench.nativecode;

import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.PageCompression;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Conversion of a real Breakpad .sym into the compact table, one thread. The .sym is read into
 * memory once so the figure is parse + build + page compression, not disk. MB/s = sym MB / s/op
 * (printed at setup). Pages go to a counting sink, as when converting to a file.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar NativeConvertBench -f 5 -wi 2 -i 3
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2)
@Measurement(iterations = 3)
public class NativeConvertBench {
  @Param({"../bench-data/native/ceph-osd.sym"})
  public String sym;

  @Param({"LZ"})
  public String codec;

  private byte[] data;
  private NativeSymbols.Options options;

  @Setup(Level.Trial)
  public void load() throws IOException {
    Path p = Paths.get(sym);
    data = Files.readAllBytes(p);
    options = NativeSymbols.Options.defaults().withCodec(PageCompression.valueOf(codec));
    long[] bytes = new long[1];
    NativeHeader h =
        NativeSymbols.convert(
            new ByteArrayInputStream(data), options, page -> bytes[0] += page.bytes().length);
    System.out.printf(
        "%n[native] %s: %d bytes, table %d bytes (%.2f%% of the .sym), %d pages%n",
        p.getFileName(), data.length, bytes[0], 100.0 * bytes[0] / data.length, h.pageCount());
  }

  @Benchmark
  public long convert() throws IOException {
    long[] bytes = new long[1];
    NativeSymbols.convert(
        new ByteArrayInputStream(data), options, page -> bytes[0] += page.bytes().length);
    return bytes[0];
  }
}

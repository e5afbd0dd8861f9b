package io.symbolicate.bench.nativecode;

import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lookups per second from decoded ("warm") pages, one thread: the million module-relative
 * addresses of ceph-osd.addrs.txt (random, 90% inside FUNCs), full results (function, file,
 * line, inline chain) built for each.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar NativeLookupBench -f 3 -wi 3 -i 3 -w 2 -r 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
public class NativeLookupBench {
  private static final int BATCH = 1 << 16;

  @Param({"../bench-data/native/ceph-osd.sym"})
  public String sym;

  @Param({"../bench-data/native/ceph-osd.addrs.txt"})
  public String addrs;

  private NativeSymbolizer symbolizer;
  private long[] addresses;
  private int next;

  @Setup(Level.Trial)
  public void load() throws IOException {
    symbolizer = NativeSymbolizer.inMemory(NativeSymbols.convert(Paths.get(sym)));
    List<String> lines = Files.readAllLines(Paths.get(addrs));
    addresses =
        lines.stream()
            .filter(s -> !s.isBlank())
            .mapToLong(s -> Long.parseUnsignedLong(s.trim(), 16))
            .toArray();
    int found = 0;
    for (long a : addresses) {
      found += symbolizer.lookup(a) != null ? 1 : 0;
    }
    System.out.printf("%n[native] %d addresses, %d found%n", addresses.length, found);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long lookups() {
    long acc = 0;
    long[] a = addresses;
    int i = next;
    for (int k = 0; k < BATCH; k++) {
      NativeFrame f = symbolizer.lookup(a[i]);
      if (f != null) {
        acc += f.functionBase() + f.inlines().size() + (f.line() == null ? 0 : f.line());
      }
      if (++i == a.length) {
        i = 0;
      }
    }
    next = i;
    return acc;
  }
}

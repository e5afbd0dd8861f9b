package io.symbolicate.bench.nativecode;

import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Peak heap of a streaming conversion (file in, pages to a counting sink, as `native convert`
 * does): run under the heap cap to check, e.g.
 *
 * <pre>
 * java -Xmx256m -cp benchmarks/target/benchmarks.jar \
 *   io.symbolicate.bench.nativecode.NativeHeapProbe ../bench-data/native/ceph-osd.sym
 * </pre>
 *
 * Prints the sum of the heap pools' peak usage (an upper bound of live data: it includes garbage
 * not yet collected), the -Xmx in force, and the table size ratio.
 */
public final class NativeHeapProbe {
  private NativeHeapProbe() {}

  public static void main(String[] args) throws IOException {
    Path sym = Paths.get(args.length > 0 ? args[0] : "../bench-data/native/ceph-osd.sym");
    long[] bytes = new long[1];
    NativeHeader h;
    long t0 = System.nanoTime();
    try (InputStream in = Files.newInputStream(sym)) {
      h =
          NativeSymbols.convert(
              in, NativeSymbols.Options.defaults(), page -> bytes[0] += page.bytes().length);
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    long max = Runtime.getRuntime().maxMemory();
    System.out.printf(
        "sym %d bytes, table %d bytes (%.2f%%), %d pages, %.2fs (cold JVM)%n",
        h.sourceBytes(), bytes[0], 100.0 * bytes[0] / h.sourceBytes(), h.pageCount(), secs);
    System.out.printf(
        "peak heap (sum of pool peaks) %.1f MB, max heap %.1f MB: PASSED%n",
        peak / 1048576.0, max / 1048576.0);
  }
}

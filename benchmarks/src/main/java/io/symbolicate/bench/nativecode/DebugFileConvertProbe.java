package io.symbolicate.bench.nativecode;

import com.sun.management.OperatingSystemMXBean;
import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.nativecode.SymFormatException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One conversion of an ELF executable and its debug file into the native table, as the loader
 * does it ({@code DumpSyms} with inlines into the table builder, no {@code .sym} in between),
 * timed and digested: the SHA-256 of every page's key and bytes in order, then the header, so an
 * A/B of two builds proves a speed-up left the table the same. Prints one line: wall seconds,
 * process CPU seconds, peak heap used (all pools after the run) and the digest. Run it in a fresh
 * JVM per conversion, as the loader and {@code dump_syms} would meet the file (cold).
 *
 * <pre>
 * java -Xmx1g -cp benchmarks/target/benchmarks.jar \
 *   io.symbolicate.bench.nativecode.DebugFileConvertProbe \
 *   ../bench-data/native/ceph-osd ../bench-data/native/ceph-osd.debug
 * </pre>
 */
public final class DebugFileConvertProbe {
  private DebugFileConvertProbe() {}

  public static void main(String[] args)
      throws IOException,
          NoSuchAlgorithmException,
          DumpSymsException,
          NativeTableBuilder.IndexTooLargeException,
          SymFormatException {
    Path exe = Path.of(args[0]);
    Path debug = args.length > 1 ? Path.of(args[1]) : null;
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    long[] bytes = new long[1];
    NativeSymbols.Options options = NativeSymbols.Options.defaults();
    long w0 = System.nanoTime();
    long c0 = processCpuNanos();
    NativeHeader h;
    try (NativeTableBuilder builder =
        new NativeTableBuilder(options.pageTargetBytes(), options.codec())) {
      DumpSyms.dump(exe, new DumpSyms.Options(true, null, debug), builder);
      long size = Files.size(exe) + (debug == null ? 0 : Files.size(debug));
      h =
          builder.finish(
              page -> {
                sha.update(longBytes(page.firstKey()));
                sha.update(longBytes(page.bytes().length));
                sha.update(page.bytes());
                bytes[0] += page.bytes().length;
              },
              size);
    }
    double wall = (System.nanoTime() - w0) / 1e9;
    double cpu = (processCpuNanos() - c0) / 1e9;
    sha.update(h.toString().getBytes(StandardCharsets.UTF_8));
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.printf(
        "wall %.2f s, cpu %.2f s, peak heap %d MB, table %d bytes, %d functions, %d lines,"
            + " %d inline ranges, sha256 %s%n",
        wall,
        cpu,
        peak >> 20,
        bytes[0],
        h.functionCount(),
        h.lineCount(),
        h.inlineRangeCount(),
        HexFormat.of().formatHex(sha.digest()));
  }

  private static long processCpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static byte[] longBytes(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }
}

package io.symbolicate.bench.nativecode;

import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Two checks of a converter change, outside JMH: the SHA-256 of everything a conversion produces
 * (every page's key and bytes in order, then the header's fields), to prove a speed-up left the
 * table byte for byte the same; and the wall and thread-CPU time of repeated conversions, whose
 * CPU time is less disturbed than wall time on a shared machine (for A/B runs, not for figures:
 * those come from {@link NativeConvertBench}).
 *
 * <pre>
 * java -Xmx1g -cp benchmarks/target/benchmarks.jar \
 *   io.symbolicate.bench.nativecode.NativeConvertProbe ../bench-data/native/ceph-osd.sym 10
 * </pre>
 *
 * It uses only the public conversion API, so the same class runs against an older build's
 * classes (put them first on the class path) for a before/after digest.
 */
public final class NativeConvertProbe {
  private NativeConvertProbe() {}

  public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
    Path sym = Paths.get(args.length > 0 ? args[0] : "../bench-data/native/ceph-osd.sym");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    byte[] data = Files.readAllBytes(sym);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] cpu = new double[runs];
    String first = null;
    for (int i = 0; i < runs; i++) {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      long[] bytes = new long[1];
      long w0 = System.nanoTime();
      long c0 = threads.getCurrentThreadCpuTime();
      // the digest costs time too; it is the same for every build, so A/B ratios stay honest
      NativeHeader h =
          NativeSymbols.convert(
              new ByteArrayInputStream(data),
              NativeSymbols.Options.defaults(),
              page -> {
                sha.update(longBytes(page.firstKey()));
                sha.update(longBytes(page.bytes().length));
                sha.update(page.bytes());
                bytes[0] += page.bytes().length;
              });
      cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
      double wall = (System.nanoTime() - w0) / 1e6;
      sha.update(h.toString().getBytes(StandardCharsets.UTF_8));
      String digest = HexFormat.of().formatHex(sha.digest());
      if (first == null) {
        first = digest;
        System.out.printf(
            "sha256 %s  table %d bytes (%.2f%% of %d), %d pages%n",
            digest, bytes[0], 100.0 * bytes[0] / data.length, data.length, h.pageCount());
      } else if (!first.equals(digest)) {
        throw new IllegalStateException("run " + i + " produced another table: " + digest);
      }
      System.out.printf(
          "run %d: wall %.1f ms, cpu %.1f ms (%.0f MB/s of cpu)%n",
          i, wall, cpu[i], data.length / 1e3 / cpu[i]);
    }
    if (runs > 2) {
      double[] tail = Arrays.copyOfRange(cpu, runs / 2, runs); // the second half: warm
      Arrays.sort(tail);
      double median = tail[tail.length / 2];
      System.out.printf(
          "median cpu of the warm half: %.1f ms = %.0f MB/s%n", median, data.length / 1e3 / median);
    }
  }

  private static byte[] longBytes(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }
}

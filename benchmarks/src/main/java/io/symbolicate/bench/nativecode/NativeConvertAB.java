package io.symbolicate.bench.nativecode;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * Before/after of a converter change on a shared machine: two builds of the symbols classes in
 * one JVM (each in its own class loader), converting the same .sym in turns, A B A B ..., so both
 * see the same load; prints each build's median wall and thread-CPU time of the second half of
 * the rounds (warm) and their ratio. For A/B ratios only; reported speeds come from
 * {@link NativeConvertBench}.
 *
 * <pre>
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar io.symbolicate.bench.nativecode.NativeConvertAB \
 *   /tmp/base.jar symbols/target/classes:/tmp/base.jar ../bench-data/native/ceph-osd.sym 16
 * </pre>
 *
 * A and B are class paths (entries separated as on the command line, e.g. a classes directory
 * before a jar it overrides) holding io.symbolicate.symbols.nativecode; neither shares classes
 * with this class's own loader.
 */
public final class NativeConvertAB {
  private NativeConvertAB() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: NativeConvertAB A-classpath B-classpath file.sym [rounds]");
      System.exit(2);
    }
    byte[] data = Files.readAllBytes(Paths.get(args[2]));
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 12;
    Converter[] builds = {new Converter("A", args[0]), new Converter("B", args[1])};
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[][] wall = new double[2][rounds];
    double[][] cpu = new double[2][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        int b = (r % 2 == 0) ? k : 1 - k; // A B, then B A: neither always goes first
        long w0 = System.nanoTime();
        long c0 = threads.getCurrentThreadCpuTime();
        long bytes = builds[b].convert(data);
        cpu[b][r] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
        wall[b][r] = (System.nanoTime() - w0) / 1e6;
        System.out.printf(
            "round %d %s: wall %.1f ms, cpu %.1f ms, table %d bytes%n",
            r, builds[b].name, wall[b][r], cpu[b][r], bytes);
      }
    }
    double[] mw = new double[2];
    double[] mc = new double[2];
    for (int b = 0; b < 2; b++) {
      mw[b] = warmMedian(wall[b]);
      mc[b] = warmMedian(cpu[b]);
      System.out.printf(
          "%s (%s): warm median wall %.1f ms (%.0f MB/s), cpu %.1f ms (%.0f MB/s)%n",
          builds[b].name,
          builds[b].path,
          mw[b],
          data.length / 1e3 / mw[b],
          mc[b],
          data.length / 1e3 / mc[b]);
    }
    System.out.printf("B/A time: wall %.3f, cpu %.3f%n", mw[1] / mw[0], mc[1] / mc[0]);
  }

  private static double warmMedian(double[] v) {
    double[] tail = Arrays.copyOfRange(v, v.length / 2, v.length);
    Arrays.sort(tail);
    return tail.length % 2 == 1
        ? tail[tail.length / 2]
        : (tail[tail.length / 2 - 1] + tail[tail.length / 2]) / 2;
  }

  /** NativeSymbols.convert of one build, called through its own class loader. */
  private static final class Converter {
    final String name;
    final String path;
    final Method convert;
    final Object options;
    final Class<?> sinkType;
    final Method bytesOf;

    Converter(String name, String path) throws Exception {
      this.name = name;
      this.path = path;
      String[] parts = path.split(File.pathSeparator);
      URL[] urls = new URL[parts.length];
      for (int i = 0; i < parts.length; i++) {
        urls[i] = Paths.get(parts[i]).toUri().toURL();
      }
      ClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
      Class<?> symbols = loader.loadClass("io.symbolicate.symbols.nativecode.NativeSymbols");
      Class<?> opts = loader.loadClass("io.symbolicate.symbols.nativecode.NativeSymbols$Options");
      sinkType = loader.loadClass("io.symbolicate.symbols.nativecode.NativeTableBuilder$PageSink");
      convert = symbols.getMethod("convert", InputStream.class, opts, sinkType);
      options = opts.getMethod("defaults").invoke(null);
      bytesOf = loader.loadClass("io.symbolicate.symbols.table.TablePage").getMethod("bytes");
    }

    long convert(byte[] data) throws Exception {
      long[] total = new long[1];
      Object sink =
          Proxy.newProxyInstance(
              sinkType.getClassLoader(),
              new Class<?>[] {sinkType},
              (proxy, method, args) -> {
                if (method.getName().equals("accept")) {
                  total[0] += ((byte[]) bytesOf.invoke(args[0])).length;
                }
                return null;
              });
      convert.invoke(null, new ByteArrayInputStream(data), options, sink);
      return total[0];
    }
  }
}

package io.symbolicate.bench.nativecode;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Thread CPU and allocation per event of {@link SourceContextBench#symbolicate} with context off
 * and with 5 lines, interleaved in rounds of 20,000 events: on a machine shared with other jobs,
 * JMH's wall times swing with the load, while the thread's own CPU time per event, compared
 * between the two in the same rounds, still gives the ratio issue 46 sets a target for.
 *
 * <pre>
 * java -Xmx1g -cp benchmarks/target/benchmarks.jar \
 *   io.symbolicate.bench.nativecode.SourceContextCpuProbe 15 [0|1]
 * </pre>
 */
public final class SourceContextCpuProbe {
  private static final int EVENTS = 20_000;

  private SourceContextCpuProbe() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.symbolicate.schema");
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    // a second argument (0 or 1) runs that side alone: for a profiler's samples of one side
    int only = args.length > 1 ? Integer.parseInt(args[1]) : -1;
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    SourceContextBench[] benches = new SourceContextBench[2];
    String[] names = {"context 0", "context 5"};
    for (int k = 0; k < 2; k++) {
      benches[k] = new SourceContextBench();
      benches[k].contextLines = k == 0 ? 0 : 5;
      benches[k].load();
    }
    double[][] cpu = new double[2][rounds];
    long[][] alloc = new long[2][rounds];
    long tid = Thread.currentThread().getId();
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      StringBuilder line = new StringBuilder("round " + r + ":");
      for (int k = 0; k < 2; k++) {
        if (only >= 0 && k != only) {
          continue;
        }
        long t0 = mx.getCurrentThreadCpuTime();
        long b0 = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < EVENTS; i++) {
          sink += benches[k].symbolicate();
        }
        cpu[k][r] = (mx.getCurrentThreadCpuTime() - t0) / 1e3 / EVENTS;
        alloc[k][r] = (mx.getThreadAllocatedBytes(tid) - b0) / EVENTS;
        line.append(String.format(" %s %.2f µs %,d B;", names[k], cpu[k][r], alloc[k][r]));
      }
      System.out.println(line);
    }
    int skip = rounds / 3; // the first third warms the JIT
    double[] median = new double[2];
    for (int k = 0; k < 2; k++) {
      double[] c = Arrays.copyOfRange(cpu[k], skip, rounds);
      Arrays.sort(c);
      median[k] = c[c.length / 2];
    }
    System.out.printf(
        "medians of rounds %d-%d: context 0 %.2f, context 5 %.2f µs CPU/event; ratio %.3f;"
            + " %,d / %,d B/event; load %.1f (%d)%n",
        skip,
        rounds - 1,
        median[0],
        median[1],
        median[1] / median[0],
        alloc[0][rounds - 1],
        alloc[1][rounds - 1],
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        sink & 1);
  }
}

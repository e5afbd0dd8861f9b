package io.symbolicate.bench.nativecode;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Thread CPU and allocation per event of {@link SymbolicateEventBench}'s pass-through,
 * symbolicate and symbolicateSigned paths, interleaved in rounds of 20,000 events: on a machine
 * shared with other jobs, JMH's wall times swing with the load, while the thread's own CPU
 * time per event, compared between paths of the same rounds, still shows what signing costs
 * (symbolicateSigned minus symbolicate).
 *
 * <pre>
 * java -Xmx512m -cp benchmarks/target/benchmarks.jar io.symbolicate.bench.nativecode.SigningCpuProbe 12
 * </pre>
 */
public final class SigningCpuProbe {
  private static final int EVENTS = 20_000;

  private SigningCpuProbe() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.symbolicate.schema");
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    SymbolicateEventBench bench = new SymbolicateEventBench();
    bench.modules = 8;
    bench.functions = 20000;
    bench.load();
    String[] names = {"passThrough", "symbolicate", "symbolicateSigned"};
    double[][] cpu = new double[3][rounds];
    long tid = Thread.currentThread().getId();
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      StringBuilder line = new StringBuilder("round " + r + ":");
      for (int k = 0; k < 3; k++) {
        long t0 = mx.getCurrentThreadCpuTime();
        long b0 = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < EVENTS; i++) {
          sink +=
              switch (k) {
                case 0 -> bench.passThrough();
                case 1 -> bench.symbolicate();
                default -> bench.symbolicateSigned();
              };
        }
        cpu[k][r] = (mx.getCurrentThreadCpuTime() - t0) / 1e3 / EVENTS;
        long bytes = (mx.getThreadAllocatedBytes(tid) - b0) / EVENTS;
        line.append(String.format(" %s %.1f µs %,d B;", names[k], cpu[k][r], bytes));
      }
      System.out.println(line);
    }
    int skip = rounds / 3; // the first third warms the JIT
    double[] median = new double[3];
    for (int k = 0; k < 3; k++) {
      double[] c = Arrays.copyOfRange(cpu[k], skip, rounds);
      Arrays.sort(c);
      median[k] = c[c.length / 2];
    }
    System.out.printf(
        "medians of rounds %d-%d: pass-through %.1f, symbolicate %.1f, signed %.1f µs CPU/event;"
            + " signing %.1f µs; load %.1f (%d)%n",
        skip,
        rounds - 1,
        median[0],
        median[1],
        median[2],
        median[2] - median[1],
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        sink & 1);
  }
}

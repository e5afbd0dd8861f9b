package io.symbolicate.bench.pipeline;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * CPU time spent by the benchmark's process during one run, in total and per kind of thread
 * (stream thread, producers, broker, ...). On a shared machine events/s depend on how much CPU
 * the process gets; CPU per event does not, so it tells where a slower topology spends.
 */
final class CpuMeter {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long processStart;
  private final LongSupplier childBroker;
  private final long childBrokerStart;
  private final Map<Long, Long> threadStart = new HashMap<>();
  private final Map<Long, Long> allocStart = new HashMap<>();
  private final Map<String, Long> vmStart;

  /**
   * Also the CPU of a broker in a child JVM ({@code childBroker}: its total CPU in ns, or -1 when
   * the broker runs in this JVM, where it is one of the thread kinds), counted as the kind
   * "broker" and in the "process" total, so the totals of runs against either broker compare.
   */
  CpuMeter(LongSupplier childBroker) {
    this.childBroker = childBroker;
    childBrokerStart = childBroker.getAsLong();
    processStart = processCpuNanos();
    vmStart = vmThreads();
    for (long id : THREADS.getAllThreadIds()) {
      threadStart.put(id, Math.max(0, THREADS.getThreadCpuTime(id)));
      allocStart.put(id, Math.max(0, allocated(id)));
    }
  }

  /**
   * CPU nanoseconds since the start, "process" plus one entry per thread kind, and the bytes
   * each kind's Java threads allocated ("stream-alloc-bytes", ...).
   */
  Map<String, Long> stop() {
    Map<String, Long> byKind = new TreeMap<>();
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long now = THREADS.getThreadCpuTime(info.getThreadId());
      if (now < 0) {
        continue;
      }
      long spent = now - threadStart.getOrDefault(info.getThreadId(), 0L);
      String kind = kind(info.getThreadName());
      long a = allocated(info.getThreadId());
      if (a >= 0) {
        byKind.merge(
            kind + "-alloc-bytes", a - allocStart.getOrDefault(info.getThreadId(), 0L), Long::sum);
      }
      if (kind.equals("other") && Boolean.getBoolean("bench.cpu.threads") && spent > 100_000_000L) {
        System.out.printf("    other thread %s: %d ms%n", info.getThreadName(), spent / 1_000_000);
      }
      byKind.merge(kind, spent, Long::sum);
    }
    vmThreads().forEach((k, v) -> byKind.put(k, v - vmStart.getOrDefault(k, 0L)));
    long child = childBroker.getAsLong();
    // unknown at either end (or a restarted child, whose clock starts again): nothing is added
    long childSpent =
        child >= 0 && childBrokerStart >= 0 ? Math.max(0, child - childBrokerStart) : 0;
    if (childSpent > 0) {
      byKind.merge("broker", childSpent, Long::sum);
    }
    Map<String, Long> out = new LinkedHashMap<>();
    out.put("process", processCpuNanos() - processStart + childSpent);
    out.putAll(byKind);
    return out;
  }

  /**
   * CPU of the JVM's own threads (garbage collector, JIT compilers), which the thread MXBean
   * does not list: from /proc/self/task on Linux, by thread name; empty elsewhere.
   */
  private static Map<String, Long> vmThreads() {
    Map<String, Long> out = new HashMap<>();
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return out;
    }
    try (var dirs = Files.list(tasks)) {
      for (Path t : (Iterable<Path>) dirs::iterator) {
        try {
          String comm = Files.readString(t.resolve("comm")).trim();
          String kind =
              comm.startsWith("GC Thread") || comm.startsWith("G1 ")
                  ? "gc"
                  : comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler") ? "jit" : null;
          if (kind == null) {
            continue;
          }
          String stat = Files.readString(t.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux)
          long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
          out.merge(kind, ticks * 10_000_000L, Long::sum);
        } catch (IOException | RuntimeException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      return out;
    }
    return out;
  }

  static String kind(String thread) {
    if (thread.contains("GlobalStreamThread")) {
      return "global-store";
    }
    if (thread.contains("producer-network-thread")) {
      return "producers";
    }
    if (thread.startsWith("kafka-coordinator-heartbeat-thread")) {
      return "other"; // a client's consumer, not the broker (whose threads also start with "kafka")
    }
    if (thread.contains("StreamThread")) {
      return "stream";
    }
    if (thread.contains("admin-client")) {
      return "admin";
    }
    if (thread.startsWith("symbol-loader")) {
      return "loader";
    }
    if (thread.startsWith("S3Proxy")) {
      return "s3";
    }
    if (thread.startsWith("bench-counter")) {
      return "counter";
    }
    if (thread.startsWith("data-plane")
        || thread.startsWith("kafka")
        || thread.startsWith("Txn")
        || thread.startsWith("broker")
        || thread.startsWith("ExpirationReaper")
        || thread.contains("log-")
        || thread.startsWith("group-coordinator")
        || thread.startsWith("transaction")) {
      return "broker";
    }
    return "other";
  }

  private static long allocated(long threadId) {
    if (THREADS instanceof com.sun.management.ThreadMXBean sun) {
      return sun.getThreadAllocatedBytes(threadId);
    }
    return -1;
  }

  /** "process 120 µs/event (stream 40, broker 50, ...)" for {@code events} events. */
  static String perEvent(Map<String, Long> cpu, long events) {
    StringBuilder b = new StringBuilder();
    b.append(String.format("%.0f µs CPU/event (", cpu.get("process") / 1e3 / events));
    boolean first = true;
    for (var e : cpu.entrySet()) {
      if (e.getKey().equals("process")
          || e.getKey().endsWith("-bytes")
          || e.getValue() / 1e3 / events < 0.5) {
        continue;
      }
      b.append(first ? "" : ", ")
          .append(e.getKey())
          .append(String.format(" %.0f", e.getValue() / 1e3 / events));
      first = false;
    }
    Long alloc = cpu.get("stream-alloc-bytes");
    if (alloc != null) {
      b.append(String.format("; stream thread allocates %.1f KB/event", alloc / 1024.0 / events));
    }
    return b.append(')').toString();
  }

  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return 0;
  }
}

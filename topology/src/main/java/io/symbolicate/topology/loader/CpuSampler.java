package io.symbolicate.topology.loader;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How many cores this process's threads other than the loads use, for {@link CpuBudget}: the
 * process's CPU time less what the loads report ({@link #loadCpu}), over the wall time between
 * two samples. One per JVM, shared by every load, with its own previous counters, so readers do
 * not shorten each other's windows; re-sampled at most every {@link #MIN_WINDOW_NANOS}, so each
 * window spans enough of the OS's 10 ms accounting ticks to mean something.
 */
final class ProcessCpuSampler {
  static final long MIN_WINDOW_NANOS = 200_000_000L;
  /** A window longer than this (no load looked for a while) says nothing about now: start afresh. */
  static final long STALE_WINDOW_NANOS = 1_000_000_000L;

  private static final ProcessCpuSampler SHARED = new ProcessCpuSampler(processCpuClock(), System::nanoTime);

  private final LongSupplier processCpuNanos;
  private final LongSupplier wallNanos;
  private final AtomicLong loadCpuNanos = new AtomicLong();
  private long lastWall;
  private long lastProcessCpu;
  private long lastLoadCpu;
  private double others = Double.NaN;

  /** {@code processCpuNanos} returns a negative value when the process's CPU time is unknown. */
  ProcessCpuSampler(LongSupplier processCpuNanos, LongSupplier wallNanos) {
    this.processCpuNanos = processCpuNanos;
    this.wallNanos = wallNanos;
    this.lastWall = wallNanos.getAsLong();
    this.lastProcessCpu = processCpuNanos.getAsLong();
  }

  static ProcessCpuSampler shared() {
    return SHARED;
  }

  /** A load's thread used {@code nanos} of CPU (each pacer reports its slices). */
  void loadCpu(long nanos) {
    loadCpuNanos.addAndGet(nanos);
  }

  /**
   * Cores the process's other threads used over the last complete window (at least
   * {@link #MIN_WINDOW_NANOS}); NaN until the first window is complete, after a pause longer than
   * {@link #STALE_WINDOW_NANOS} (the next window starts then), or when the process's CPU time is
   * unknown.
   */
  synchronized double othersCores() {
    long wall = wallNanos.getAsLong();
    long elapsed = wall - lastWall;
    if (elapsed < MIN_WINDOW_NANOS) {
      return others;
    }
    long cpu = processCpuNanos.getAsLong();
    long load = loadCpuNanos.get();
    others = cpu < 0 || lastProcessCpu < 0 || elapsed > STALE_WINDOW_NANOS ? Double.NaN
        : Math.max(0, (double) ((cpu - lastProcessCpu) - (load - lastLoadCpu)) / elapsed);
    lastWall = wall;
    lastProcessCpu = cpu;
    lastLoadCpu = load;
    return others;
  }

  private static LongSupplier processCpuClock() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun::getProcessCpuTime;
    }
    return () -> -1;
  }
}

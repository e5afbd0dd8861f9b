package io.symbolicate.topology.loader;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * Keeps one loader thread to a share of a core, so a big conversion leaves the stream threads
 * their CPU (Java cannot lower a thread's OS priority on Linux). After each slice of work the
 * thread sleeps in proportion to the CPU the slice took: {@code cpu * (1 - share) / share}.
 * A share of 1 or more never sleeps. One pacer per load, used by the thread doing the load.
 */
public final class LoadPacer {
  /** Sleeps; injected so the pacing logic is testable without clocks. */
  @FunctionalInterface
  public interface Sleeper {
    void sleepNanos(long nanos) throws InterruptedException;
  }

  /** Work measured before the pacer looks at the clock again (keeps sleeps few and long). */
  static final long SLICE_NANOS = 20_000_000L;

  private final double share;
  private final LongSupplier cpuNanos;
  private final Sleeper sleeper;
  private long sliceStart;
  private long sleptNanos;
  private long workNanos;

  public LoadPacer(double share, LongSupplier cpuNanos, Sleeper sleeper) {
    if (!(share > 0)) {
      throw new IllegalArgumentException("loader.cpu.share must be > 0, was " + share);
    }
    this.share = share;
    this.cpuNanos = cpuNanos;
    this.sleeper = sleeper;
    this.sliceStart = share >= 1 ? 0 : cpuNanos.getAsLong();
  }

  /** A pacer for the calling thread, measuring its CPU time (wall time where that is unsupported). */
  public static LoadPacer forCurrentThread(double share) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    LongSupplier clock = mx.isCurrentThreadCpuTimeSupported() ? mx::getCurrentThreadCpuTime : System::nanoTime;
    return new LoadPacer(share, clock, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
  }

  /** A pacer that never sleeps. */
  public static LoadPacer unpaced() {
    return new LoadPacer(1.0, () -> 0L, nanos -> { });
  }

  /** Called between pieces of work: sleeps once a slice of CPU has been used. */
  public void pace() throws InterruptedException {
    if (share >= 1) {
      return;
    }
    long now = cpuNanos.getAsLong();
    long used = now - sliceStart;
    if (used < SLICE_NANOS) {
      return;
    }
    long pause = (long) (used * (1 - share) / share);
    workNanos += used;
    sleptNanos += pause;
    sleeper.sleepNanos(pause);
    sliceStart = cpuNanos.getAsLong();
  }

  /** Total pause so far, for the load's log line. */
  public long sleptMillis() {
    return sleptNanos / 1_000_000;
  }

  /** CPU measured in completed slices so far. */
  public long workMillis() {
    return workNanos / 1_000_000;
  }

  public double share() {
    return share;
  }
}

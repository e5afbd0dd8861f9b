package io.symbolicate.connectors.loader;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Keeps one loader thread to a share of a core, so a big conversion leaves the stream threads
 * their CPU (Java cannot lower a thread's OS priority on Linux). After each slice of work the
 * thread sleeps in proportion to the CPU the slice took: {@code cpu * (1 - share) / share}.
 * A share of 1 or more never sleeps. The share is asked for after every slice, so it can follow
 * the process's load ({@link CpuBudget}). One pacer per load, used by the thread doing the load.
 */
public final class LoadPacer {
  /** Sleeps; injected so the pacing logic is testable without clocks. */
  @FunctionalInterface
  public interface Sleeper {
    void sleepNanos(long nanos) throws InterruptedException;
  }

  /** The share for the pause after a slice, given the CPU the slice used. */
  @FunctionalInterface
  interface ShareSource {
    double share(long usedCpuNanos);
  }

  /** Work measured before the pacer looks at the clock again (keeps sleeps few and long). */
  static final long SLICE_NANOS = 20_000_000L;

  private final ShareSource shares;
  private final boolean neverPaced;
  private final LongSupplier cpuNanos;
  private final Sleeper sleeper;
  private double share;
  private long sliceStart;
  private long sleptNanos;
  private long workNanos;
  private boolean finished;

  /** A pacer at a fixed share. */
  public LoadPacer(double share, LongSupplier cpuNanos, Sleeper sleeper) {
    this(checked(share), cpuNanos, sleeper, used -> share, share >= 1);
  }

  /**
   * A pacer whose share {@code shares} decides after every slice, starting at {@code initialShare};
   * a share that is not positive is taken as {@code initialShare}.
   */
  LoadPacer(ShareSource shares, double initialShare, LongSupplier cpuNanos, Sleeper sleeper) {
    this(
        checked(initialShare),
        cpuNanos,
        sleeper,
        used -> {
          double s = shares.share(used);
          return s > 0 ? s : initialShare;
        },
        false);
  }

  private LoadPacer(
      double share,
      LongSupplier cpuNanos,
      Sleeper sleeper,
      ShareSource shares,
      boolean neverPaced) {
    this.share = share;
    this.shares = shares;
    this.neverPaced = neverPaced;
    this.cpuNanos = cpuNanos;
    this.sleeper = sleeper;
    this.sliceStart = neverPaced ? 0 : cpuNanos.getAsLong();
  }

  private static double checked(double share) {
    if (!(share > 0)) {
      throw new IllegalArgumentException("loader.cpu.share must be > 0, was " + share);
    }
    return share;
  }

  /** A pacer for the calling thread, measuring its CPU time (wall time where that is unsupported). */
  public static LoadPacer forCurrentThread(double share) {
    return new LoadPacer(share, threadCpuClock(), LoadPacer::sleep);
  }

  /** An adaptive pacer for the calling thread. */
  static LoadPacer forCurrentThread(ShareSource shares, double initialShare) {
    return new LoadPacer(shares, initialShare, threadCpuClock(), LoadPacer::sleep);
  }

  private static LongSupplier threadCpuClock() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    return mx.isCurrentThreadCpuTimeSupported() ? mx::getCurrentThreadCpuTime : System::nanoTime;
  }

  private static void sleep(long nanos) throws InterruptedException {
    Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
  }

  /** A pacer that never sleeps. */
  public static LoadPacer unpaced() {
    return new LoadPacer(1.0, () -> 0L, nanos -> {});
  }

  /** Called between pieces of work: sleeps once a slice of CPU has been used. */
  public void pace() throws InterruptedException {
    if (neverPaced) {
      return;
    }
    long now = cpuNanos.getAsLong();
    long used = now - sliceStart;
    if (used < SLICE_NANOS) {
      return;
    }
    share = shares.share(used);
    workNanos += used;
    if (share < 1) {
      long pause = (long) (used * (1 - share) / share);
      sleptNanos += pause;
      sleeper.sleepNanos(pause);
    }
    sliceStart = cpuNanos.getAsLong();
  }

  /**
   * Ends the load: the CPU of the last, partial slice is counted too (no pause follows it).
   * Returns this pacer; calling it again changes nothing.
   */
  public LoadPacer finish() {
    if (!finished && !neverPaced) {
      finished = true;
      workNanos += Math.max(0, cpuNanos.getAsLong() - sliceStart);
    }
    return this;
  }

  /** Total pause so far, for the load's log line. */
  public long sleptMillis() {
    return sleptNanos / 1_000_000;
  }

  /** CPU measured in completed slices so far. */
  public long workMillis() {
    return workNanos / 1_000_000;
  }

  /** The share decided after the last slice (the initial share before any). */
  double share() {
    return share;
  }

  /**
   * The share of a core the load took so far, CPU over CPU plus pauses (1 before any pause), for
   * the load's log line.
   */
  public double effectiveShare() {
    return workNanos + sleptNanos == 0 ? 1.0 : (double) workNanos / (workNanos + sleptNanos);
  }

  /** {@link #effectiveShare()} with two decimals, for log lines. */
  public String effectiveShareText() {
    return String.format(Locale.ROOT, "%.2f", effectiveShare());
  }
}

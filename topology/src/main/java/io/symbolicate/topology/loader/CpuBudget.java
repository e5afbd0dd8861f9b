package io.symbolicate.topology.loader;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleSupplier;

/**
 * How much of a core one load may use: {@code busyShare} while the machine's cores are taken
 * (stream threads symbolicating), up to {@code idleShare} while they are free, so a big file
 * loads fast on an idle instance and slowly, out of the stream threads' way, on a busy one.
 * Each pacer asks again after every slice of work ({@link LoadPacer}); equal shares pace at a
 * fixed share.
 *
 * <p>"Free" is measured, not guessed: the machine's CPU load since the last look (the JVM's
 * {@code OperatingSystemMXBean.getCpuLoad}, which reads the container's quota and usage where
 * there is one), less what this load itself used, leaves the cores others use; what is left
 * after {@link #RESERVE_CORES} for their bursts is the share this load may take.
 *
 * @param busyShare share of a core a load may use while the cores are busy ({@code loader.cpu.share})
 * @param idleShare share a load may use while cores are idle ({@code loader.cpu.share.idle}); 1 or
 *     more: unpaced then
 */
public record CpuBudget(double busyShare, double idleShare) {
  /** Cores left free for the other threads' bursts before an idle load takes the rest. */
  public static final double RESERVE_CORES = 0.5;

  public CpuBudget {
    if (!(busyShare > 0) || Double.isInfinite(busyShare)) {
      throw new IllegalArgumentException("loader.cpu.share must be > 0, was " + busyShare);
    }
    if (!(idleShare >= busyShare) || Double.isInfinite(idleShare)) {
      throw new IllegalArgumentException("loader.cpu.share.idle must be >= loader.cpu.share (" + busyShare
          + "), was " + idleShare);
    }
  }

  /** One share whatever the machine is doing. */
  public static CpuBudget fixed(double share) {
    return new CpuBudget(share, share);
  }

  public boolean adaptive() {
    return idleShare > busyShare;
  }

  /** A pacer for the calling thread, measuring its CPU time and, if adaptive, the machine's load. */
  public LoadPacer pacerForCurrentThread() {
    if (!adaptive()) {
      return LoadPacer.forCurrentThread(busyShare);
    }
    DoubleSupplier load = machineLoad();
    load.getAsDouble(); // the first slice's reading then covers that slice, not the time since the last load
    return LoadPacer.forCurrentThread(shares(Runtime.getRuntime().availableProcessors(), load), busyShare);
  }

  /**
   * The share source of one pacer: after each slice, the share for the pause that follows, from
   * the machine's load (0..1 of {@code cores}, negative when unknown) over the time since the
   * previous slice and this load's CPU in that time.
   */
  LoadPacer.ShareSource shares(int cores, DoubleSupplier machineLoad) {
    return (usedNanos, elapsedNanos) -> share(cores, machineLoad.getAsDouble(),
        elapsedNanos <= 0 ? 0 : (double) usedNanos / elapsedNanos);
  }

  /** The share for a machine of {@code cores} at {@code load} (0..1) of which this load used {@code ownCores}. */
  double share(int cores, double load, double ownCores) {
    if (!(load >= 0)) {
      return busyShare; // unknown: stay out of the way
    }
    double others = Math.max(0, Math.min(1, load) * cores - ownCores);
    double free = cores - others - RESERVE_CORES;
    return Math.max(busyShare, Math.min(idleShare, free));
  }

  private static DoubleSupplier machineLoad() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun::getCpuLoad;
    }
    return () -> -1;
  }
}

package io.symbolicate.connectors.loader;

/**
 * How much of a core one load may use: {@code busyShare} while the cores are busy (stream
 * threads symbolicating, or other work on the machine), up to {@code idleShare} while cores are free, so a
 * big file loads fast on an idle instance and slowly, out of the stream threads' way, on a busy
 * one. Each pacer asks again after every slice of work ({@link LoadPacer}); equal shares pace at
 * a fixed share.
 *
 * <p>"Free" is measured, not guessed ({@link CpuSampler}, one per JVM, over the last ~200 ms):
 * of the process's cores ({@code availableProcessors}, which follows a container's quota), those
 * its other threads left (its CPU time less what the loads used), and no more than the machine's
 * other work left of the machine's cores ({@code /proc/stat}; only when the process may use all
 * of them, not under a container's quota), so a broker or another instance on the same machine
 * counts as busy too. What is free beyond {@link #RESERVE_CORES} is the
 * share a load may take.
 *
 * @param busyShare share of a core a load may use while the cores are busy ({@code loader.cpu.share})
 * @param idleShare share a load may use while cores are free ({@code loader.cpu.share.idle}); a
 *     load never takes more than one core (one thread), so 1 or more means unpaced then
 */
public record CpuBudget(double busyShare, double idleShare) {
  /** Cores left free for the other threads' bursts before an idle load takes the rest. */
  public static final double RESERVE_CORES = 0.5;

  public CpuBudget {
    if (!(busyShare > 0) || Double.isInfinite(busyShare)) {
      throw new IllegalArgumentException("loader.cpu.share must be > 0, was " + busyShare);
    }
    if (!(idleShare >= busyShare) || Double.isInfinite(idleShare)) {
      throw new IllegalArgumentException(
          "loader.cpu.share.idle must be >= loader.cpu.share ("
              + busyShare
              + "), was "
              + idleShare);
    }
  }

  /** One share whatever the machine is doing. */
  public static CpuBudget fixed(double share) {
    return new CpuBudget(share, share);
  }

  /** Whether the share follows the cores' use (a busy share of 1 or more is unpaced anyway). */
  public boolean adaptive() {
    return idleShare > busyShare && busyShare < 1;
  }

  /** A pacer for the calling thread, measuring its CPU time and, if adaptive, the process's. */
  public LoadPacer pacerForCurrentThread() {
    if (!adaptive()) {
      return LoadPacer.forCurrentThread(busyShare);
    }
    return LoadPacer.forCurrentThread(
        shares(Runtime.getRuntime().availableProcessors(), CpuSampler.shared()), busyShare);
  }

  /**
   * The share source of one pacer: after each slice it reports the slice's CPU to the sampler
   * (so it is not counted as the others' use) and takes the share for the pause that follows.
   */
  LoadPacer.ShareSource shares(int cores, CpuSampler sampler) {
    return usedNanos -> {
      sampler.loadCpu(usedNanos);
      return shareOfFree(sampler.freeCores(cores));
    };
  }

  /** The share on {@code cores} cores of which the other threads use {@code othersCores} (NaN: unknown). */
  double share(int cores, double othersCores) {
    return othersCores >= 0 ? shareOfFree(cores - othersCores) : busyShare;
  }

  /** The share when {@code freeCores} are free (NaN: unknown). */
  double shareOfFree(double freeCores) {
    if (Double.isNaN(freeCores)) {
      return busyShare; // unknown: stay out of the way
    }
    return Math.max(busyShare, Math.min(Math.min(idleShare, 1.0), freeCores - RESERVE_CORES));
  }
}

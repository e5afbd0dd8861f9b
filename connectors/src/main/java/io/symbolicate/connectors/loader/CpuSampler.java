package io.symbolicate.connectors.loader;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How many cores are free for the loads, for {@link CpuBudget}, seen two ways over the same
 * window: this process's CPU time less what the loads report ({@link #loadCpu}) is what its
 * other threads use of the process's cores; the machine's busy time ({@code /proc/stat} on
 * Linux) less the loads' is what everything else on the machine uses of its cores, a broker or
 * another instance beside this one included. The free cores are the fewer of the two. The
 * machine view counts only when the process may use every core of the machine: under a CPU
 * quota or cpuset (a container), {@code availableProcessors} is below the host's count that
 * {@code /proc/stat} shows, the neighbours' load is the scheduler's business, and the process
 * view alone decides.
 *
 * <p>One per JVM, shared by every load, with its own previous counters, so readers do not
 * shorten each other's windows; re-sampled at most every {@link #MIN_WINDOW_NANOS}, so each
 * window spans enough of the OS's 10 ms accounting ticks to mean something.
 */
final class CpuSampler {
  static final long MIN_WINDOW_NANOS = 200_000_000L;

  /** A window longer than this (no load looked for a while) says nothing about now: start afresh. */
  static final long STALE_WINDOW_NANOS = 1_000_000_000L;

  private static final Path PROC_STAT = Path.of("/proc/stat");
  private static final CpuSampler SHARED =
      new CpuSampler(
          processCpuClock(),
          () -> machineBusyTicks(PROC_STAT),
          machineCores(PROC_STAT),
          System::nanoTime);

  private final LongSupplier processCpuNanos;
  private final LongSupplier machineBusyTicks;
  private final int machineCores;
  private final LongSupplier wallNanos;
  private final AtomicLong loadCpuNanos = new AtomicLong();
  private long lastWall;
  private long lastProcessCpu;
  private long lastMachineBusy;
  private long lastLoadCpu;
  private double others = Double.NaN;
  private double machineOthers = Double.NaN;

  /**
   * @param processCpuNanos the process's CPU time; negative when unknown
   * @param machineBusyTicks CPU time all the machine's cores spent busy, in /proc/stat's ticks
   *     ({@link #TICK_NANOS}); negative when unknown
   * @param machineCores the machine's cores; not positive when unknown
   */
  CpuSampler(
      LongSupplier processCpuNanos,
      LongSupplier machineBusyTicks,
      int machineCores,
      LongSupplier wallNanos) {
    this.processCpuNanos = processCpuNanos;
    this.machineBusyTicks = machineBusyTicks;
    this.machineCores = machineCores;
    this.wallNanos = wallNanos;
    this.lastWall = wallNanos.getAsLong();
    this.lastProcessCpu = processCpuNanos.getAsLong();
    this.lastMachineBusy = machineBusyTicks.getAsLong();
  }

  static CpuSampler shared() {
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
    sample();
    return others;
  }

  /** Cores everything on the machine but the loads used over the same window; NaN when unknown. */
  synchronized double machineOthersCores() {
    sample();
    return machineOthers;
  }

  /**
   * Cores free for the loads: of the process's {@code cores}, those its other threads left, and,
   * when those are all the machine's cores, no more than the machine's other work left. NaN when
   * the process's use is unknown; the process view alone when the machine's is unknown or the
   * process is limited to fewer cores than the machine has.
   */
  synchronized double freeCores(int cores) {
    sample();
    if (!(others >= 0)) {
      return Double.NaN;
    }
    double free = cores - others;
    if (machineOthers >= 0 && machineCores > 0 && cores >= machineCores) {
      free = Math.min(free, machineCores - machineOthers);
    }
    return free;
  }

  private void sample() {
    long wall = wallNanos.getAsLong();
    long elapsed = wall - lastWall;
    if (elapsed < MIN_WINDOW_NANOS) {
      return;
    }
    long cpu = processCpuNanos.getAsLong();
    long busy = machineBusyTicks.getAsLong();
    long load = loadCpuNanos.get();
    long loads = load - lastLoadCpu;
    boolean stale = elapsed > STALE_WINDOW_NANOS;
    others =
        cpu < 0 || lastProcessCpu < 0 || stale
            ? Double.NaN
            : Math.max(0, (double) ((cpu - lastProcessCpu) - loads) / elapsed);
    machineOthers =
        busy < 0 || lastMachineBusy < 0 || stale
            ? Double.NaN
            : Math.max(0, (double) ((busy - lastMachineBusy) * TICK_NANOS - loads) / elapsed);
    lastWall = wall;
    lastProcessCpu = cpu;
    lastMachineBusy = busy;
    lastLoadCpu = load;
  }

  private static LongSupplier processCpuClock() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof OperatingSystemMXBean sun) {
      return sun::getProcessCpuTime;
    }
    return () -> -1;
  }

  /** Linux's clock ticks per second for /proc/stat (USER_HZ, 100 on every Linux ABI in use). */
  static final long TICK_NANOS = 10_000_000L;

  /**
   * The busy time of all the machine's cores, in ticks, from the first line of {@code stat}
   * ("cpu user nice system idle iowait irq softirq steal ..."): all but idle and iowait, steal
   * included (time the hypervisor gave to others is not free). -1 when unreadable.
   */
  static long machineBusyTicks(Path stat) {
    try {
      String first;
      try (var r = Files.newBufferedReader(stat, StandardCharsets.US_ASCII)) {
        first = r.readLine();
      }
      return parseBusyTicks(first);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static long parseBusyTicks(String cpuLine) {
    if (cpuLine == null || !cpuLine.startsWith("cpu ")) {
      return -1;
    }
    String[] f = cpuLine.substring(4).trim().split("\\s+");
    if (f.length < 8) {
      return -1;
    }
    long busy = 0;
    for (int i = 0; i < 8; i++) {
      if (i == 3 || i == 4) {
        continue; // idle, iowait
      }
      busy += Long.parseLong(f[i]);
    }
    return busy;
  }

  /** The machine's cores: the "cpuN" lines of {@code stat}; -1 when unreadable. */
  static int machineCores(Path stat) {
    try (var lines = Files.lines(stat, StandardCharsets.US_ASCII)) {
      int n =
          (int)
              lines
                  .filter(
                      l -> l.length() > 3 && l.startsWith("cpu") && Character.isDigit(l.charAt(3)))
                  .count();
      return n > 0 ? n : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}

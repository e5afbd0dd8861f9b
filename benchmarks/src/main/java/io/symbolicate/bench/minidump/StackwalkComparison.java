package io.symbolicate.bench.minidump;

import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ModuleSymbols;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per dump, Breakpad's {@code minidump_stackwalk -m DUMP SYMBOLS} process against our walk of
 * the same dump with the same symbols and warm tables (read from bytes, walked, symbolicated,
 * printed as {@code -m}), in the same run: each round runs the process once, then our walk for
 * a while (after every case's walk was warmed up); the figures are the medians of the rounds. Both outputs must be equal, else the
 * figure is flagged. Beside wall time, CPU time: the process's (this JVM's reaped children's
 * user + system time from /proc/self/stat, 10 ms ticks) and our walking thread's, which is what
 * a loaded machine leaves comparable.
 */
public final class StackwalkComparison {
  /** One dump and its symbol directory. */
  public record Case(String name, Path dump, Path symbols) {}

  public record Options(
      Path tool, List<Case> cases, int rounds, long roundMillis, long warmupMillis) {}

  /** What one case measured. */
  public record Result(
      String name,
      int frames,
      double breakpadMillis,
      double oursMicros,
      double breakpadCpuMillis,
      double oursCpuMicros,
      boolean sameOutput) {
    double ratio() {
      return breakpadMillis * 1000 / oursMicros;
    }

    double cpuRatio() {
      return breakpadCpuMillis * 1000 / oursCpuMicros;
    }
  }

  private final Options options;
  private final PrintStream out;

  public StackwalkComparison(Options options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public List<Result> run() throws IOException, InterruptedException, MinidumpException {
    out.printf(
        "tool: %s; %d rounds a case, %d ms of our walks a round after %d ms of warm-up; load average %s%n",
        options.tool(),
        options.rounds(),
        options.roundMillis(),
        options.warmupMillis(),
        loadAverage());
    out.printf(
        "%-16s %7s %12s %12s %9s %12s %12s %9s  %s%n",
        "dump",
        "frames",
        "breakpad ms",
        "ours us",
        "ratio",
        "bp cpu ms",
        "ours cpu us",
        "cpu ratio",
        "same -m");
    // every case's walk is warmed up before any is measured, so the JIT has seen them all
    List<Prepared> prepared = new ArrayList<>();
    for (Case c : options.cases()) {
      prepared.add(prepare(c));
    }
    for (Prepared p : prepared) {
      long until = System.nanoTime() + options.warmupMillis() * 1_000_000;
      while (System.nanoTime() < until) {
        walk(p.processor(), p.bytes());
      }
    }
    List<Result> results = new ArrayList<>();
    for (Prepared p : prepared) {
      Result r = measure(p);
      results.add(r);
      out.printf(
          "%-16s %7d %12.2f %12.1f %8.0fx %12.1f %12.1f %8.0fx  %s%n",
          r.name(),
          r.frames(),
          r.breakpadMillis(),
          r.oursMicros(),
          r.ratio(),
          r.breakpadCpuMillis(),
          r.oursCpuMicros(),
          r.cpuRatio(),
          r.sameOutput() ? "yes" : "NO");
    }
    double[] ratios = results.stream().mapToDouble(Result::ratio).sorted().toArray();
    double[] cpu = results.stream().mapToDouble(Result::cpuRatio).sorted().toArray();
    out.printf(
        "wall ratios: min %.0fx, median %.0fx, max %.0fx; CPU ratios: min %.0fx, median %.0fx, max %.0fx;"
            + " load average %s%n",
        ratios[0],
        median(ratios),
        ratios[ratios.length - 1],
        cpu[0],
        median(cpu),
        cpu[cpu.length - 1],
        loadAverage());
    return results;
  }

  /** A case's dump in memory, and a processor whose tables are converted and cached. */
  private record Prepared(Case c, byte[] bytes, MinidumpProcessor processor, String ours) {}

  private static Prepared prepare(Case c) throws IOException, MinidumpException {
    byte[] bytes = Files.readAllBytes(c.dump());
    SymbolDirectory dir = new SymbolDirectory(c.symbols());
    Map<String, ModuleSymbols> warm = new HashMap<>();
    MinidumpProcessor processor =
        new MinidumpProcessor(m -> warm.computeIfAbsent(m.codeFile(), k -> dir.find(m)));
    return new Prepared(
        c, bytes, processor, MachineReadableWriter.write(processor.process(Minidump.read(bytes))));
  }

  private Result measure(Prepared p) throws IOException, InterruptedException, MinidumpException {
    Case c = p.c();
    byte[] bytes = p.bytes();
    MinidumpProcessor processor = p.processor();
    String ours = p.ours();
    int frames =
        (int) ours.lines().filter(l -> !l.isEmpty() && Character.isDigit(l.charAt(0))).count();
    double[] breakpad = new double[options.rounds()];
    double[] mine = new double[options.rounds()];
    double[] breakpadCpu = new double[options.rounds()];
    double[] mineCpu = new double[options.rounds()];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    String theirs = null;
    for (int r = 0; r < options.rounds(); r++) {
      long c0 = childrenCpuTicks();
      long t0 = System.nanoTime();
      theirs = stackwalk(c);
      breakpad[r] = (System.nanoTime() - t0) / 1e6;
      breakpadCpu[r] = (childrenCpuTicks() - c0) * 10.0;
      long cpu0 = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      long end = start + options.roundMillis() * 1_000_000;
      int n = 0;
      long now;
      do {
        walk(processor, bytes);
        n++;
        now = System.nanoTime();
      } while (now < end);
      mine[r] = (now - start) / 1e3 / n;
      mineCpu[r] = (threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
    }
    return new Result(
        c.name(),
        frames,
        median(breakpad),
        median(mine),
        median(breakpadCpu),
        median(mineCpu),
        ours.equals(theirs));
  }

  private static int walk(MinidumpProcessor processor, byte[] bytes) throws MinidumpException {
    return MachineReadableWriter.write(processor.process(Minidump.read(bytes))).length();
  }

  private String stackwalk(Case c) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                options.tool().toString(), "-m", c.dump().toString(), c.symbols().toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    byte[] stdout = p.getInputStream().readAllBytes();
    int rc = p.waitFor();
    if (rc != 0) {
      throw new IOException(options.tool() + " failed on " + c.dump() + " (exit " + rc + ")");
    }
    return new String(stdout, StandardCharsets.UTF_8);
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** User + system time of this JVM's reaped children, in 10 ms ticks (-1 where /proc is not). */
  static long childrenCpuTicks() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[13]) + Long.parseLong(f[14]); // cutime, cstime (fields 16 and 17)
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }
}

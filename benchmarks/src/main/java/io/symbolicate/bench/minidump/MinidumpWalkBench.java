package io.symbolicate.bench.minidump;

import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ModuleSymbols;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading, walking and symbolicating one minidump with warm tables (converted and decoded at
 * setup), then printing Breakpad's {@code -m} output: what a dump costs once its modules' tables
 * are cached. {@code generated} is {@link SyntheticDump}: one 30-frame stack over 12 modules,
 * every caller found by STACK CFI (the throughput case, target 20,000 walks/s on one
 * thread); the others are cases of the generated corpus
 * ({@code ../shared/bench/minidumps.sh ../bench-data/minidump}). The comparison with Breakpad's
 * {@code minidump_stackwalk} process is {@code ./symbolicator bench stackwalk}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar MinidumpWalkBench -p dump=generated -f 2 -wi 3 -i 5 -w 2 -r 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class MinidumpWalkBench {
  @Param({"../bench-data/minidump"})
  public String corpus;

  @Param({"generated", "cpp_templates", "deep_recursion", "nosyms_scan"})
  public String dump;

  private byte[] bytes;
  private final Map<String, ModuleSymbols> warm = new HashMap<>();
  private MinidumpProcessor processor;

  @Setup(Level.Trial)
  public void load() throws IOException, MinidumpException {
    if (dump.equals("generated")) {
      bytes = SyntheticDump.dump();
      SymbolSupplier symbols = SyntheticDump.symbols();
      processor =
          new MinidumpProcessor(m -> warm.computeIfAbsent(m.codeFile(), k -> symbols.find(m)));
    } else {
      Path dir = Paths.get(corpus);
      bytes = Files.readAllBytes(dir.resolve(dump + ".dmp"));
      SymbolDirectory symbols = new SymbolDirectory(dir.resolve("symbols"));
      processor =
          new MinidumpProcessor(m -> warm.computeIfAbsent(m.codeFile(), k -> symbols.find(m)));
    }
    ProcessState s = processor.process(Minidump.read(bytes));
    int frames = s.threads().stream().mapToInt(t -> t.frames().size()).sum();
    System.out.printf(
        "%n[minidump] %s: %d bytes, %d threads, %d frames, %d modules, %d with symbols%n",
        dump,
        bytes.length,
        s.threads().size(),
        frames,
        s.modules().size(),
        warm.values().stream().filter(v -> v != null).count());
  }

  @Benchmark
  public int walk() throws MinidumpException {
    ProcessState s = processor.process(Minidump.read(bytes));
    return MachineReadableWriter.write(s).length();
  }
}

package io.symbolicate.bench.jvm;

import io.symbolicate.symbols.jvm.FrameResult;
import io.symbolicate.symbols.jvm.JvmPages;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.jvm.JvmTableBuilder;
import io.symbolicate.symbols.jvm.JvmTableFile;
import io.symbolicate.symbols.jvm.MappingParser;
import io.symbolicate.symbols.jvm.Retracer;
import io.symbolicate.symbols.jvm.StackTraceLine;
import io.symbolicate.symbols.jvm.TraceRetracer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JVM retrace on the real benchmark input (../shared/bench/jvm-mapping.sh: ProGuard 7.4 mapping
 * of guava, commons, jackson, kotlin-stdlib and scala-library; 10,000 traces x 30 frames).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar 'jvm.JvmRetraceBenchmark' -f 1 -wi 3 -i 5
 * </pre>
 *
 * {@code retraceTraces} and {@code retraceFrames} report frames per second (one operation = one
 * input frame); {@code parseAndBuild} is the time to turn mapping.txt into the compact table.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class JvmRetraceBenchmark {
  /** Frame lines in the default traces.txt; the frames/s figures assume it. */
  static final int FRAMES = 300_000;

  @Param("../bench-data/jvm/mapping.txt")
  public String mapping;

  @Param("../bench-data/jvm/traces.txt")
  public String traces;

  private byte[] mappingBytes;
  private Retracer retracer;
  private String traceText;
  private String[] classes;
  private String[] methods;
  private int[] lines;

  @Setup
  public void setup() throws IOException {
    mappingBytes = Files.readAllBytes(Path.of(mapping));
    JvmTable table = JvmPages.fromMapping(mappingBytes);
    retracer = Retracer.inMemory(table);
    traceText = Files.readString(Path.of(traces));
    List<StackTraceLine.Frame> frames = new ArrayList<>();
    for (String l : traceText.split("\n")) {
      StackTraceLine.Frame f = StackTraceLine.parseFrame(l);
      if (f != null) {
        frames.add(f);
      }
    }
    if (frames.size() != FRAMES) {
      throw new IllegalStateException(
          "expected "
              + FRAMES
              + " frames in "
              + traces
              + ", found "
              + frames.size()
              + ": the frames/s figures would be wrong");
    }
    classes = new String[FRAMES];
    methods = new String[FRAMES];
    lines = new int[FRAMES];
    for (int i = 0; i < FRAMES; i++) {
      classes[i] = frames.get(i).className();
      methods[i] = frames.get(i).method();
      lines[i] = frames.get(i).line();
    }
    long fileBytes = JvmTableFile.toBytes(table).length;
    System.out.printf(
        "%n[jvm] mapping %,d bytes -> table %,d bytes (%.1f%%), %d pages, header %d bytes%n",
        mappingBytes.length,
        fileBytes,
        100.0 * fileBytes / mappingBytes.length,
        table.pages().size(),
        table.header().length);
  }

  /** Mapping bytes to the compact table (parse + resolve + page encoding). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public JvmTable parseAndBuild() {
    return JvmTableBuilder.build(MappingParser.parse(mappingBytes));
  }

  /** The whole text of traces.txt retraced as R8 prints it (parsing and formatting included). */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(FRAMES)
  public String retraceTraces() {
    return new TraceRetracer(retracer, TraceRetracer.Style.R8).retrace(traceText);
  }

  /** Frame API only: (class, method, line) to original frames, no text handling. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(FRAMES)
  public int retraceFrames() {
    int n = 0;
    for (int i = 0; i < FRAMES; i++) {
      FrameResult r = retracer.retrace(classes[i], methods[i], lines[i]);
      n += r.frames().size();
    }
    return n;
  }
}

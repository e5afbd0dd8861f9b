package io.symbolicate.bench.nativecode;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.store.StoreSymbolLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbolication.store.SymbolStore;
import io.symbolicate.symbols.sources.SourceFile;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.testkit.events.BenchEvents;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
 * What source context adds to the stream thread's work per native event (issue 46's target: at
 * most 20%): {@link SymbolicateEventBench}'s warm 30-frame events over 8 synthetic modules of
 * 20,000 FUNCs, each module's table carrying the sources of all its 16 files (2,000 lines of ~60
 * chars each), so that every symbolicated frame (and inlined frame) gets context. {@code
 * contextLines=0} is the same step with context off: the ratio of the two scores is the cost.
 * Decode, the modules' states, lookups and context from pages through the shared page cache,
 * encode.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SourceContextBench -f 1 -wi 3 -i 5 -w 2 -r 2 \
 *   -rf json -rff /tmp/source-context.json
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx512m", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.symbolicate.schema"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SourceContextBench {
  private static final int EVENTS = 1 << 12;
  private static final int MODULES = 8;
  private static final int FUNCTIONS = 20_000;

  @Param({"0", "5"})
  public int contextLines;

  private final AvroSerde<CrashEvent> in = WireSerdes.crashEvent();
  private final AvroSerde<SymbolicatedEvent> out = WireSerdes.symbolicatedEvent();
  private NativeSymbolicator step;
  private SymbolStore store;
  private SymbolLookup lookup;
  private byte[][] events;
  private int next;

  /** The 16 files of a synthetic module, each 2,000 lines. */
  static List<SourceFile> sources(int module) {
    List<SourceFile> files = new ArrayList<>();
    for (int f = 0; f < 16; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 1; l <= 2000; l++) {
        text.append("  int value_")
            .append(l)
            .append(" = compute(module")
            .append(module)
            .append(", file")
            .append(f)
            .append(", line, ")
            .append(l)
            .append(");\n");
      }
      String path = "src/bench/module" + module + "/file" + f + ".cc";
      files.add(new SourceFile("files/" + path, "source", path, null, null, text.toString()));
    }
    return files;
  }

  @Setup(Level.Trial)
  public void load() throws IOException {
    step = new NativeSymbolicator(contextLines);
    store =
        SyntheticSymbolStore.of(
            MODULES,
            FUNCTIONS,
            (m, t) ->
                t.withSources(SourcePages.pages(sources(m), Long.MAX_VALUE, new ArrayList<>())));
    lookup = new StoreSymbolLookup(store);
    BenchEvents gen = new BenchEvents(MODULES, FUNCTIONS, null);
    Random rnd = new Random(42);
    events = new byte[EVENTS][];
    for (int i = 0; i < EVENTS; i++) {
      events[i] = in.encode(gen.event(i, rnd));
    }
    // every page decoded once (warm bundles), and context really there when asked for
    long withContext = 0;
    for (byte[] e : events) {
      withContext +=
          symbolicated(e).getStacks().stream()
              .flatMap(s -> s.getFrames().stream())
              .filter(f -> f.getContextLine() != null)
              .count();
    }
    if ((contextLines > 0) != (withContext > 0)) {
      throw new IllegalStateException("frames with context: " + withContext);
    }
  }

  private SymbolicatedEvent symbolicated(byte[] raw) throws IOException {
    CrashEvent e = in.decode(raw);
    for (ModuleRef ref : step.modulesNeeded(e)) {
      if (store.state(ref) == null) {
        throw new IllegalStateException("not in the store: " + ref);
      }
    }
    return step.symbolicate(e, lookup, System.currentTimeMillis());
  }

  private byte[] nextEvent() {
    byte[] e = events[next];
    next = (next + 1) & (EVENTS - 1);
    return e;
  }

  /** Decode, the modules' states, lookups (and context), encode. */
  @Benchmark
  public int symbolicate() throws IOException {
    return out.encode(symbolicated(nextEvent())).length;
  }

  /** {@link #symbolicate} without encoding: what the context costs before its bytes are written. */
  @Benchmark
  public SymbolicatedEvent symbolicateNoEncode() throws IOException {
    return symbolicated(nextEvent());
  }
}

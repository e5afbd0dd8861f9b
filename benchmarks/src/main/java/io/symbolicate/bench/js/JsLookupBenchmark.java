package io.symbolicate.bench.js;

import io.symbolicate.symbols.js.JsLocation;
import io.symbolicate.symbols.js.JsSymbolizer;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMapParser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Lookups per second, one thread: the million positions of {@code <map>.lookups.tsv} against the
 * compact table with all pages decoded in memory (floor page + binary search + result object).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class JsLookupBenchmark {
  static final int N = 1_000_000;

  @Param({"typescript", "three"})
  public String map;

  /** Segments per mapping page (the table's default is JsTableBuilder.SEGMENTS_PER_PAGE). */
  @Param({"16384"})
  public int segmentsPerPage;

  private JsSymbolizer symbolizer;
  private int[] lines;
  private int[] cols;

  @Setup
  public void setup() throws Exception {
    symbolizer =
        JsSymbolizer.inMemory(
            new JsTableBuilder(segmentsPerPage)
                .build(new SourceMapParser().parse(JsBenchInputs.map(map))));
    int[][] l = JsBenchInputs.lookups(map);
    if (l[0].length != N) {
      throw new IllegalStateException("expected " + N + " lookups, found " + l[0].length);
    }
    lines = l[0];
    cols = l[1];
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public void lookupAll(Blackhole bh) {
    JsSymbolizer s = symbolizer;
    int[] ls = lines;
    int[] cs = cols;
    for (int i = 0; i < ls.length; i++) {
      JsLocation loc = s.lookup(ls[i], cs[i]);
      bh.consume(loc);
    }
  }
}

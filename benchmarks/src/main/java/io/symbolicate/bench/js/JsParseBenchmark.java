package io.symbolicate.bench.js;

import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMap;
import io.symbolicate.symbols.js.SourceMapParser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sourcemap parse time (JSON + VLQ decode + validation, bytes already in memory) and the
 * conversion to the compact table, on the real maps from ../shared/bench/js-maps.sh.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class JsParseBenchmark {
  @Param({"typescript", "three"})
  public String map;

  private byte[] bytes;
  private SourceMap parsed;
  private final SourceMapParser parser = new SourceMapParser();

  @Setup
  public void setup() throws Exception {
    bytes = JsBenchInputs.map(map);
    parsed = parser.parse(bytes);
  }

  @Benchmark
  public SourceMap parse() throws Exception {
    return parser.parse(bytes);
  }

  @Benchmark
  public JsTable buildTable() {
    return new JsTableBuilder().build(parsed);
  }
}

package io.symbolicate.bench.nativecode;

import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.avro.util.Utf8;
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
 * The stream's native lookups, one stack at a time: stacks of 30 frames at random addresses
 * across the pipeline benchmark's warm modules (8 synthetic modules of 20,000 FUNCs, pages
 * decoded as the stream's cache holds them), each stack looked up as one {@link
 * NativePage#lookupAll} batch, with a sink that reads every answer's strings as the output
 * encoder does. Time per stack; divide by 30 for a frame. The pages (~tens of MB) do not fit the
 * CPU caches, so this measures mostly how well the batch overlaps its cache misses.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar NativeStackLookupBench -f 3 -wi 3 -i 5 -w 2 -r 2
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class NativeStackLookupBench {
  private static final int FRAMES = 30;
  private static final int STACKS = 1 << 14;

  @Param({"8"})
  public int modules;

  @Param({"20000"})
  public int functions;

  private NativePage[][] pagesOf; // per module, sorted by first key
  private long[][] firstKeys;
  private int[] stackModule;
  private long[] stackAddress;
  private int next;

  private final NativePage[] pages = new NativePage[FRAMES];
  private final long[] addresses = new long[FRAMES];
  private final int[] segments = new int[FRAMES];
  private final ReadingSink sink = new ReadingSink();

  @Setup(Level.Trial)
  public void load() throws IOException {
    pagesOf = new NativePage[modules][];
    firstKeys = new long[modules][];
    for (int m = 0; m < modules; m++) {
      NativeTable t =
          NativeSymbols.convert(
              new ByteArrayInputStream(SyntheticSymFile.sym(m, functions)),
              NativeSymbols.Options.defaults());
      List<TablePage> encoded = t.pages();
      pagesOf[m] = new NativePage[encoded.size()];
      firstKeys[m] = new long[encoded.size()];
      for (int i = 0; i < encoded.size(); i++) {
        // as the stream's page cache holds them: without the per-segment answer memo
        pagesOf[m][i] = NativePage.decode(encoded.get(i).bytes(), false);
        firstKeys[m][i] = encoded.get(i).firstKey();
      }
    }
    // the pipeline benchmark's stacks: a random module, FUNC and offset per frame; caller
    // frames (all but the first) looked up one byte back, as amd64's caller adjustment does
    Random rnd = new Random(42);
    stackModule = new int[STACKS * FRAMES];
    stackAddress = new long[STACKS * FRAMES];
    for (int i = 0; i < stackModule.length; i++) {
      stackModule[i] = rnd.nextInt(modules);
      long offset =
          0x1000L
              + (long) rnd.nextInt(functions) * SyntheticSymFile.FUNC_SIZE
              + rnd.nextInt(SyntheticSymFile.FUNC_SIZE);
      stackAddress[i] = i % FRAMES == 0 ? offset : offset - 1;
    }
  }

  private NativePage page(int module, long address) {
    long[] keys = firstKeys[module];
    int i = keys.length - 1;
    while (i >= 0 && Long.compareUnsigned(keys[i], address) > 0) {
      i--;
    }
    return i < 0 ? null : pagesOf[module][i];
  }

  @Benchmark
  public long stack() {
    int at = next * FRAMES;
    next = (next + 1) & (STACKS - 1);
    for (int k = 0; k < FRAMES; k++) {
      addresses[k] = stackAddress[at + k];
      pages[k] = page(stackModule[at + k], addresses[k]);
    }
    sink.bytes = 0;
    NativePage.lookupAll(pages, addresses, FRAMES, sink, segments);
    return sink.bytes;
  }

  /** Reads what the output encoder reads: each name and file as UTF-8, and the numbers. */
  static final class ReadingSink implements NativePage.AnswerSink {
    long bytes;

    @Override
    public void nothing(int k) {
      bytes++;
    }

    @Override
    public void inlined(
        int k, CharSequence function, long functionBase, CharSequence file, int line) {
      read(function, functionBase, file, line);
    }

    @Override
    public void frame(
        int k, CharSequence function, long functionBase, CharSequence file, int line) {
      read(function, functionBase, file, line);
    }

    private void read(CharSequence function, long functionBase, CharSequence file, int line) {
      bytes += copy(function) + functionBase + line;
      if (file != null) {
        bytes += copy(file);
      }
    }

    private final byte[] scratch = new byte[1 << 16];

    /** Copies the UTF-8 bytes as the encoder does: as they are from a page's names, else encoded. */
    private int copy(CharSequence s) {
      if (s instanceof Utf8 u) {
        int n = Math.min(u.getByteLength(), scratch.length);
        System.arraycopy(u.getBytes(), 0, scratch, 0, n);
        return n;
      }
      return s.toString().getBytes(StandardCharsets.UTF_8).length;
    }
  }
}

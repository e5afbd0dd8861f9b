package io.symbolicate.bench.nativecode;

import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.signature.EventSigner;
import io.symbolicate.symbolication.store.StoreSymbolLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbolication.store.SymbolStore;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.testkit.events.BenchEvents;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.utils.ByteBufferOutputStream;
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
 * The stream thread's own work per native event, without Kafka: the pipeline benchmark's warm
 * events (30 frames over 8 synthetic modules of 20,000 FUNCs) decoded, their modules checked in
 * the symbol store, symbolicated from decoded pages through the shared page cache, and the
 * output encoded; against the pass-through's work on the same events (decode, wrap, encode).
 * The store reads an in-memory map instead of RocksDB: warm pages never reach RocksDB. The
 * ratio {@code passThrough / symbolicate} is the share of the pass-through's rate that the
 * symbolicator's stream thread could reach if Kafka's own per-record work were free; the
 * {@code *Compressed} pair adds the one per-record cost of Kafka's that grows with the output,
 * the producer's compression, which runs on the stream thread (in native code: profiles of
 * Java samples do not show it).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SymbolicateEventBench -f 3 -wi 3 -i 5 -w 2 -r 2
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
public class SymbolicateEventBench {
  private static final int EVENTS = 1 << 12;

  @Param({"8"})
  public int modules;

  @Param({"20000"})
  public int functions;

  private final AvroSerde<CrashEvent> in = WireSerdes.crashEvent();
  private final AvroSerde<SymbolicatedEvent> out = WireSerdes.symbolicatedEvent();
  private final NativeSymbolicator step = new NativeSymbolicator();
  private final EventSigner signer = new EventSigner(SignatureLists.defaults());
  private SymbolStore store;
  private SymbolLookup lookup;
  private byte[][] events;
  private int next;

  @Setup(Level.Trial)
  public void load() throws IOException {
    store = SyntheticSymbolStore.of(modules, functions, (m, t) -> t);
    lookup = new StoreSymbolLookup(store);
    BenchEvents gen = new BenchEvents(modules, functions, null);
    Random rnd = new Random(42);
    events = new byte[EVENTS][];
    for (int i = 0; i < EVENTS; i++) {
      events[i] = in.encode(gen.event(i, rnd));
    }
    // every page decoded once, as in the pipeline's warm rounds
    for (byte[] e : events) {
      symbolicate(e);
    }
  }

  private byte[] nextEvent() {
    byte[] e = events[next];
    next = (next + 1) & (EVENTS - 1);
    return e;
  }

  /** Decode, the modules' states (the parking step's readiness check), lookups, encode. */
  @Benchmark
  public int symbolicate() throws IOException {
    return symbolicate(nextEvent());
  }

  private int symbolicate(byte[] raw) throws IOException {
    return out.encode(symbolicated(raw)).length;
  }

  /** Decode, the modules' states (the parking step's readiness check), lookups. */
  private SymbolicatedEvent symbolicated(byte[] raw) throws IOException {
    CrashEvent e = in.decode(raw);
    long now = System.currentTimeMillis();
    for (ModuleRef ref : step.modulesNeeded(e)) {
      if (store.state(ref) == null) {
        throw new IllegalStateException("not in the store: " + ref);
      }
    }
    return step.symbolicate(e, lookup, now);
  }

  /**
   * {@link #symbolicate} without encoding the output: the difference between the two is the
   * encoder's share (each step measured right after the one before, with its data in the caches,
   * as in the stream).
   */
  @Benchmark
  public SymbolicatedEvent symbolicateNoEncode() throws IOException {
    return symbolicated(nextEvent());
  }

  /**
   * {@link #symbolicate} with the signature step between the lookups and the encoding, as the
   * stream runs it: the difference is signing's share (mapping and the signature generator).
   */
  @Benchmark
  public int symbolicateSigned() throws IOException {
    return out.encode(signer.sign(symbolicated(nextEvent()))).length;
  }

  /** Decoding alone (both topologies do it). */
  @Benchmark
  public CrashEvent decode() throws IOException {
    return in.decode(nextEvent());
  }

  /** The pass-through topology's work on the same event: decode, wrap, encode. */
  @Benchmark
  public int passThrough() throws IOException {
    return out.encode(passThroughEvent(nextEvent())).length;
  }

  private SymbolicatedEvent passThroughEvent(byte[] raw) throws IOException {
    CrashEvent e = in.decode(raw);
    return SymbolicatedEvents.builder(e, System.currentTimeMillis()).build();
  }

  /**
   * {@link #symbolicate} plus the producer's compression of the output: Kafka's producer
   * compresses a batch as records are appended, on the sending thread, which here is the
   * stream thread. Same codec and batch size as the app's output producer, through Kafka's own
   * compressing stream.
   */
  @Benchmark
  public int symbolicateCompressed() throws IOException {
    return batch.append(out.encode(symbolicated(nextEvent())));
  }

  /** {@link #passThrough} plus the producer's compression of its (smaller) output. */
  @Benchmark
  public int passThroughCompressed() throws IOException {
    return batch.append(out.encode(passThroughEvent(nextEvent())));
  }

  private final CompressedBatch batch = new CompressedBatch();

  /** Output records appended to a compressed batch of the app's batch size, closed when full. */
  static final class CompressedBatch {
    private final Compression codec = Compression.of(KafkaProperties.OUTPUT_COMPRESSION).build();
    private final ByteBufferOutputStream buffer =
        new ByteBufferOutputStream(KafkaProperties.OUTPUT_BATCH_BYTES);
    private OutputStream stream;
    private int appended;

    int append(byte[] record) throws IOException {
      if (stream == null) {
        buffer.position(0);
        stream = codec.wrapForOutput(buffer, (byte) 2); // record batch format v2
        appended = 0;
      }
      stream.write(record);
      appended += record.length;
      if (appended >= KafkaProperties.OUTPUT_BATCH_BYTES) {
        stream.close();
        stream = null;
      }
      return buffer.position();
    }
  }
}

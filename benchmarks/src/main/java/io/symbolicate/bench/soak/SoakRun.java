package io.symbolicate.bench.soak;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.testkit.ChildProcessKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.BenchEvents;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The soak test: the stream app in this JVM (the broker in a child JVM, so this process's
 * resident memory is the app's and the harness's), fed at about half its capacity (measured
 * first on a backlog, or given) for a given time, sampled every interval: heap after a full
 * collection, resident memory, parked events, the page cache and RocksDB's memory, the input's
 * lag. A verdict says whether they stayed flat: the mean of the last third of the samples against
 * the first third's (the first sample, taken while the JIT and caches warm, is left out).
 *
 * <p>The events are the pipeline benchmark's (30 native frames over warm synthetic modules); one
 * in {@link #UNKNOWN_EVERY} names a module no source has, never seen before, so events keep
 * parking, modules keep being requested, and answers of "missing" keep being cached, as with a
 * stream of crashes from builds whose symbols were never uploaded.
 */
public final class SoakRun {
  static final int UNKNOWN_EVERY = 100;
  private static final int MODULES = 8;
  private static final int FUNCTIONS = 20_000;
  private static final int CAPACITY_EVENTS = 20_000;

  /** What to run; {@code rate} 0 measures the capacity and takes half of it. */
  public record Options(
      Duration duration, Duration sampleInterval, int rate, int partitions, Path workDir) {}

  /** One row of the table. */
  public record Sample(
      double minutes,
      long sent,
      long out,
      long heapAfterGc,
      long rss,
      long parked,
      long pageCacheEntries,
      long pageCacheBytes,
      long rocksdbBytes) {
    long lag() {
      return sent - out;
    }
  }

  /** A series' verdict. */
  public record Trend(String name, double first, double last, boolean flat) {}

  private final Options o;
  private final PrintStream out;

  public SoakRun(Options o, PrintStream out) {
    this.o = o;
    this.out = out;
  }

  public List<Trend> run() throws Exception {
    Path dir = Files.createDirectories(o.workDir());
    out.println("soak: starting a broker (child JVM) and an S3 server…");
    try (ChildProcessKafka kafka =
            ChildProcessKafka.start(Map.of(), ChildProcessKafka.LOAD_JVM_OPTIONS);
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(Files.createDirectories(dir.resolve("s3")))) {
      try (var client = s3.client()) {
        client.createBucket(b -> b.bucket("symbols"));
        for (int m = 0; m < MODULES; m++) {
          String key =
              SyntheticSymFile.debugFile(m)
                  + "/"
                  + SyntheticSymFile.debugId(m)
                  + "/"
                  + SyntheticSymFile.debugFile(m)
                  + ".sym";
          byte[] sym = SyntheticSymFile.sym(m, FUNCTIONS);
          client.putObject(b -> b.bucket("symbols").key(key), RequestBody.fromBytes(sym));
        }
      }
      System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
      System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
      kafka.createTopics(o.partitions(), "soak.raw");
      AppConfig cfg =
          AppConfig.defaults()
              .set(ConfigKeys.BOOTSTRAP_SERVERS, kafka.bootstrapServers())
              .set(ConfigKeys.APPLICATION_ID, "soak")
              .set(ConfigKeys.STATE_DIR, dir.resolve("state").toString())
              .set(ConfigKeys.TOPIC_RAW, "soak.raw")
              .set(ConfigKeys.TOPICS_PARTITIONS, String.valueOf(o.partitions()))
              .set(ConfigKeys.SYMBOLS_S3_BUCKET, "symbols")
              .set(ConfigKeys.SYMBOLS_S3_ENDPOINT, s3.endpoint().toString())
              .set(ConfigKeys.SYMBOLS_S3_PATH_STYLE, "true");
      try (Feeder feeder = new Feeder(kafka.bootstrapServers());
          OutputCount counter =
              new OutputCount(kafka.bootstrapServers(), cfg.get(ConfigKeys.TOPIC_SYMBOLICATED))) {
        // the capacity backlog first: the app then starts on it, tables loaded by its first events
        int rate = o.rate();
        if (rate == 0) {
          feeder.burst(CAPACITY_EVENTS);
        }
        try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
          if (!app.awaitRunning(Duration.ofMinutes(3))) {
            throw new IllegalStateException("the app did not start");
          }
          if (rate == 0) {
            double capacity = measureCapacity(counter);
            rate = Math.max(1, (int) (capacity / 2));
            out.printf(
                "soak: capacity %.0f events/s (a backlog of %d warm events); soaking at %d events/s%n",
                capacity, CAPACITY_EVENTS, rate);
          } else {
            out.printf("soak: soaking at %d events/s (given)%n", rate);
          }
          return soak(app, feeder, counter, rate);
        }
      }
    } finally {
      deleteTree(dir);
    }
  }

  /** Events per second from the backlog's 10th to its last percent (the start loads the tables). */
  private double measureCapacity(OutputCount counter) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
    long from = 0;
    long fromCount = 0;
    while (counter.count() < CAPACITY_EVENTS && System.nanoTime() < deadline) {
      if (from == 0 && counter.count() >= CAPACITY_EVENTS / 10) {
        from = System.nanoTime();
        fromCount = counter.count();
      }
      Thread.sleep(20);
    }
    if (from == 0 || counter.count() < CAPACITY_EVENTS) {
      throw new IllegalStateException("the backlog did not come out within 10 minutes");
    }
    return (counter.count() - fromCount) / ((counter.lastAt() - from) / 1e9);
  }

  private List<Trend> soak(SymbolicatorApp app, Feeder feeder, OutputCount counter, int rate)
      throws Exception {
    long sentBefore = feeder.sent();
    long outBefore = counter.count();
    feeder.steady(rate);
    long t0 = System.nanoTime();
    long end = t0 + o.duration().toNanos();
    List<Sample> samples = new ArrayList<>();
    out.println(
        "   min      sent       out    lag  heap MB   RSS MB  parked  pages  pages MB  rocksdb MB");
    long next = t0;
    while (true) {
      next += o.sampleInterval().toNanos();
      long sleep = Math.min(next, end) - System.nanoTime();
      if (sleep > 0) {
        Thread.sleep(sleep / 1_000_000);
      }
      if (app.failed()) {
        throw new IllegalStateException("the app failed during the soak");
      }
      Sample s =
          sample(
              app,
              (System.nanoTime() - t0) / 60e9,
              feeder.sent() - sentBefore,
              counter.count() - outBefore);
      samples.add(s);
      out.printf(
          "%6.1f %9d %9d %6d %8.1f %8.1f %7d %6d %9.1f %11.1f%n",
          s.minutes(),
          s.sent(),
          s.out(),
          s.lag(),
          s.heapAfterGc() / 1048576.0,
          s.rss() / 1048576.0,
          s.parked(),
          s.pageCacheEntries(),
          s.pageCacheBytes() / 1048576.0,
          s.rocksdbBytes() / 1048576.0);
      if (System.nanoTime() >= end) {
        break;
      }
    }
    feeder.stopSteady();
    List<Trend> trends = verdict(samples, rate);
    for (Trend t : trends) {
      out.printf(
          "soak: %-22s first third %10.1f, last third %10.1f: %s%n",
          t.name(), t.first(), t.last(), t.flat() ? "flat" : "GROWS");
    }
    out.printf(
        "soak: %s%n",
        trends.stream().allMatch(Trend::flat) ? "FLAT (no growth over the run)" : "NOT FLAT");
    return trends;
  }

  /**
   * Each series' mean over the last third of the samples against the first third's (without the
   * first sample). Flat: heap and RSS grew less than 10 % (or 16 / 32 MB); parked events and lag
   * stayed within what a few seconds of input explain; the page cache within its bound.
   */
  static List<Trend> verdict(List<Sample> samples, int rate) {
    List<Sample> s = samples.size() > 3 ? samples.subList(1, samples.size()) : samples;
    int third = Math.max(1, s.size() / 3);
    List<Sample> first = s.subList(0, third);
    List<Sample> last = s.subList(s.size() - third, s.size());
    List<Trend> t = new ArrayList<>();
    t.add(trend("heap after GC (MB)", first, last, x -> x.heapAfterGc() / 1048576.0, 0.10, 16));
    t.add(trend("RSS (MB)", first, last, x -> x.rss() / 1048576.0, 0.10, 32));
    t.add(
        trend(
            "parked events",
            first,
            last,
            x -> (double) x.parked(),
            0.10,
            rate * 5.0 / UNKNOWN_EVERY + 10));
    t.add(trend("page cache (MB)", first, last, x -> x.pageCacheBytes() / 1048576.0, 0.10, 16));
    t.add(trend("RocksDB memory (MB)", first, last, x -> x.rocksdbBytes() / 1048576.0, 0.10, 16));
    t.add(trend("input lag (events)", first, last, x -> (double) x.lag(), 0.10, rate * 5.0));
    return t;
  }

  private static Trend trend(
      String name,
      List<Sample> first,
      List<Sample> last,
      ToDoubleFunction<Sample> f,
      double relative,
      double absolute) {
    double a = first.stream().mapToDouble(f).average().orElse(0);
    double b = last.stream().mapToDouble(f).average().orElse(0);
    return new Trend(name, a, b, b - a <= Math.max(absolute, a * relative));
  }

  private Sample sample(SymbolicatorApp app, double minutes, long sent, long outCount) {
    // a full collection: what stays is what the app holds (G1 runs System.gc() as a full GC)
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    double parked =
        app.metrics().registry().find("symbolicate.events.parked").gauges().stream()
            .mapToDouble(g -> g.value())
            .filter(v -> !Double.isNaN(v))
            .sum();
    double rocks = 0;
    for (var e : app.streams().metrics().entrySet()) {
      String n = e.getKey().name();
      if (e.getKey().group().equals("stream-state-metrics")
          && (n.equals("block-cache-usage") || n.equals("cur-size-all-mem-tables"))
          && e.getValue().metricValue() instanceof Number v) {
        rocks += v.doubleValue();
      }
    }
    return new Sample(
        minutes,
        sent,
        outCount,
        heap,
        rss(),
        Math.round(parked),
        app.pageCache().estimatedSize(),
        app.pageCache().weightedBytes(),
        Math.round(rocks));
  }

  /** This process's resident set (VmRSS), in bytes; -1 where /proc is not there. */
  static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }

  private static void deleteTree(Path root) {
    try (var s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // best effort: a temporary directory
    }
  }

  /** Writes the events: a backlog at once, or a steady rate in a thread of its own. */
  private static final class Feeder implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final BenchEvents warm = new BenchEvents(MODULES, FUNCTIONS, null);
    private final Random rnd = new Random(42);
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean running;
    private Thread thread;
    private long n;

    Feeder(String bootstrap) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.LINGER_MS_CONFIG, 10);
      producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    void burst(int events) {
      for (int i = 0; i < events; i++) {
        send(warm.event((int) n, rnd));
      }
      producer.flush();
    }

    /** Event {@code n}: warm, or one in {@link #UNKNOWN_EVERY} with a module never seen before. */
    private CrashEvent next() {
      if (n % UNKNOWN_EVERY == UNKNOWN_EVERY - 1) {
        String id = String.format("%016X%016X0", rnd.nextLong(), n);
        return new BenchEvents(MODULES, FUNCTIONS, new String[] {id, "unknown.so"})
            .event((int) n, rnd);
      }
      return warm.event((int) n, rnd);
    }

    private void send(CrashEvent e) {
      CrashEvent withId = CrashEvent.newBuilder(e).setEventId("soak-" + n).build();
      n++;
      producer.send(new ProducerRecord<>("soak.raw", WireSerdes.crashEvent().encode(withId)));
      sent.incrementAndGet();
    }

    void steady(int rate) {
      running = true;
      thread =
          new Thread(
              () -> {
                long period = 1_000_000_000L / rate;
                long due = System.nanoTime();
                while (running) {
                  send(next());
                  due += period;
                  long sleep = due - System.nanoTime();
                  if (sleep > 0) {
                    LockSupport.parkNanos(sleep);
                  }
                }
              },
              "soak-feeder");
      thread.setDaemon(true);
      thread.start();
    }

    void stopSteady() throws InterruptedException {
      running = false;
      if (thread != null) {
        thread.join(10_000);
      }
    }

    long sent() {
      return sent.get();
    }

    @Override
    public void close() throws InterruptedException {
      stopSteady();
      producer.close(Duration.ofSeconds(10));
    }
  }

  /** Counts the outputs (read_committed) in a thread of its own. */
  private static final class OutputCount implements AutoCloseable {
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong lastAt = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    OutputCount(String bootstrap, String topic) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, "soak-counter");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      c.put(
          ConsumerConfig.METADATA_MAX_AGE_CONFIG,
          1000); // the app creates the topic after this subscribes
      KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(List.of(topic));
      thread =
          new Thread(
              () -> {
                try (consumer) {
                  while (running) {
                    int got = consumer.poll(Duration.ofMillis(100)).count();
                    if (got > 0) {
                      count.addAndGet(got);
                      lastAt.set(System.nanoTime());
                    }
                  }
                }
              },
              "soak-counter");
      thread.setDaemon(true);
      thread.start();
    }

    long count() {
      return count.get();
    }

    long lastAt() {
      return lastAt.get();
    }

    @Override
    public void close() throws InterruptedException {
      running = false;
      thread.join(10_000);
    }
  }
}

package io.symbolicate.bench.pipeline;

import io.symbolicate.analytics.AnalyticsStores;
import io.symbolicate.analytics.TopCrashersTopology;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.app.runtime.AnalyticsRuntime;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.testkit.ChildProcessKafka;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.LocalKafka;
import io.symbolicate.testkit.events.BenchEvents;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The pipeline benchmark: native events of 30 frames across several modules, warm symbols,
 * exactly-once, on the real embedded broker, against a pass-through topology over the same
 * events and serdes measured in the same run. Optionally, a phase where a large symbol file
 * loads from S3 while events for warm modules keep flowing.
 */
public final class PipelineBenchmark {

  /** What to run. */
  public record Options(
      int events,
      int rounds,
      int warmupRounds,
      int modules,
      int functionsPerModule,
      int partitions,
      Path bigSym,
      int loadEvents,
      int loadWarmups,
      boolean childBroker,
      Map<String, String> overrides,
      boolean aggregate) {
    public Options(
        int events,
        int rounds,
        int warmupRounds,
        int modules,
        int functionsPerModule,
        int partitions,
        Path bigSym,
        int loadEvents,
        int loadWarmups,
        boolean childBroker,
        Map<String, String> overrides) {
      this(
          events,
          rounds,
          warmupRounds,
          modules,
          functionsPerModule,
          partitions,
          bigSym,
          loadEvents,
          loadWarmups,
          childBroker,
          overrides,
          false);
    }
  }

  /** Events per second of one run. */
  public record Run(
      String name,
      double eventsPerSecond,
      Map<String, Long> cpu,
      long outputBytes,
      LoadWindow window,
      Timeline timeline) {
    Run(String name, double eventsPerSecond, Map<String, Long> cpu, long outputBytes) {
      this(name, eventsPerSecond, cpu, outputBytes, null, null);
    }

    Run(
        String name,
        double eventsPerSecond,
        Map<String, Long> cpu,
        long outputBytes,
        LoadWindow window) {
      this(name, eventsPerSecond, cpu, outputBytes, window, null);
    }
  }

  /** The warm-event window of a load run: its offset from the client's RUNNING and its length (ns). */
  public record LoadWindow(long fromRunning, long length) {}

  /**
   * Outputs over a run: samples of (ns from the client's RUNNING, outputs so far), the last output
   * at {@code lastAt}. Both baselines of the load are rated by it over the load run's window; the
   * one before the load keeps it until that window is known.
   */
  record Timeline(List<long[]> samples, long lastAt) {
    /** Outputs seen by {@code t} in (time, count) samples in time order. */
    static long countAt(List<long[]> samples, long t) {
      long c = 0;
      for (long[] sample : samples) {
        if (sample[0] > t) {
          break;
        }
        c = sample[1];
      }
      return c;
    }

    long countAt(long t) {
      return countAt(samples, t);
    }

    /** Outputs per second over the window, cut at the last output as the load run's is. */
    double rate(LoadWindow w) {
      long from = w.fromRunning();
      long to = Math.min(from + w.length(), lastAt);
      return to <= from ? 0 : (countAt(to) - countAt(from)) / ((to - from) / 1e9);
    }
  }

  private final Options o;
  private final PrintStream out;
  private LocalKafka kafka;
  private EmbeddedS3 s3;
  private Path dir;
  private PageCache pages;

  public PipelineBenchmark(Options o, PrintStream out) {
    this.o = o;
    this.out = out;
  }

  public void run() throws Exception {
    dir = Files.createTempDirectory("symbolicator-bench");
    out.printf(
        "starting the embedded broker (%s) and S3 server…%n",
        o.childBroker() ? "its own JVM" : "in this JVM");
    kafka =
        o.childBroker()
            ? ChildProcessKafka.start(Map.of(), ChildProcessKafka.LOAD_JVM_OPTIONS)
            : EmbeddedKafka.start();
    try {
      s3 = EmbeddedS3.startOnDirectory(Files.createDirectories(dir.resolve("s3")));
      measure();
    } finally {
      if (s3 != null) {
        s3.close();
      }
      kafka.close();
    }
  }

  private void measure() throws Exception {
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket("symbols"));
      for (int m = 0; m < o.modules(); m++) {
        byte[] sym = SyntheticSymFile.sym(m, o.functionsPerModule());
        String key =
            SyntheticSymFile.debugFile(m)
                + "/"
                + SyntheticSymFile.debugId(m)
                + "/"
                + SyntheticSymFile.debugFile(m)
                + ".sym";
        client.putObject(b -> b.bucket("symbols").key(key), RequestBody.fromBytes(sym));
      }
    }
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    kafka.createTopics(o.partitions(), "bench.raw", "bench.load");
    // the harness's own copy of the events is dropped once they are on the topic: in production
    // they come from other processes, and here they would sit in the app's heap (~1 KB each)
    produce("bench.raw", o.events(), new Random(42), null);
    out.printf(
        "%d events of 30 frames across %d modules (%d functions each), %d partitions, exactly-once v2%n",
        o.events(), o.modules(), o.functionsPerModule(), o.partitions());

    // warm-up of both topologies: the JIT, the tables loaded from S3 into symbols.tables once,
    // and their pages decoded into the page cache that every later run shares (warm symbols, as
    // in an instance that has been running for a while)
    pages = new PageCache(AppConfig.defaults().getLong(ConfigKeys.PAGE_CACHE_BYTES));
    Run warm = symbolicator("warmup", "bench.raw", o.events(), null, null);
    out.printf(
        "warm-up: symbolicator (loads the tables from S3) %.0f events/s%n", warm.eventsPerSecond());
    for (int w = 0; w < o.warmupRounds(); w++) {
      Run pt = passthrough("ptwarmup" + w, o.events());
      Run sym = symbolicator("symwarmup" + w, "bench.raw", o.events(), null, null);
      out.printf(
          "warm-up %d: pass-through %.0f events/s, symbolicator %.0f events/s (not counted)%n",
          w + 1, pt.eventsPerSecond(), sym.eventsPerSecond());
    }

    if (o.aggregate()) {
      aggregationRounds();
      return;
    }
    List<Run> runs = new ArrayList<>();
    for (int r = 0; r < o.rounds(); r++) {
      // alternate which runs first, so a change in the machine's load falls on both alike
      Run pt;
      Run sym;
      if (r % 2 == 0) {
        pt = passthrough("pt" + r, o.events());
        sym = symbolicator("sym" + r, "bench.raw", o.events(), null, null);
      } else {
        sym = symbolicator("sym" + r, "bench.raw", o.events(), null, null);
        pt = passthrough("pt" + r, o.events());
      }
      runs.add(pt);
      runs.add(sym);
      out.printf(
          "round %d: pass-through %.0f events/s, symbolicator %.0f events/s (load %s)%n",
          r + 1, pt.eventsPerSecond(), sym.eventsPerSecond(), loadAverage());
      out.printf(
          "  pass-through %s, %d output bytes/event%n  symbolicator %s, %d output bytes/event%n",
          CpuMeter.perEvent(pt.cpu(), o.events()),
          pt.outputBytes() / o.events(),
          CpuMeter.perEvent(sym.cpu(), o.events()),
          sym.outputBytes() / o.events());
    }
    double pt = median(runs, "passthrough");
    double sym = median(runs, "symbolicator");
    out.printf(
        "%nmedian pass-through %.0f events/s, symbolicator %.0f events/s: ratio %.2f (target >= 0.60, issue 48)%n",
        pt, sym, sym / pt);

    if (o.bigSym() != null) {
      loadingPhase(sym);
    }
  }

  /**
   * {@code --aggregate}: each round runs the symbolicator, then the top-crashers aggregation
   * over exactly what it wrote (its output topic), both held until the JIT settles and clocked
   * the same way: the symbolicator to its last committed output, the aggregation until its
   * group has committed the whole input and the whole repartition topic (every event counted).
   */
  private void aggregationRounds() throws Exception {
    for (int w = 0; w < o.warmupRounds(); w++) {
      symbolicator("aggwarmsym" + w, "bench.raw", o.events(), null, null);
      Run agg = aggregation("aggwarm" + w, "bench.out.aggwarmsym" + w, o.events());
      out.printf(
          "warm-up %d: aggregation %.0f events/s (not counted)%n", w + 1, agg.eventsPerSecond());
    }
    List<Run> runs = new ArrayList<>();
    for (int r = 0; r < o.rounds(); r++) {
      Run sym = symbolicator("sym" + r, "bench.raw", o.events(), null, null);
      Run agg = aggregation("agg" + r, "bench.out.sym" + r, o.events());
      runs.add(sym);
      runs.add(agg);
      out.printf(
          "round %d: symbolicator %.0f events/s, aggregation %.0f events/s: ratio %.2f (load %s)%n",
          r + 1,
          sym.eventsPerSecond(),
          agg.eventsPerSecond(),
          agg.eventsPerSecond() / sym.eventsPerSecond(),
          loadAverage());
      out.printf("  aggregation %s%n", CpuMeter.perEvent(agg.cpu(), o.events()));
    }
    double sym = median(runs, "symbolicator");
    double agg = median(runs, "aggregation");
    out.printf(
        "%nmedian symbolicator %.0f events/s, aggregation %.0f events/s: ratio %.2f (target >= 1.00)%n",
        sym, agg, agg / sym);
  }

  /** The top-crashers aggregation over {@code input} ({@code n} events); see {@link #aggregationRounds}. */
  private Run aggregation(String name, String input, int n) throws Exception {
    AppConfig cfg =
        config(name, "bench.raw")
            .set(ConfigKeys.TOPIC_SYMBOLICATED, input)
            .set(ConfigKeys.ANALYTICS_APPLICATION_ID, "bench-" + name);
    String appId = AnalyticsRuntime.applicationId(cfg);
    try (KafkaStreams streams =
            new KafkaStreams(
                TopCrashersTopology.build(AnalyticsRuntime.config(cfg)),
                AnalyticsRuntime.properties(cfg, null));
        var admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      AtomicLong running = new AtomicLong();
      streams.setStateListener(
          (now, before) -> {
            if (now == KafkaStreams.State.RUNNING && running.compareAndSet(0, System.nanoTime())) {
              streams.pause();
            }
          });
      streams.start();
      while (running.get() == 0) {
        Thread.sleep(5);
      }
      Start start = resumeWhenSettled(streams);
      CpuMeter cpu = cpuMeter();
      String repartition = appId + "-" + AnalyticsStores.BY_RELEASE + "-repartition";
      long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
      long doneAt = 0;
      while (doneAt == 0 && System.nanoTime() < deadline) {
        if (allCommitted(admin, appId, List.of(input, repartition), n)) {
          doneAt = System.nanoTime();
        } else {
          Thread.sleep(20);
        }
      }
      if (doneAt == 0) {
        throw new IllegalStateException(
            "the aggregation did not consume " + n + " events within 10 minutes");
      }
      Run run = new Run("aggregation", start.rate(n, doneAt), cpu.stop(), 0);
      streams.close(Duration.ofSeconds(30));
      return run;
    }
  }

  /**
   * True when the group has committed every partition of {@code topics} to its end, and the
   * first topic holds {@code n} records.
   */
  private static boolean allCommitted(Admin admin, String group, List<String> topics, int n)
      throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    var described = admin.describeTopics(topics).allTopicNames().get();
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    described.forEach(
        (t, d) ->
            d.partitions()
                .forEach(
                    p -> specs.put(new TopicPartition(t, p.partition()), OffsetSpec.latest())));
    var ends =
        admin.listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
    long inputEnd = 0;
    for (var e : ends.entrySet()) {
      var c = committed.get(e.getKey());
      long end = e.getValue().offset();
      if (e.getKey().topic().equals(topics.get(0))) {
        inputEnd += end;
      }
      // a transactional topic's end is one past the last commit marker; the group commits up to it
      if (end > 0 && (c == null || c.offset() < end)) {
        return false;
      }
    }
    return inputEnd >= n;
  }

  /** Warm events keep flowing while the big file is fetched, converted and published. */
  private void loadingPhase(double warmRate) throws Exception {
    String[] module = moduleLine(o.bigSym());
    for (int w = 0; w < o.loadWarmups(); w++) {
      // the same file under another debug id: a new module for the loader, same code paths
      String[] other = {String.format("%032X", w) + "F", module[1]};
      upload(other);
      kafka.createTopics(o.partitions(), "bench.loadwarm" + w);
      produce("bench.loadwarm" + w, 1, new Random(8 + w), other);
      produce("bench.loadwarm" + w, 2000, new Random(44 + w), null);
      symbolicator("loadwarm" + w, "bench.loadwarm" + w, 2001, other, null);
      out.printf("  (warm-up load %d of %d, not counted)%n", w + 1, o.loadWarmups());
    }
    // the baseline runs twice, before and after the load run, and the load is compared with their
    // mean: the run after inherits the JIT work of the longest run so far, and the machine may
    // drift between runs (the three runs take about a minute)
    kafka.createTopics(o.partitions(), "bench.loadbase0", "bench.loadbase");
    produce("bench.loadbase0", 1, new Random(7), null);
    produce("bench.loadbase0", o.loadEvents(), new Random(43), null);
    settleJit();
    Run before =
        symbolicator("loadbase0", "bench.loadbase0", o.loadEvents() + 1, null, null, false);
    String key = upload(module);
    out.printf(
        "%nloading phase: uploading %s (%d MB) as %s%n",
        o.bigSym(), Files.size(o.bigSym()) >> 20, key);
    // the first event needs the big module: it parks, and its request starts the load
    produce("bench.load", 1, new Random(7), module);
    produce("bench.load", o.loadEvents(), new Random(43), null);
    // generating and producing the load events is the harness's work, not the app's: let the JIT
    // finish compiling it before the app starts, so its backlog is not billed to the load
    settleJit();
    Run load = symbolicator("load", "bench.load", o.loadEvents() + 1, module, null);
    double rate = load.eventsPerSecond();
    out.printf(
        "warm events during the load: %.0f events/s = %.2f of the warm rounds' rate%n",
        rate, rate / warmRate);
    if (load.window() == null) {
      return;
    }
    // the baseline: the same run without the big module (its first event is warm too), started
    // the same way, counted over the same window after RUNNING. (The warm rounds are shorter and
    // held until the JIT settles, so they are not the same conditions as this longer run.)
    produce("bench.loadbase", 1, new Random(7), null);
    produce("bench.loadbase", o.loadEvents(), new Random(43), null);
    settleJit();
    double after =
        symbolicator("loadbase", "bench.loadbase", o.loadEvents() + 1, null, load.window())
            .eventsPerSecond();
    double beforeRate = before.timeline().rate(load.window());
    double base = (beforeRate + after) / 2;
    out.printf(
        "same events without the load, same window: %.0f events/s before the load run, %.0f after it%n",
        beforeRate, after);
    out.printf(
        "warm events during the load: %.2f of the rate without it before, %.2f after%n",
        rate / beforeRate, rate / after);
    out.printf(
        "warm events during the load: %.2f of the rate without it (mean of both; target >= 0.80)%n",
        rate / base);
  }

  /** Puts the big file into S3 under a module's key; returns the key. */
  private String upload(String[] module) {
    String key = module[1] + "/" + module[0] + "/" + module[1] + ".sym";
    try (var client = s3.client()) {
      client.putObject(b -> b.bucket("symbols").key(key), o.bigSym());
    }
    return key;
  }

  /**
   * Resumes a client that was started paused and is RUNNING, once the JIT has compiled what its
   * start-up made hot; returns the time of the resume, where the run's clock starts. Both
   * topologies are measured this way. (Every run starts a new client in the same JVM, which an
   * instance in production does once: started unpaused, the compilations of each start-up, the
   * symbolicator's with its loader, metrics and global store, ran inside the measured window and
   * took 20-60 µs of CPU per event from a 2-core machine.) A paused client still polls and
   * buffers its input, so the first records are ready when it resumes.
   */
  private Start resumeWhenSettled(KafkaStreams streams) throws InterruptedException {
    settleJit(false);
    long t0 = System.nanoTime();
    // tasks whose stores are restored may process before the client turns RUNNING (and pauses):
    // those records, and the time they took, are left out of the run's rate
    long early = Math.round(processedRecords(streams));
    streams.resume();
    return new Start(t0, early);
  }

  /** Where a run's clock starts, and how many records were processed before it. */
  private record Start(long at, long early) {
    /** Events per second of the {@code n} outputs, the last of them at {@code lastAt}. */
    double rate(long n, long lastAt) {
      return (n - early) / ((lastAt - at) / 1e9);
    }
  }

  /** Records the client's stream threads have processed (their process-total metric). */
  private static double processedRecords(KafkaStreams streams) {
    double sum = 0;
    for (var e : streams.metrics().entrySet()) {
      if (e.getKey().group().equals("stream-thread-metrics")
          && e.getKey().name().equals("process-total")
          && e.getValue().metricValue() instanceof Double d) {
        sum += d;
      }
    }
    return sum;
  }

  /** Waits (at most 20 s) until the JIT compilers have been idle for a second. */
  private void settleJit() throws InterruptedException {
    settleJit(true);
  }

  private void settleJit(boolean report) throws InterruptedException {
    var jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return;
    }
    long start = System.nanoTime();
    long last = jit.getTotalCompilationTime();
    while (System.nanoTime() - start < 20_000_000_000L) {
      Thread.sleep(1000);
      long now = jit.getTotalCompilationTime();
      if (now - last < 20) {
        break;
      }
      last = now;
    }
    if (report) {
      out.printf("  (JIT idle after %.1f s)%n", (System.nanoTime() - start) / 1e9);
    }
  }

  private AppConfig config(String name, String raw) {
    AppConfig cfg =
        AppConfig.defaults()
            .set(ConfigKeys.BOOTSTRAP_SERVERS, kafka.bootstrapServers())
            .set(ConfigKeys.APPLICATION_ID, "bench-" + name)
            .set(ConfigKeys.STATE_DIR, dir.resolve("state-" + name).toString())
            .set(ConfigKeys.TOPIC_RAW, raw)
            .set(ConfigKeys.TOPIC_SYMBOLICATED, "bench.out." + name)
            .set(ConfigKeys.TOPIC_DLQ, "bench.dlq." + name)
            .set(ConfigKeys.TOPICS_PARTITIONS, String.valueOf(o.partitions()))
            .set(ConfigKeys.SYMBOLS_S3_BUCKET, "symbols")
            .set(ConfigKeys.SYMBOLS_S3_ENDPOINT, s3.endpoint().toString())
            .set(ConfigKeys.SYMBOLS_S3_PATH_STYLE, "true");
    o.overrides().forEach(cfg::set);
    return cfg;
  }

  /**
   * Runs the symbolication app until {@code n} outputs; returns events/s from the start of the
   * clock (see resumeWhenSettled). With a big module, returns the rate of outputs while the
   * loader was busy with it, and that window. With a {@code baselineWindow}, returns the rate of
   * outputs over that window. Those two are not held (a load would start on the first event
   * while the rest waited); their clock starts at RUNNING.
   */
  private Run symbolicator(
      String name, String raw, int n, String[] bigModule, LoadWindow baselineWindow)
      throws Exception {
    return symbolicator(
        name, raw, n, bigModule, baselineWindow, bigModule == null && baselineWindow == null);
  }

  /** As above; {@code held} false without a big module or window: a baseline run that keeps its timeline. */
  private Run symbolicator(
      String name, String raw, int n, String[] bigModule, LoadWindow baselineWindow, boolean held)
      throws Exception {
    AppConfig cfg = config(name, raw);
    SymbolicatorApp created = SymbolicatorApp.create(cfg, pages);
    if (held) {
      created.pauseWhenRunning();
    }
    try (SymbolicatorApp app = created.startStreams();
        OutputCounter counter = new OutputCounter(cfg.get(ConfigKeys.TOPIC_SYMBOLICATED))) {
      if (!app.awaitRunning(Duration.ofMinutes(2))) {
        throw new IllegalStateException("app did not start");
      }
      Start start = held ? resumeWhenSettled(app.streams()) : new Start(app.firstRunningAt(), 0);
      long t0 = start.at();
      CpuMeter cpu = cpuMeter();
      Map<String, Double> w0 = waits(app.streams());
      if (baselineWindow != null) {
        long from = t0 + baselineWindow.fromRunning();
        // the CPU by thread kind over the load run's window, to set against the load run's
        sleepUntil(from);
        CpuMeter windowCpu = cpuMeter();
        Map<String, Double> windowWaits = waits(app.streams());
        long windowCount = counter.count();
        sleepUntil(from + baselineWindow.length());
        out.printf("  CPU in the same window without the load: %s%n", cpuLine(windowCpu.stop()));
        out.printf(
            "  stream thread per event in that window: %s%n",
            waitsSince(
                windowWaits, waits(app.streams()), Math.max(1, counter.count() - windowCount)));
        counter.await(n, Duration.ofMinutes(10));
        // as in the load run: if the events run out first, the window ends at the last output
        long to = Math.min(from + baselineWindow.length(), counter.lastAt());
        out.printf("  outputs per second after RUNNING: %s%n", counter.perSecond(t0, from, to));
        return new Run(
            "loadbase", counter.timeline(t0).rate(baselineWindow), cpu.stop(), counter.bytes());
      }
      if (!held && bigModule == null) {
        // the baseline before the load run: its window is known only later, so keep its timeline
        counter.await(n, Duration.ofMinutes(10));
        return new Run(name, 0, cpu.stop(), counter.bytes(), null, counter.timeline(t0));
      }
      if (bigModule == null) {
        counter.await(n, Duration.ofMinutes(10));
        out.printf(
            "  [%s] stream thread per event: %s%n", name, waitsSince(w0, waits(app.streams()), n));
        Run run =
            new Run("symbolicator", start.rate(n, counter.lastAt()), cpu.stop(), counter.bytes());
        if (app.loader() != null && !app.loader().warmupDone().isDone()) {
          // the app's converter warm-up (once per process) must not overlap the measured runs
          long w = System.nanoTime();
          Map<?, Long> warmed = app.loader().warmupDone().get(5, TimeUnit.MINUTES);
          out.printf(
              "  [%s] waited %.1f s for the app's converter warm-up (%s)%n",
              name, (System.nanoTime() - w) / 1e9, warmed);
        }
        out.printf(
            "  [%s] page cache: %d hits (%d from the tasks' memos), %d misses, %d entries, %d evictions%n",
            name,
            app.pageCache().hits(),
            app.pageCache().memoHits(),
            app.pageCache().misses(),
            app.pageCache().estimatedSize(),
            app.pageCache().evictions());
        return run;
      }
      // measure outputs while the loader works on the big file
      long loadStart = 0;
      Instant loadStartWall = null;
      Instant loadEndWall = null;
      long loadEnd = 0;
      long startCount = 0;
      long endCount = 0;
      long warmDoneAt = 0;
      CpuMeter loadCpu = null;
      Map<String, Long> loadCpuSpent = Map.of();
      Map<String, Double> loadWaits = Map.of();
      String loadWaitsLine = "";
      long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
      while (System.nanoTime() < deadline && (loadEnd == 0 || counter.count() < n)) {
        if (loadStart == 0 && app.loader().inFlight() > 0) {
          loadStart = System.nanoTime();
          loadStartWall = Instant.now();
          startCount = counter.count();
          loadCpu = cpuMeter();
          loadWaits = waits(app.streams());
        }
        if (warmDoneAt == 0 && counter.count() >= n - 1) {
          warmDoneAt = System.nanoTime();
        }
        if (loadStart != 0 && loadEnd == 0 && app.loader().inFlight() == 0) {
          loadEnd = System.nanoTime();
          loadEndWall = Instant.now();
          endCount = counter.count();
          loadCpuSpent = loadCpu.stop();
          loadWaitsLine =
              waitsSince(loadWaits, waits(app.streams()), Math.max(1, endCount - startCount));
        }
        Thread.sleep(5);
      }
      out.printf(
          "  the load took %.1f s; %d of %d events came out meanwhile; all out after %.1f s%n",
          (loadEnd - loadStart) / 1e9, endCount - startCount, n, (counter.lastAt() - t0) / 1e9);
      // wall-clock bounds, to find the load in a GC log or a flight recording of the same run
      out.printf("  load from %s to %s%n", loadStartWall, loadEndWall);
      // where the CPU went while the loader worked: the stream's share against the rest
      out.printf("  CPU during the load: %s%n", cpuLine(loadCpuSpent));
      out.printf("  stream thread per event during the load: %s%n", loadWaitsLine);
      // the rate counts only the time both ran: if the warm events ran out before the load ended,
      // the window ends at the last warm output (the big event itself waits for the load)
      long windowEnd = loadEnd;
      if (endCount >= n - 1) {
        windowEnd = Math.min(loadEnd, warmDoneAt);
        out.printf(
            "  (the warm events ran out %.1f s into the load: rate over that part)%n",
            (windowEnd - loadStart) / 1e9);
      }
      double rate = (endCount - startCount) / ((windowEnd - loadStart) / 1e9);
      // the shape over time, against the baseline's (a dip at the load's start or at its end?)
      out.printf(
          "  outputs per second after RUNNING: %s%n", counter.perSecond(t0, loadStart, windowEnd));
      return new Run(
          "load",
          rate,
          cpu.stop(),
          counter.bytes(),
          new LoadWindow(loadStart - t0, windowEnd - loadStart));
    }
  }

  /** CPU from now on, the broker's included when it runs in its own JVM. */
  private CpuMeter cpuMeter() {
    return new CpuMeter(kafka::brokerCpuNanos);
  }

  /** CPU by thread kind, the kinds that used at least 50 ms; then what the kinds that allocated 10 MB did. */
  private static String cpuLine(Map<String, Long> spent) {
    StringBuilder line = new StringBuilder();
    StringBuilder alloc = new StringBuilder();
    spent.forEach(
        (k, v) -> {
          if (k.endsWith("-alloc-bytes")) {
            if (v >= 10L << 20) {
              alloc
                  .append(alloc.isEmpty() ? "; allocated: " : ", ")
                  .append(k, 0, k.length() - "-alloc-bytes".length())
                  .append(' ')
                  .append(v >> 20)
                  .append(" MB");
            }
          } else if (v >= 50_000_000L) {
            line.append(line.isEmpty() ? "" : ", ")
                .append(k)
                .append(' ')
                .append(v / 1_000_000)
                .append(" ms");
          }
        });
    return line.append(alloc).toString();
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    if (nanoTime - System.nanoTime() > Duration.ofMinutes(10).toNanos()) {
      throw new IllegalStateException(
          "a window more than 10 minutes ahead: the run's clock is wrong");
    }
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      Thread.sleep(Math.max(1, left / 1_000_000));
    }
  }

  /** The same events and serdes through a topology that only decodes and re-encodes. */
  private Run passthrough(String name, int n) throws Exception {
    StreamsBuilder b = new StreamsBuilder();
    var in = WireSerdes.crashEvent();
    b.stream("bench.raw", Consumed.with(Serdes.ByteArray(), in))
        .map(
            (k, e) ->
                KeyValue.pair(
                    e.getEventId(),
                    SymbolicatedEvents.builder(e, System.currentTimeMillis()).build()))
        .to("bench.out." + name, Produced.with(Serdes.String(), WireSerdes.symbolicatedEvent()));
    AppConfig cfg = config(name, "bench.raw");
    kafka.createTopics(o.partitions(), "bench.out." + name);
    try (KafkaStreams streams = new KafkaStreams(b.build(), KafkaProperties.streams(cfg));
        OutputCounter counter = new OutputCounter("bench.out." + name)) {
      AtomicLong running = new AtomicLong();
      streams.setStateListener(
          (now, before) -> {
            // as the app does with pauseWhenRunning: on the stream thread, before it processes
            if (now == KafkaStreams.State.RUNNING && running.compareAndSet(0, System.nanoTime())) {
              streams.pause();
            }
          });
      streams.start();
      while (running.get() == 0) {
        Thread.sleep(5);
      }
      Start start = resumeWhenSettled(streams);
      CpuMeter cpu = cpuMeter();
      Map<String, Double> w0 = waits(streams);
      counter.await(n, Duration.ofMinutes(10));
      out.printf("  [%s] stream thread per event: %s%n", name, waitsSince(w0, waits(streams), n));
      Run run =
          new Run("passthrough", start.rate(n, counter.lastAt()), cpu.stop(), counter.bytes());
      streams.close(Duration.ofSeconds(30));
      return run;
    }
  }

  /** Generates {@code n} events into {@code sink}, one at a time (300k of them would not fit in the heap at once). */
  private void events(int n, Random rnd, String[] bigModule, Consumer<byte[]> sink) {
    var serde = WireSerdes.crashEvent();
    BenchEvents gen = new BenchEvents(o.modules(), o.functionsPerModule(), bigModule);
    for (int i = 0; i < n; i++) {
      sink.accept(serde.encode(gen.event(i, rnd)));
    }
  }

  /** Produces {@code n} generated events (see {@link #events}) to {@code topic}. */
  private void produce(String topic, int n, Random rnd, String[] bigModule) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.LINGER_MS_CONFIG, 10);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      events(n, rnd, bigModule, v -> producer.send(new ProducerRecord<>(topic, v)));
      producer.flush();
    }
  }

  /** The module line's debug id and name, read from the file's first line. */
  static String[] moduleLine(Path sym) throws Exception {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(Files.newInputStream(sym), StandardCharsets.UTF_8))) {
      String[] f = r.readLine().split(" ", 5);
      if (!f[0].equals("MODULE") || f.length < 5) {
        throw new IllegalArgumentException(sym + " does not start with a MODULE line");
      }
      return new String[] {f[3], f[4].trim()};
    }
  }

  /**
   * Where the stream thread waits, cumulative ns by metric (KIP-761's totals of its consumer and
   * producer, and its own blocked time: waiting for fetched input, flushes and transactions).
   */
  static Map<String, Double> waits(KafkaStreams streams) {
    Map<String, Double> w = new TreeMap<>();
    for (var e : streams.metrics().entrySet()) {
      var name = e.getKey();
      String client = name.tags().getOrDefault("client-id", "");
      boolean consumer = STREAM_CONSUMER.matcher(client).matches();
      boolean producer = STREAM_PRODUCER.matcher(client).matches();
      String kind = null;
      if (name.group().equals("stream-thread-metrics")
          && name.name().equals("blocked-time-ns-total")) {
        kind = "blocked in all";
      } else if (consumer && name.name().equals("io-wait-time-ns-total")) {
        kind = "waiting for input";
      } else if (producer
          && name.name().startsWith("txn-")
          && name.name().endsWith("-time-ns-total")) {
        kind = "in transactions";
      } else if (producer && name.name().equals("flush-time-ns-total")) {
        kind = "flushing output";
      }
      if (kind != null && e.getValue().metricValue() instanceof Double d) {
        w.merge(kind, d, Double::sum);
      }
    }
    return w;
  }

  // the stream threads' own clients (not the global or restore consumers, nor the loader's)
  private static final Pattern STREAM_CONSUMER = Pattern.compile(".*StreamThread-\\d+-consumer");
  private static final Pattern STREAM_PRODUCER = Pattern.compile(".*StreamThread-\\d+-producer");

  /** The waits between two {@link #waits} readings, in µs per event (those of at least 1 µs). */
  static String waitsSince(Map<String, Double> before, Map<String, Double> after, long events) {
    StringBuilder b = new StringBuilder();
    after.forEach(
        (k, v) -> {
          double d = (v - before.getOrDefault(k, 0.0)) / 1e3 / events;
          if (d >= 1) {
            b.append(b.isEmpty() ? "" : ", ")
                .append(k)
                .append(' ')
                .append(Math.round(d))
                .append(" µs");
          }
        });
    return b.toString();
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (Exception e) {
      return "n/a";
    }
  }

  private static double median(List<Run> runs, String name) {
    double[] v =
        runs.stream()
            .filter(r -> r.name().equals(name))
            .mapToDouble(Run::eventsPerSecond)
            .sorted()
            .toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /**
   * Reads no record's bytes: the counter needs counts and sizes only (sizes come with the
   * record). A byte-array deserializer copies every value out of the fetched batch, which, in the
   * app's JVM, doubled the harness's garbage (10 KB per symbolicated event against 2 KB per
   * pass-through event) and billed the collector's extra work to the symbolicator's runs.
   */
  private static final class Discarding implements Deserializer<Void> {
    @Override
    public Void deserialize(String topic, byte[] data) {
      return null;
    }

    @Override
    public Void deserialize(String topic, Headers headers, ByteBuffer data) {
      return null;
    }
  }

  /** Counts records on an output topic (read_committed) in a background thread. */
  private final class OutputCounter implements AutoCloseable {
    // (time, outputs so far) after every poll that returned records: counts over any window
    private final List<long[]> samples = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong lastAt = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    OutputCounter(String topic) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-counter-" + topic);
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      KafkaConsumer<Void, Void> consumer =
          new KafkaConsumer<>(c, new Discarding(), new Discarding());
      consumer.subscribe(List.of(topic));
      thread =
          new Thread(
              () -> {
                try (consumer) {
                  while (running.get()) {
                    pollOnce(consumer);
                  }
                }
              },
              "bench-counter");
      thread.start();
    }

    // a method of its own, not the loop's body: every run's counter then calls the same compiled
    // code, instead of the JIT compiling the loop afresh (on-stack replacement, ~0.6 s of C2)
    // inside the longest run's window, the load's
    private void pollOnce(KafkaConsumer<Void, Void> consumer) {
      var records = consumer.poll(Duration.ofMillis(50));
      int n = records.count();
      for (var r : records) {
        bytes.addAndGet(r.serializedValueSize());
      }
      if (n > 0) {
        long now = System.nanoTime();
        samples.add(new long[] {now, count.addAndGet(n)});
        lastAt.set(now);
      }
    }

    long count() {
      return count.get();
    }

    long bytes() {
      return bytes.get();
    }

    long lastAt() {
      return lastAt.get();
    }

    /**
     * Outputs per second in whole seconds after {@code t0}, up to a second past the window's
     * end, in thousands; the seconds that overlap the window [from, to] are marked with '*'.
     */
    String perSecond(long t0, long from, long to) {
      StringBuilder b = new StringBuilder();
      for (long s = t0; s < to + 1_000_000_000L; s += 1_000_000_000L) {
        long e = s + 1_000_000_000L;
        b.append(b.isEmpty() ? "" : " ")
            .append(String.format("%.1f", (countAt(e) - countAt(s)) / 1e3))
            .append(e > from && s < to ? "*" : "");
      }
      return b + " (thousands)";
    }

    /** The outputs so far over time, from {@code t0} (nanoTime). */
    Timeline timeline(long t0) {
      synchronized (samples) {
        List<long[]> shifted = new ArrayList<>(samples.size());
        for (long[] sample : samples) {
          shifted.add(new long[] {sample[0] - t0, sample[1]});
        }
        return new Timeline(shifted, lastAt() - t0);
      }
    }

    /** Outputs seen by {@code at} (nanoTime). */
    long countAt(long at) {
      synchronized (samples) {
        return Timeline.countAt(samples, at);
      }
    }

    void await(long n, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (count.get() < n && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      if (count.get() < n) {
        throw new IllegalStateException(
            "only " + count.get() + " of " + n + " outputs within " + timeout);
      }
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join();
    }
  }
}

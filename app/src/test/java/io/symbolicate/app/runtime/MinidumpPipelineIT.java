package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.reprocess.ModuleReprocessing;
import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.minidump.WalkedDumpEvent;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Minidumps carried by reference, walked in the stream: real broker, real S3 server, the real
 * loader filling the store from the bucket's Breakpad files. Every dump's event comes out once,
 * with the frames the engine's CLI walk gives for the same dump and symbols; while S3 is down
 * the events wait, and they come out once it is back.
 */
class MinidumpPipelineIT {
  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  private static int s3Port;
  @TempDir static Path s3Dir;
  @TempDir Path stateDir;
  private static int run;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
    s3 = EmbeddedS3.startOnDirectory(s3Dir);
    s3Port = s3.port();
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    kafka.close();
  }

  /** A dump and the Breakpad symbol directory its modules' files are in. */
  record Case(String name, Path dump, Path symbols) {}

  /** Breakpad's minidump2 (x86 Windows), and the generated Linux corpus when this machine has it. */
  static List<Case> cases() throws Exception {
    List<Case> out = new ArrayList<>();
    Path breakpad = SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");
    out.add(new Case("minidump2", breakpad.resolve("minidump2.dmp"), breakpad.resolve("symbols")));
    Path corpus = GeneratedCorpus.minidump();
    // without the corpus (a developer's quick run) minidump2 alone; CI requires it
    boolean present = Files.isRegularFile(corpus.resolve("cases.json"));
    if (!present && GeneratedCorpus.required()) {
      GeneratedCorpus.need(false, "generated minidump corpus " + corpus);
    }
    if (present) {
      try (Stream<Path> s = Files.list(corpus)) {
        s.filter(p -> p.getFileName().toString().endsWith(".dmp"))
            .sorted()
            .forEach(
                p ->
                    out.add(
                        new Case(
                            p.getFileName().toString().replace(".dmp", ""),
                            p,
                            corpus.resolve("symbols"))));
      }
    }
    return out;
  }

  private AppConfig config(String bucket) {
    String p = "md" + (++run);
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", p + "-app")
            .set("state.dir", stateDir.toString())
            .set("topics.partitions", "2")
            .set("streams.commit.interval.ms", "100");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, p + "." + t);
    }
    return cfg.set("symbols.s3.bucket", bucket)
        .set("symbols.s3.endpoint", "http://127.0.0.1:" + s3Port)
        .set("symbols.s3.path-style", "true")
        .set("symbols.fetch.timeout.ms", "2000")
        .set("loader.backoff.ms", "100")
        .set("loader.attempts", "3")
        .set("cache.failed.retry.ms", "1000")
        .set("park.request.retry.ms", "1000")
        .set("park.check.interval.ms", "100")
        .set("minidump.fetch.retry.ms", "500");
  }

  private static String bucketWithSymbols(String name, List<Case> cases) throws Exception {
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(name));
      client.createBucket(b -> b.bucket(name + "-dumps"));
      for (Path dir : cases.stream().map(Case::symbols).distinct().toList()) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".sym")).toList()) {
            String key = dir.relativize(f).toString().replace('\\', '/');
            client.putObject(b -> b.bucket(name).key(key), RequestBody.fromFile(f));
          }
        }
      }
    }
    return name;
  }

  private static Attachment store(String bucket, String key, byte[] dump) throws Exception {
    try (var client = s3.client()) {
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(dump));
    }
    return Attachment.newBuilder()
        .setBucket(bucket)
        .setKey(key)
        .setSize((long) dump.length)
        .setSha256(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(dump)))
        .build();
  }

  static CrashEvent event(String id, Attachment dump) {
    return CrashEvent.newBuilder()
        .setEventId(id)
        .setPlatform(Platform.native$)
        .setNative$(NativePayload.newBuilder().setMinidump(dump).build())
        .build();
  }

  private static void send(AppConfig cfg, List<CrashEvent> events) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (CrashEvent e : events) {
        producer.send(
            new ProducerRecord<>(cfg.get("topic.raw"), WireSerdes.crashEvent().encode(e)));
      }
    }
  }

  /** Reads the output and the DLQ (read_committed), counting each event id. */
  private static final class Reader implements AutoCloseable {
    final Map<String, SymbolicatedEvent> events = new HashMap<>();
    final Map<String, Integer> seen = new HashMap<>();
    final List<DeadLetter> dead = new ArrayList<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AppConfig cfg;

    Reader(AppConfig cfg) {
      this.cfg = cfg;
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, cfg.get("application.id") + "-reader");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(List.of(cfg.get("topic.symbolicated"), cfg.get("topic.dlq")));
    }

    void until(BooleanSupplier done, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!done.getAsBoolean() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.topic().equals(cfg.get("topic.dlq"))) {
            dead.add(WireSerdes.deadLetter().deserializer().deserialize(r.topic(), r.value()));
          } else {
            SymbolicatedEvent e =
                WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
            events.put(e.getEvent().getEventId(), e);
            seen.merge(e.getEvent().getEventId(), 1, Integer::sum);
          }
        }
      }
    }

    @Override
    public void close() {
      consumer.close();
    }
  }

  /** The fields a walk decides, frame by frame. */
  static List<String> frames(SymbolicatedEvent e) {
    List<String> lines = new ArrayList<>();
    for (SymbolicatedStack s : e.getStacks()) {
      for (SymbolicatedFrame f : s.getFrames()) {
        lines.add(
            s.getIndex()
                + " "
                + f.getOriginalIndex()
                + " "
                + f.getStatus()
                + " "
                + f.getModuleOffset()
                + " "
                + f.getFunction()
                + " "
                + f.getFile()
                + ":"
                + f.getLine()
                + " "
                + f.getInlined());
      }
    }
    return lines;
  }

  static List<String> cliFrames(Case c) throws Exception {
    try (Minidump d = Minidump.open(c.dump())) {
      ProcessState s = new MinidumpProcessor(new SymbolDirectory(c.symbols())).process(d);
      CrashEvent raw = event("cli", Attachment.newBuilder().build());
      return frames(
          WalkedDumpEvent.of(
              raw, s, d.modules() == null ? List.of() : d.modules(), d.crashpadInfo(), 0L));
    }
  }

  @Test
  void everyDumpComesOutOnceWithTheCliWalksFrames() throws Exception {
    List<Case> cases = cases();
    String bucket = bucketWithSymbols("dumps" + (run + 1), cases);
    AppConfig cfg = config(bucket);
    Map<String, Case> byId = new LinkedHashMap<>();
    List<CrashEvent> events = new ArrayList<>();
    for (int copy = 0; copy < 2; copy++) {
      for (Case c : cases) {
        String id = c.name() + "-" + copy;
        byId.put(id, c);
        events.add(
            event(
                id,
                store(
                    bucket + "-dumps", "2026-11-27/" + id + ".dmp", Files.readAllBytes(c.dump()))));
      }
    }
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      send(cfg, events);
      reader.until(() -> reader.events.size() == byId.size(), Duration.ofSeconds(120));
      reader.until(() -> false, Duration.ofSeconds(2)); // nothing more
      assertThat(reader.dead).as("dead letters").isEmpty();
      assertThat(reader.seen)
          .as("every dump's event exactly once")
          .hasSize(byId.size())
          .allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
      for (var e : byId.entrySet()) {
        SymbolicatedEvent out = reader.events.get(e.getKey());
        assertThat(frames(out)).as(e.getKey()).isEqualTo(cliFrames(e.getValue())).isNotEmpty();
        assertThat(out.getMinidump()).isNotNull();
        assertThat(out.getEvent().getNative$().getMinidump().getBucket())
            .isEqualTo(bucket + "-dumps");
      }
    }
  }

  @Test
  void whileS3IsDownDumpEventsWaitAndComeOutWhenItIsBack() throws Exception {
    List<Case> cases = cases().subList(0, 1);
    String bucket = bucketWithSymbols("down" + (run + 1), cases);
    AppConfig cfg = config(bucket);
    Attachment ref = store(bucket + "-dumps", "down.dmp", Files.readAllBytes(cases.get(0).dump()));
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      s3.close();
      send(cfg, List.of(event("while-down", ref)));
      reader.until(() -> false, Duration.ofSeconds(8));
      assertThat(reader.events).as("no output while S3 is down").isEmpty();
      assertThat(reader.dead).as("and no dead letter").isEmpty();
      s3 = EmbeddedS3.startOnDirectory(s3Dir, s3Port);
      reader.until(() -> reader.events.containsKey("while-down"), Duration.ofSeconds(60));
      assertThat(reader.events).containsKey("while-down");
      assertThat(frames(reader.events.get("while-down"))).isEqualTo(cliFrames(cases.get(0)));
      assertThat(reader.dead).isEmpty();
    }
  }

  @Test
  void reprocessingWalksADumpAgainWithSymbolsThatCameLate() throws Exception {
    Case c = cases().get(0); // minidump2: test_app.pdb's symbols and CFI decide its stack
    String bucket = bucketWithSymbols("late" + (run + 1), List.of());
    AppConfig cfg = config(bucket).set("cache.missing.retry.ms", "1000");
    Attachment ref = store(bucket + "-dumps", "late.dmp", Files.readAllBytes(c.dump()));
    String module = "test_app.pdb/5A9832E5287241C1838ED98914E9B7FF1";
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      send(cfg, List.of(event("late", ref)));
      reader.until(() -> reader.events.containsKey("late"), Duration.ofSeconds(60));
      SymbolicatedEvent first = reader.events.get("late");
      assertThat(first.getMissingSymbols()).contains(module);
      assertThat(frames(first)).isNotEqualTo(cliFrames(c));
      // the symbols arrive; the events that missed the module are walked again
      try (var client = s3.client();
          Stream<Path> files = Files.walk(c.symbols())) {
        for (Path f : files.filter(p -> p.toString().endsWith(".sym")).toList()) {
          String key = c.symbols().relativize(f).toString().replace('\\', '/');
          client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(f));
        }
      }
      Thread.sleep(1500); // past cache.missing.retry.ms: the reprocessed event asks again
      var result =
          new ModuleReprocessing(cfg, line -> {})
              .run(
                  ModuleReprocessing.Selection.of(
                      "global|native|" + module, Set.of(ModuleStatus.missing), null, null),
                  false);
      assertThat(result.written()).isEqualTo(1);
      reader.until(() -> reader.seen.getOrDefault("late", 0) == 2, Duration.ofSeconds(60));
      SymbolicatedEvent second = reader.events.get("late");
      assertThat(second.getReprocessed()).isTrue();
      assertThat(frames(second)).isEqualTo(cliFrames(c));
      assertThat(second.getMissingSymbols()).doesNotContain(module);
    }
  }

  @Test
  void anAppKilledMidWalkLosesAndDuplicatesNoDump() throws Exception {
    List<Case> cases = cases();
    String bucket = bucketWithSymbols("kill" + (run + 1), cases);
    AppConfig cfg = config(bucket);
    List<Attachment> refs = new ArrayList<>();
    for (Case c : cases) {
      refs.add(store(bucket + "-dumps", c.name() + ".dmp", Files.readAllBytes(c.dump())));
    }
    int total = 120;
    List<CrashEvent> events = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      events.add(event("k-" + i, refs.get(i % refs.size())));
    }
    kafka.createTopics(2, cfg.get("topic.raw")); // the child creates the others
    send(cfg, events);
    List<String> settings = new ArrayList<>();
    for (String k :
        List.of(
            "application.id",
            "state.dir",
            "topics.partitions",
            "streams.commit.interval.ms",
            "symbols.s3.bucket",
            "symbols.s3.endpoint",
            "symbols.s3.path-style",
            "symbols.fetch.timeout.ms",
            "park.check.interval.ms",
            "minidump.fetch.retry.ms")) {
      settings.add(k + "=" + cfg.get(k));
    }
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      settings.add("topic." + t + "=" + cfg.get("topic." + t));
    }
    settings.add("streams.session.timeout.ms=6000");
    // one dump in memory at a time: the events come out about one per parking pass (100 ms), so
    // the kill after 20 outputs lands mid-stream however fast the machine (unpaced, a warm app
    // could release all 120 between two polls of the reader)
    settings.add("minidump.fetch.memory.bytes=1");
    try (Reader reader = new Reader(cfg)) {
      ChildApp first = ChildApp.start("dumps-1", kafka.bootstrapServers(), stateDir, settings);
      try {
        reader.until(() -> reader.events.size() >= 20, Duration.ofSeconds(120));
        assertThat(reader.events.size())
            .as("the first process walked some dumps")
            .isGreaterThanOrEqualTo(20);
      } finally {
        first.kill(); // SIGKILL mid-stream: walks, fetches and a transaction are cut short
      }
      reader.until(() -> false, Duration.ofSeconds(2)); // what the first process committed
      assertThat(reader.events.size()).as("killed before the end").isLessThan(total);
      try (ChildApp second =
          ChildApp.start("dumps-2", kafka.bootstrapServers(), stateDir, settings)) {
        reader.until(() -> reader.events.size() >= total, Duration.ofSeconds(180));
        reader.until(() -> false, Duration.ofSeconds(3)); // a late duplicate must be counted
        if (reader.events.size() < total) {
          second.printLogTail(System.err);
        }
      }
      assertThat(reader.dead).isEmpty();
      assertThat(reader.seen).hasSize(total);
      assertThat(reader.seen.entrySet())
          .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(1));
      for (int i = 0; i < cases.size(); i++) {
        assertThat(frames(reader.events.get("k-" + i))).isEqualTo(cliFrames(cases.get(i)));
      }
    }
  }
}

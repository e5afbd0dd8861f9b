package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.cli.SymbolicatorCli;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.reprocess.ModuleReprocessing;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JsFrame;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.testkit.events.SampleSymbols;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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

/** Symbol stores filled from S3, end to end: real broker, real S3 server, real loader and engine. */
class SymbolStoreIT {
  static final String APP_KEY = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym";
  static final String APP_MODULE = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
  static final String LIBC_MODULE = "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900";
  private static final AtomicInteger RUN = new AtomicInteger();

  private static EmbeddedKafka kafka;
  @TempDir static Path s3Dir;
  @TempDir Path stateDir;
  private static EmbeddedS3 s3;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
    s3 = EmbeddedS3.startOnDirectory(s3Dir);
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    kafka.close();
  }

  static byte[] sampleSym() throws IOException {
    try (InputStream in = SymbolStoreIT.class.getResourceAsStream("/demo/crashy.sym")) {
      return in.readAllBytes();
    }
  }

  /** A fresh bucket and fresh topics per test. */
  private record Env(AppConfig cfg, String bucket) {}

  private Env env() {
    String p = "sym" + RUN.incrementAndGet();
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(p));
    }
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
    cfg.set("symbols.s3.bucket", p)
        .set("symbols.s3.endpoint", s3.endpoint().toString())
        .set("symbols.s3.path-style", "true")
        .set("symbols.fetch.timeout.ms", "2000")
        .set("loader.backoff.ms", "100")
        .set("loader.attempts", "3")
        .set("cache.failed.retry.ms", "1000")
        .set("park.request.retry.ms", "1000");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    return new Env(cfg, p);
  }

  private static void put(String bucket, String key, byte[] body) {
    try (var client = s3.client()) {
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(body));
    }
  }

  private static void send(AppConfig cfg, String topic, byte[]... values) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (byte[] v : values) {
        producer.send(new ProducerRecord<>(cfg.get(topic), v));
      }
    }
  }

  private static void sendEvents(AppConfig cfg, CrashEvent... events) {
    for (CrashEvent e : events) {
      send(cfg, "topic.raw", WireSerdes.crashEvent().encode(e));
    }
  }

  /** Reads the output (and symbols.missing) until {@code done} holds. */
  private static final class Reader implements AutoCloseable {
    final Map<String, SymbolicatedEvent> events = new HashMap<>();
    final List<MissingSymbols> missing = new ArrayList<>();
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
      consumer.subscribe(List.of(cfg.get("topic.symbolicated"), cfg.get("topic.missing")));
    }

    boolean until(BooleanSupplier done, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!done.getAsBoolean() && System.nanoTime() < deadline) {
        poll(Duration.ofMillis(200));
      }
      return done.getAsBoolean();
    }

    void poll(Duration d) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(d)) {
        if (r.topic().equals(cfg.get("topic.missing"))) {
          missing.add(WireSerdes.missingSymbols().deserializer().deserialize(r.topic(), r.value()));
        } else {
          SymbolicatedEvent e =
              WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
          events.put(e.getEvent().getEventId(), e);
        }
      }
    }

    @Override
    public void close() {
      consumer.close();
    }
  }

  private static List<SymbolicatedFrame> frames(SymbolicatedEvent e) {
    return e.getStacks().get(0).getFrames();
  }

  private static CrashEvent event(String id, String scope) {
    CrashEvent e = SampleEvents.nativeEvent(id);
    e.setScope(scope);
    return e;
  }

  @Test
  void nativeEventsComeOutSymbolicatedAndMissingModulesAreCounted() throws Exception {
    Env env = env();
    put(env.bucket(), APP_KEY, sampleSym());
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(env.cfg(), event("e-1", "global"), event("e-2", "global"));
      assertThat(
              reader.until(
                  () -> reader.events.size() == 2 && !reader.missing.isEmpty(),
                  Duration.ofSeconds(60)))
          .isTrue();
      SymbolicatedEvent e = reader.events.get("e-1");
      assertThat(e.getModules())
          .extracting(m -> m.getStatus())
          .containsExactly(ModuleStatus.found, ModuleStatus.missing);
      List<SymbolicatedFrame> f = frames(e);
      assertThat(f.get(0).getFunction()).isEqualTo("main");
      assertThat(f.get(0).getFile()).isEqualTo("src/main.c");
      assertThat(f.get(0).getLine()).isEqualTo(12);
      // frame 1 is a caller (cfi): looked up at pc-1 on amd64, with the inlined callee first
      assertThat(f.get(1).getInlined()).isTrue();
      assertThat(f.get(1).getFunction()).isEqualTo("checked_divide(int, int)");
      assertThat(f.get(1).getFile()).isEqualTo("src/util.h");
      assertThat(f.get(2).getFunction()).isEqualTo("crash_handler(int)");
      assertThat(f.get(2).getLine()).isEqualTo(31);
      assertThat(f.get(2).getOriginalIndex()).isEqualTo(1);
      assertThat(f.get(2).getModuleOffset()).isEqualTo(0x1c40L);
      assertThat(f.get(3).getStatus()).isEqualTo(FrameStatus.missing_symbols);
      assertThat(e.getMissingSymbols()).containsExactly(LIBC_MODULE);
      assertThat(e.getModulesInStack()).containsExactly(APP_MODULE, LIBC_MODULE);
      reader.until(
          () -> reader.missing.stream().anyMatch(m -> m.getCount() == 2), Duration.ofSeconds(30));
      MissingSymbols m = reader.missing.get(reader.missing.size() - 1);
      assertThat(m.getModule()).isEqualTo(LIBC_MODULE);
      assertThat(m.getPlatform()).isEqualTo(Platform.native$);
      assertThat(m.getCount()).isEqualTo(2);
      assertThat(app.loader().stats().downloads.get())
          .as("one download for two events")
          .isEqualTo(1);
    }
  }

  @Test
  void javascriptAndJvmEventsComeOutSymbolicated() throws Exception {
    Env env = env();
    for (var u : SampleSymbols.uploads()) {
      put(env.bucket(), u.key(), u.body());
    }
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(env.cfg(), SampleEvents.jsEvent("js-1"), SampleEvents.jvmEvent("jvm-1"));
      assertThat(reader.until(() -> reader.events.size() == 2, Duration.ofSeconds(60))).isTrue();

      SymbolicatedEvent js = reader.events.get("js-1");
      assertThat(js.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
      SymbolicatedFrame top = frames(js).get(0); // app.min.js:1:1043
      assertThat(top.getFile()).isEqualTo("src/cart.js");
      assertThat(top.getLine()).isEqualTo(15);
      assertThat(top.getColumn()).isEqualTo(11);
      assertThat(top.getFunction()).isEqualTo("describe");
      assertThat(top.getContextLine()).contains("item.id");
      assertThat(top.getPreContext()).hasSize(5);
      assertThat(frames(js).get(1).getLine()).isEqualTo(10);

      SymbolicatedEvent jvm = reader.events.get("jvm-1");
      assertThat(jvm.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
      List<SymbolicatedFrame> f = frames(jvm);
      assertThat(f.get(0).getClassName()).isEqualTo("com.example.crashy.CheckoutActivity");
      assertThat(f.get(0).getFunction()).isEqualTo("onPayClicked");
      assertThat(f.get(0).getLine()).isEqualTo(66);
      assertThat(f.get(0).getFile()).isEqualTo("CheckoutActivity.kt");
      // io.example.c.b:4 is Cart.sum inlined into Cart.total
      assertThat(f.get(1).getFunction()).isEqualTo("sum");
      assertThat(f.get(1).getInlined()).isTrue();
      assertThat(f.get(2).getFunction()).isEqualTo("total");
      assertThat(f.get(2).getLine()).isEqualTo(23);
      assertThat(f.get(2).getOriginalIndex()).isEqualTo(1);
      assertThat(jvm.getExceptions().get(0).getType()).isEqualTo("PaymentException");
      assertThat(jvm.getExceptions().get(0).getModule()).isEqualTo("com.example.crashy");
      assertThat(jvm.getClasses())
          .containsEntry("io.example.a.b", "com.example.crashy.CheckoutActivity");
    }
  }

  /** Puts the sample symbol file into the bucket, announces it on symbols.uploads, waits until the loader found it. */
  private static void uploadSampleAndAwaitItsLoad(Env env, SymbolicatorApp app) throws Exception {
    put(env.bucket(), APP_KEY, sampleSym());
    send(
        env.cfg(),
        "topic.uploads",
        WireSerdes.symbolRequest()
            .encode(
                SymbolRequest.newBuilder()
                    .setScope("global")
                    .setPlatform(Platform.native$)
                    .setModuleKey(APP_MODULE)
                    .setReason(RequestReason.upload)
                    .setRequestedAt(Instant.now())
                    .build()));
    long found = app.loader().stats().found.get();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (app.loader().stats().found.get() == found && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  @Test
  void anUploadNotificationMakesTheNextEventUseTheNewFile() throws Exception {
    Env env = env();
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(env.cfg(), event("before", "global"));
      assertThat(reader.until(() -> reader.events.containsKey("before"), Duration.ofSeconds(60)))
          .isTrue();
      assertThat(reader.events.get("before").getModules().get(0).getStatus())
          .isEqualTo(ModuleStatus.missing);

      uploadSampleAndAwaitItsLoad(env, app);
      sendEvents(env.cfg(), event("after", "global"));
      assertThat(reader.until(() -> reader.events.containsKey("after"), Duration.ofSeconds(60)))
          .isTrue();
      assertThat(reader.events.get("after").getModules().get(0).getStatus())
          .isEqualTo(ModuleStatus.found);
      assertThat(frames(reader.events.get("after")).get(0).getFunction()).isEqualTo("main");
    }
  }

  /**
   * Batch reprocessing of exactly the events that missed one module: after its upload, the
   * events whose output says it was missing are written to the input again and come out
   * symbolicated, marked reprocessed (a global upload serves every scope); events without the
   * module are not, nor are those of other scopes for a scope's own selection.
   */
  @Test
  void theEventsThatMissedAModuleAreReprocessedAfterItsUpload() throws Exception {
    Env env = env();
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(
          env.cfg(),
          event("m-1", "global"),
          event("m-2", "global"),
          event("tenant-1", "tenant-x"),
          SampleEvents.jvmEvent("jvm-1"));
      assertThat(
              reader.until(
                  () ->
                      reader
                          .events
                          .keySet()
                          .containsAll(List.of("m-1", "m-2", "tenant-1", "jvm-1")),
                  Duration.ofSeconds(60)))
          .isTrue();
      assertThat(reader.events.get("m-1").getModules().get(0).getStatus())
          .isEqualTo(ModuleStatus.missing);
      assertThat(reader.events.get("tenant-1").getModules().get(0).getStatus())
          .isEqualTo(ModuleStatus.missing);
      // the key symbols.missing has for it
      String missingKey = "global|native|" + APP_MODULE;
      // symbols.missing comes after the outputs (through a repartition and a cached count)
      assertThat(
              reader.until(
                  () ->
                      reader.missing.stream()
                          .anyMatch(
                              m -> (m.getScope() + "|native|" + m.getModule()).equals(missingKey)),
                  Duration.ofSeconds(60)))
          .isTrue();
      var selection =
          ModuleReprocessing.Selection.of(
              missingKey, ModuleReprocessing.Selection.MENDABLE, null, null);
      List<String> lines = new ArrayList<>();
      assertThat(new ModuleReprocessing(env.cfg(), lines::add).loaded(selection))
          .as("not uploaded yet")
          .isFalse();
      // a window before every event selects none of them
      assertThat(
              new ModuleReprocessing(env.cfg(), lines::add)
                  .run(
                      ModuleReprocessing.Selection.of(
                          missingKey,
                          ModuleReprocessing.Selection.MENDABLE,
                          null,
                          Instant.now().minusSeconds(3600)),
                      true)
                  .matched())
          .isZero();

      ModuleReprocessing.Result dry =
          new ModuleReprocessing(env.cfg(), lines::add).run(selection, true);
      assertThat(dry.matched()).isEqualTo(3);
      assertThat(
              new ModuleReprocessing(env.cfg(), lines::add)
                  .run(
                      ModuleReprocessing.Selection.of(
                          "tenant-y|native|" + APP_MODULE,
                          ModuleReprocessing.Selection.MENDABLE,
                          null,
                          null),
                      true)
                  .matched())
          .as("another scope's own selection")
          .isZero();
      assertThat(
              new ModuleReprocessing(env.cfg(), lines::add)
                  .run(
                      ModuleReprocessing.Selection.of(
                          "tenant-x|native|" + APP_MODULE,
                          ModuleReprocessing.Selection.MENDABLE,
                          null,
                          null),
                      true)
                  .matched())
          .isEqualTo(1);
      assertThat(dry.written()).isZero();
      assertThat(dry.scanned()).isEqualTo(4);

      uploadSampleAndAwaitItsLoad(env, app);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!new ModuleReprocessing(env.cfg(), lines::add).loaded(selection)
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(new ModuleReprocessing(env.cfg(), lines::add).loaded(selection)).isTrue();
      // a tenant's selection is served by the global table too
      assertThat(
              new ModuleReprocessing(env.cfg(), lines::add)
                  .loaded(
                      ModuleReprocessing.Selection.of(
                          "tenant-x|native|" + APP_MODULE,
                          ModuleReprocessing.Selection.MENDABLE,
                          null,
                          null)))
          .isTrue();

      ModuleReprocessing.Result done =
          new ModuleReprocessing(env.cfg(), lines::add).run(selection, false, 1000);
      assertThat(done.matched()).isEqualTo(3);
      assertThat(done.written()).isEqualTo(3);
      assertThat(done.failed()).isZero();
      assertThat(done.complete(false)).isTrue();
      List<String> mended = List.of("m-1", "m-2", "tenant-1");
      assertThat(
              reader.until(
                  () -> mended.stream().allMatch(id -> reader.events.get(id).getReprocessed()),
                  Duration.ofSeconds(60)))
          .isTrue();
      for (String id : mended) {
        SymbolicatedEvent again = reader.events.get(id);
        assertThat(again.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
        assertThat(frames(again).get(0).getFunction()).isEqualTo("main");
        assertThat(again.getEvent().getAttributes())
            .containsEntry(ModuleReprocessing.REPROCESSED_ATTRIBUTE, "true");
      }
      assertThat(reader.events.get("jvm-1").getReprocessed()).as("without the module").isFalse();

      // their latest outputs have the module: nothing left to reprocess
      ModuleReprocessing.Result after =
          new ModuleReprocessing(env.cfg(), lines::add).run(selection, true);
      assertThat(after.matched()).isZero();
      assertThat(after.scanned()).isEqualTo(7);

      // the command line, as a user runs it with the app's settings
      List<String> args =
          new ArrayList<>(List.of("reprocess", "--dry-run", "--module", missingKey));
      env.cfg().asMap().forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
      String[] out = new String[2];
      assertThat(cli(args, out)).isZero();
      assertThat(out[0])
          .contains(
              "would reprocess 0 event(s) that missed " + missingKey + " (7 output records read)");
      // a module whose table was never loaded: refused before anything is written
      args.set(3, "global|native|libnothere.so/ABCDEF0123456789ABCDEF01234567890");
      args.remove(1);
      assertThat(cli(args, out)).isEqualTo(3);
      assertThat(out[1]).contains("is not loaded yet").contains("--force");
    }
  }

  /** Runs the command line; out[0] and out[1] receive its stdout and stderr. */
  private static int cli(List<String> args, String[] out) {
    var cl = SymbolicatorCli.newCommandLine();
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    cl.setOut(new PrintWriter(o, true));
    cl.setErr(new PrintWriter(e, true));
    int code = cl.execute(args.toArray(String[]::new));
    out[0] = o.toString();
    out[1] = e.toString();
    return code;
  }

  @Test
  void aMalformedSymbolFileYieldsMalformed() throws Exception {
    Env env = env();
    put(env.bucket(), APP_KEY, "<html><body>503 Service Unavailable</body></html>".getBytes());
    // a record the loader did not write on symbols.index (compacted, as the app makes it): an
    // invalid key once stopped the loader's thread while it read the index
    try (var admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(env.cfg().get("topic.index"), 2, (short) 1)
                      .configs(Map.of("cleanup.policy", "compact"))))
          .all()
          .get();
    }
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer
          .send(
              new ProducerRecord<>(
                  env.cfg().get("topic.index"), "../not a module".getBytes(), new byte[] {1}))
          .get();
    }
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(env.cfg(), event("m-1", "global"));
      assertThat(reader.until(() -> reader.events.containsKey("m-1"), Duration.ofSeconds(60)))
          .isTrue();
      SymbolicatedEvent e = reader.events.get("m-1");
      assertThat(e.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.malformed);
      assertThat(e.getModules().get(0).getMessage()).isNotBlank();
      assertThat(frames(e).get(0).getStatus()).isEqualTo(FrameStatus.malformed_symbols);
      assertThat(app.loader().indexLoaded()).isTrue();
      assertThat(app.loader().failed()).isFalse();
    }
  }

  @Test
  void aScopeNeverSeesAnotherScopesPrivateSymbols() throws Exception {
    Env env = env();
    put(env.bucket(), "scopes/tenant-a/" + APP_KEY, sampleSym());
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(env.cfg(), event("a", "tenant-a"), event("b", "tenant-b"), event("g", "global"));
      assertThat(reader.until(() -> reader.events.size() == 3, Duration.ofSeconds(60))).isTrue();
      assertThat(frames(reader.events.get("a")).get(0).getFunction()).isEqualTo("main");
      assertThat(reader.events.get("b").getModules().get(0).getStatus())
          .isEqualTo(ModuleStatus.missing);
      assertThat(frames(reader.events.get("b")).get(0).getFunction()).isNull();
      assertThat(reader.events.get("g").getModules().get(0).getStatus())
          .isEqualTo(ModuleStatus.missing);
    }
  }

  @Test
  void withS3DownEventsParkAndComeOutSymbolicatedWhenItReturns(@TempDir Path otherDir)
      throws Exception {
    Env env = env();
    put(env.bucket(), APP_KEY, sampleSym());
    put(env.bucket(), "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900/libc.so.6.sym", sampleSym());
    int port = s3.port();
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      s3.close();
      sendEvents(env.cfg(), event("p-1", "global"));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (app.loader().stats().failed.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(app.loader().stats().failed.get()).as("the loader saw S3 failing").isPositive();
      reader.poll(Duration.ofSeconds(2));
      assertThat(reader.events).as("parked while S3 is down").isEmpty();

      s3 = EmbeddedS3.startOnDirectory(s3Dir, port);
      assertThat(reader.until(() -> reader.events.containsKey("p-1"), Duration.ofSeconds(60)))
          .isTrue();
      SymbolicatedEvent e = reader.events.get("p-1");
      assertThat(e.getModules())
          .extracting(m -> m.getStatus())
          .containsExactly(ModuleStatus.found, ModuleStatus.found);
      assertThat(frames(e).get(0).getFunction()).isEqualTo("main");
      assertThat(app.loader().stats().missing.get()).as("nothing negative-cached").isZero();
    }
  }

  /** A JS event without debug ids: its maps are looked up by release + dist + the frame URLs. */
  private static CrashEvent releaseEvent(String id, String release, String dist, String... urls) {
    CrashEvent e = SampleEvents.jsEvent(id);
    e.setRelease(release);
    e.setDist(dist);
    e.getJavascript().setModules(new ArrayList<>());
    List<JsFrame> frames = e.getJavascript().getExceptions().get(0).getFrames();
    for (int i = 0; i < frames.size(); i++) {
      frames.get(i).setAbsPath(urls[Math.min(i, urls.length - 1)]);
    }
    return e;
  }

  @Test
  void javascriptMapsAreFoundByReleaseDistAndUrl() throws Exception {
    Env env = env();
    byte[] map =
        SampleSymbols.uploads().stream()
            .filter(u -> u.key().endsWith("/sourcemap"))
            .findFirst()
            .orElseThrow()
            .body();
    String url = "https://app.example.com/static/app.min.js";
    // 1. the full URL of the guessed map, under release + dist
    put(env.bucket(), JsSymbolKeys.releaseFile("shop@1.0", "web", url + ".map"), map);
    // 2. the path-only "~/" form: any host, any query string
    put(env.bucket(), JsSymbolKeys.releaseFile("shop@2.0", null, "~/static/app.min.js.map"), map);
    // 3. through the minified file's sourceMappingURL
    put(
        env.bucket(),
        JsSymbolKeys.releaseFile("shop@3.0", null, "~/static/app.min.js"),
        "console.log(1);\n//# sourceMappingURL=../maps/app.js.map\n"
            .getBytes(StandardCharsets.UTF_8));
    put(env.bucket(), JsSymbolKeys.releaseFile("shop@3.0", null, "~/maps/app.js.map"), map);
    // 4. shop@4.0 has nothing uploaded
    try (SymbolicatorApp app = SymbolicatorApp.start(env.cfg());
        Reader reader = new Reader(env.cfg())) {
      sendEvents(
          env.cfg(),
          releaseEvent("full", "shop@1.0", "web", url),
          releaseEvent(
              "tilde", "shop@2.0", null, "https://cdn-7.example.net/static/app.min.js?v=9"),
          releaseEvent("smu", "shop@3.0", null, url),
          releaseEvent("none", "shop@4.0", null, url),
          releaseEvent(
              "hostile",
              "shop@1.0",
              "web",
              "https://app.example.com/static/../../../etc/passwd",
              url));
      assertThat(
              reader.until(
                  () -> reader.events.size() == 5 && !reader.missing.isEmpty(),
                  Duration.ofSeconds(60)))
          .isTrue();

      for (String id : List.of("full", "tilde", "smu")) {
        SymbolicatedEvent e = reader.events.get(id);
        assertThat(e.getModules()).as(id).hasSize(1);
        assertThat(e.getModules().get(0).getIndex()).isEqualTo(-1);
        assertThat(e.getModules().get(0).getStatus()).as(id).isEqualTo(ModuleStatus.found);
        assertThat(e.getModules().get(0).getKey()).startsWith("release/");
        SymbolicatedFrame top = frames(e).get(0); // app.min.js:1:1043
        assertThat(top.getStatus()).isEqualTo(FrameStatus.symbolicated);
        assertThat(top.getFile()).isEqualTo("src/cart.js");
        assertThat(top.getLine()).isEqualTo(15);
        assertThat(top.getColumn()).isEqualTo(11);
        assertThat(frames(e).get(1).getLine()).isEqualTo(10);
      }

      String noneKey = JsReleaseModule.ofFrame("shop@4.0", null, url).key();
      SymbolicatedEvent none = reader.events.get("none");
      assertThat(none.getModules())
          .extracting(m -> m.getStatus())
          .containsExactly(ModuleStatus.missing);
      assertThat(none.getMissingSymbols()).containsExactly(noneKey);
      assertThat(frames(none).get(0).getStatus()).isEqualTo(FrameStatus.missing_symbols);
      assertThat(reader.missing)
          .anySatisfy(
              m -> {
                assertThat(m.getModule()).isEqualTo(noneKey);
                assertThat(m.getPlatform()).isEqualTo(Platform.javascript);
              });

      // a path trick is refused before it becomes a key; the event's other frame still symbolicates
      SymbolicatedEvent hostile = reader.events.get("hostile");
      assertThat(hostile.getModules())
          .extracting(m -> m.getStatus())
          .containsExactlyInAnyOrder(ModuleStatus.found, ModuleStatus.malformed_request);
      assertThat(frames(hostile).get(0).getStatus()).isEqualTo(FrameStatus.invalid_frame);
      assertThat(frames(hostile).get(0).getMessage()).contains("dot segment");
      assertThat(frames(hostile).get(1).getFile()).isEqualTo("src/cart.js");
      assertThat(reader.missing).noneSatisfy(m -> assertThat(m.getModule()).contains("passwd"));
      assertThat(app.loader().stats().rejected.get())
          .as("nothing invalid reached the loader")
          .isZero();
    }
  }
}

package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
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
 * Native events symbolicated from ELF debug files in S3, end to end: real broker, real S3
 * server, the application's loader and stream. The peers' files sit in the bucket in the unified
 * and debuginfod layouts and under the upload's native key, named by events by debug id or by
 * code id alone; a malformed debug file is cached as malformed with its reason, and the stream
 * goes on.
 */
class DebugFileStoreIT {
  private static final Path MOZILLA =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");
  private static final Path SYMBOLIC =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/linux");
  private static final String BASIC_DEBUG_ID = "20AD60B0B4C68177552708AA192E77390";
  private static final String BASIC_CODE_ID = "b060ad20c6b47781552708aa192e7739fac7c84a";
  private static final String CRASH_CODE_ID = "f1c3bcc0279865fe3058404b2831d9e64135386c";
  private static final String BAD_DEBUG_ID = "0123456789ABCDEF0123456789ABCDEF0";

  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  @TempDir static Path s3Dir;
  @TempDir Path stateDir;

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

  private AppConfig config(String p) {
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
        .set("symbols.fetch.timeout.ms", "5000")
        .set("loader.backoff.ms", "100")
        .set("loader.attempts", "3")
        .set("loader.cpu.share", "1")
        .set("park.request.retry.ms", "1000");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    return cfg;
  }

  private static void put(String bucket, String key, byte[] body) {
    try (var client = s3.client()) {
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(body));
    }
  }

  private static void sendEvents(AppConfig cfg, CrashEvent... events) {
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

  /** An event with one module and one frame in it, the crashing one (trust context). */
  private static CrashEvent event(String id, NativeModule module, long offset) {
    CrashEvent e = SampleEvents.nativeEvent(id);
    NativeFrame frame =
        NativeFrame.newBuilder()
            .setModuleIndex(0)
            .setModuleOffset(offset)
            .setTrust("context")
            .build();
    e.setNative$(
        NativePayload.newBuilder(e.getNative$())
            .setArch("amd64")
            .setModules(List.of(module))
            .setThreads(
                List.of(
                    NativeThread.newBuilder(e.getNative$().getThreads().get(0))
                        .setFrames(List.of(frame))
                        .build()))
            .build());
    return e;
  }

  private static NativeModule.Builder elf() {
    return NativeModule.newBuilder()
        .setType("elf")
        .setImageAddr(0x5555_0000_0000L)
        .setImageSize(0x10000L);
  }

  @Test
  void eventsAreSymbolicatedFromDebugFilesInEachLayout() throws Exception {
    String bucket = "dbg1";
    AppConfig cfg = config(bucket);
    // unified (symsorter) by build id: the stripped executable and its debug file
    String unified = BASIC_CODE_ID.substring(0, 2) + "/" + BASIC_CODE_ID.substring(2) + "/";
    put(bucket, unified + "debuginfo", Files.readAllBytes(MOZILLA.resolve("basic.dbg")));
    put(bucket, unified + "executable", Files.readAllBytes(MOZILLA.resolve("basic.stripped")));
    // debuginfod: DWARF in the .debug, unwind info in the executable
    put(
        bucket,
        "buildid/" + CRASH_CODE_ID + "/debuginfo",
        Files.readAllBytes(SYMBOLIC.resolve("crash.debug")));
    put(
        bucket,
        "buildid/" + CRASH_CODE_ID + "/executable",
        Files.readAllBytes(SYMBOLIC.resolve("crash")));
    // native: where an upload of the ELF file goes; and one that is not an ELF file at all
    put(
        bucket,
        "basic/" + BASIC_DEBUG_ID + "/basic",
        Files.readAllBytes(MOZILLA.resolve("basic.full")));
    byte[] bad = new byte[64];
    System.arraycopy(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1}, 0, bad, 0, 7);
    put(bucket, "bad/" + BAD_DEBUG_ID + "/bad", bad);

    NativeSymbolizer peer =
        NativeSymbolizer.inMemory(NativeSymbols.convert(MOZILLA.resolve("basic.full.inlines.sym")));
    var expected = peer.lookup(0x1210);

    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      sendEvents(
          cfg,
          // by code id alone (a path as the code file): unified
          event(
              "by-code-id",
              elf().setCodeId(BASIC_CODE_ID).setCodeFile("/opt/app/basic").build(),
              0x1210),
          // by build id without a name: debuginfod
          event("debuginfod", elf().setCodeId(CRASH_CODE_ID).build(), 0x1c70),
          event("malformed", elf().setDebugFile("bad").setDebugId(BAD_DEBUG_ID).build(), 0x1000));
      assertThat(reader.until(() -> reader.events.size() == 3, Duration.ofSeconds(120)))
          .as("events out: %s", reader.events.keySet())
          .isTrue();

      SymbolicatedEvent byCodeId = reader.events.get("by-code-id");
      assertThat(byCodeId.getModules().get(0).getStatus())
          .as(String.valueOf(byCodeId.getModules().get(0).getMessage()))
          .isEqualTo(ModuleStatus.found);
      assertThat(byCodeId.getModulesInStack())
          .containsExactly("buildid/" + BASIC_CODE_ID + "/basic");
      List<SymbolicatedFrame> f = byCodeId.getStacks().get(0).getFrames();
      // innermost inlined call first, then its callers, the function last: as Mozilla's .sym
      assertThat(f).hasSize(1 + expected.inlines().size());
      var innermost = expected.inlines().get(0);
      assertThat(f.get(0).getInlined()).isTrue();
      assertThat(f.get(0).getFunction()).isEqualTo(innermost.function()).isEqualTo("inline_1(int)");
      assertThat(f.get(0).getFile()).endsWith("basic.cpp");
      assertThat(f.get(0).getLine()).isEqualTo(innermost.line());
      SymbolicatedFrame outer = f.get(f.size() - 1);
      assertThat(outer.getInlined()).isFalse();
      assertThat(outer.getFunction()).isEqualTo(expected.function()).isEqualTo("foo(int)");
      assertThat(outer.getLine()).as("the call site in foo").isEqualTo(expected.line());

      SymbolicatedEvent debuginfod = reader.events.get("debuginfod");
      assertThat(debuginfod.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
      SymbolicatedFrame main = debuginfod.getStacks().get(0).getFrames().get(0);
      assertThat(main.getFunction()).isEqualTo("main");
      assertThat(main.getFile()).endsWith(".cpp");
      assertThat(main.getLine()).isPositive();

      SymbolicatedEvent malformed = reader.events.get("malformed");
      assertThat(malformed.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.malformed);
      assertThat(malformed.getModules().get(0).getMessage()).isNotBlank();

      // the process goes on: an event of the module uploaded under its native key
      sendEvents(
          cfg,
          event("native", elf().setDebugFile("basic").setDebugId(BASIC_DEBUG_ID).build(), 0x1210));
      assertThat(reader.until(() -> reader.events.containsKey("native"), Duration.ofSeconds(60)))
          .isTrue();
      SymbolicatedEvent nat = reader.events.get("native");
      assertThat(nat.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
      assertThat(nat.getStacks().get(0).getFrames().get(0).getFunction())
          .isEqualTo("inline_1(int)");
      assertThat(app.loader().stats().malformed.get()).isEqualTo(1);
      assertThat(app.loader().failed()).isFalse();
    }
  }

  private static final Path WINDOWS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
  private static final Path MOZILLA_WINDOWS =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/windows");

  /** From the MODULE lines of the .sym files Breakpad's dump_syms.exe wrote of the two PDBs. */
  private static final String CRASH_PDB_ID = "3249D99D0C4049318610F4E4FB0B69361";

  private static final String BASIC32_PDB_ID = "34060D222DBB44E5AA72243CE8326C2F2";

  private static NativeModule.Builder pe(String pdb, String id) {
    return NativeModule.newBuilder()
        .setType("pe")
        .setDebugFile(pdb)
        .setDebugId(id)
        .setImageAddr(0x40_0000L)
        .setImageSize(0x10_0000L);
  }

  /**
   * Windows events symbolicated from PDBs in S3 in Microsoft's symbol-store layout: symbolic's
   * crash.pdb as symstore.exe stores it, Mozilla's basic32.pdb CAB-compressed ({@code
   * basic32.pd_}, makecab's MSZIP); frames as the {@code .sym} Breakpad's dump_syms.exe wrote of
   * each gives them.
   */
  @Test
  void windowsEventsAreSymbolicatedFromPdbsInASymbolStoreInS3() throws Exception {
    String bucket = "dbg2";
    AppConfig cfg = config(bucket);
    cfg.set("loader.debug.file.layouts", "s3:symstore");
    put(
        bucket,
        "crash.pdb/" + CRASH_PDB_ID + "/crash.pdb",
        Files.readAllBytes(WINDOWS.resolve("crash.pdb")));
    put(
        bucket,
        "basic32.pdb/" + BASIC32_PDB_ID + "/basic32.pd_",
        Files.readAllBytes(MOZILLA_WINDOWS.resolve("basic32.pd_")));
    var crash =
        NativeSymbolizer.inMemory(NativeSymbols.convert(WINDOWS.resolve("crash.sym")))
            .lookup(0x1379);
    var basic =
        NativeSymbolizer.inMemory(NativeSymbols.convert(MOZILLA_WINDOWS.resolve("basic32.sym")))
            .lookup(0x6be7);

    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Reader reader = new Reader(cfg)) {
      sendEvents(
          cfg,
          event("crash-pdb", pe("crash.pdb", CRASH_PDB_ID).build(), 0x1379),
          event("basic32-pd_", pe("basic32.pdb", BASIC32_PDB_ID).build(), 0x6be7));
      assertThat(reader.until(() -> reader.events.size() == 2, Duration.ofSeconds(120)))
          .as("events out: %s", reader.events.keySet())
          .isTrue();
      SymbolicatedEvent c = reader.events.get("crash-pdb");
      assertThat(c.getModules().get(0).getStatus())
          .as(String.valueOf(c.getModules().get(0).getMessage()))
          .isEqualTo(ModuleStatus.found);
      // the PDB's inline site comes first (_vswprintf_s_l inlined at 0x1379, as symbolic's
      // snapshot has it, named with its argument list as symbolic names inlinees); the function
      // frame after it answers as Breakpad's crash.sym does
      var frames = c.getStacks().get(0).getFrames();
      assertThat(frames.get(0).getFunction())
          .isEqualTo(
              "_vswprintf_s_l(wchar_t* const, const unsigned int, wchar_t const* const,"
                  + " __crt_locale_pointers* const, char*)");
      SymbolicatedFrame cf = frames.get(frames.size() - 1);
      assertThat(cf.getFunction()).isEqualTo(crash.function()).isEqualTo("swprintf_s");
      assertThat(cf.getLine()).isEqualTo(crash.line());
      assertThat(cf.getFile()).isEqualToIgnoringCase(crash.file());

      SymbolicatedEvent b = reader.events.get("basic32-pd_");
      assertThat(b.getModules().get(0).getStatus())
          .as(String.valueOf(b.getModules().get(0).getMessage()))
          .isEqualTo(ModuleStatus.found);
      SymbolicatedFrame bf = b.getStacks().get(0).getFrames().get(0);
      assertThat(bf.getFunction()).startsWith("test1");
      assertThat(bf.getLine()).isEqualTo(basic.line()).isEqualTo(10);
      assertThat(bf.getFile()).isEqualToIgnoringCase(basic.file());
      assertThat(app.loader().failed()).isFalse();
    }
  }

  /** Reads the output until {@code done} holds. */
  private static final class Reader implements AutoCloseable {
    final Map<String, SymbolicatedEvent> events = new HashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;

    Reader(AppConfig cfg) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, cfg.get("application.id") + "-reader");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(List.of(cfg.get("topic.symbolicated")));
    }

    boolean until(BooleanSupplier done, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!done.getAsBoolean() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          SymbolicatedEvent e =
              WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
          events.put(e.getEvent().getEventId(), e);
        }
      }
      return done.getAsBoolean();
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}

package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.minidump.AttachmentUnavailableException;
import io.symbolicate.symbolication.minidump.FileEventSymbolicator;
import io.symbolicate.symbolication.minidump.WalkedDumpEvent;
import io.symbolicate.symbolication.minidump.WalkedDumpEventTest;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dumps walked in the stream, on the real topology: the event parks while its dump is fetched
 * and while the modules its walk consults have no answer, asks the loader for them, and comes out
 * with the same stacks as the engine's CLI walk of the same dump with the same symbols. Fetch
 * failures and unreadable dumps are dead letters with reasons; a store that is down keeps the
 * event parked until it is back.
 */
class MinidumpStreamTest {
  @TempDir Path stateDir;

  private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
  private static final Path TESTDATA = WalkedDumpEventTest.breakpadTestdata();

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestInputTopic<byte[], byte[]> tables;
  private TestOutputTopic<String, SymbolicatedEvent> out;
  private TestOutputTopic<String, SymbolRequest> requests;
  private TestOutputTopic<byte[], DeadLetter> dlq;
  private final Map<String, byte[]> bucket = new HashMap<>();
  private volatile boolean storeDown;
  private int fetches;

  /** An S3 stand-in for the topology test: the ITs use the real server. */
  private CompletableFuture<byte[]> fetch(String b, String key, long max) {
    fetches++;
    if (storeDown) {
      return CompletableFuture.failedFuture(
          new AttachmentUnavailableException(false, "connection refused"));
    }
    byte[] bytes = bucket.get(key);
    return bytes == null
        ? CompletableFuture.failedFuture(
            new AttachmentUnavailableException(true, "no such key " + key))
        : CompletableFuture.completedFuture(bytes);
  }

  private void start(int maxModules) {
    TopologyConfig cfg =
        TopologyConfig.defaults()
            .withParking(
                new TopologyConfig.Parking(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    1000,
                    Duration.ofSeconds(5),
                    Duration.ofHours(1)));
    var steps = new EnumMap<>(TestPlatforms.steps());
    steps.put(
        Platform.native$,
        new FileEventSymbolicator(
            new NativeSymbolicator(),
            this::fetch,
            new FileEventSymbolicator.Settings(
                64L << 20, 256L << 20, Duration.ofSeconds(2), maxModules, 1 << 16)));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "minidump-stream-test");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver =
        new TopologyTestDriver(
            SymbolicationTopology.build(cfg, steps, new PageCache(16 << 20)), p, T0);
    var bytes = Serdes.ByteArray().serializer();
    raw = driver.createInputTopic(cfg.topics().raw(), bytes, bytes);
    tables = driver.createInputTopic(cfg.topics().tables(), bytes, bytes);
    out =
        driver.createOutputTopic(
            cfg.topics().symbolicated(),
            Serdes.String().deserializer(),
            WireSerdes.symbolicatedEvent().deserializer());
    requests =
        driver.createOutputTopic(
            cfg.topics().requests(),
            Serdes.String().deserializer(),
            WireSerdes.symbolRequest().deserializer());
    dlq =
        driver.createOutputTopic(
            cfg.topics().dlq(),
            Serdes.ByteArray().deserializer(),
            WireSerdes.deadLetter().deserializer());
  }

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
  }

  static CrashEvent event(String id, Attachment dump) {
    return CrashEvent.newBuilder()
        .setEventId(id)
        .setPlatform(Platform.native$)
        .setNative$(NativePayload.newBuilder().setMinidump(dump).build())
        .build();
  }

  static Attachment inline(byte[] dump) {
    return Attachment.newBuilder().setData(ByteBuffer.wrap(dump)).build();
  }

  static Attachment reference(String key, byte[] dump) {
    return Attachment.newBuilder()
        .setBucket("dumps")
        .setKey(key)
        .setSize((long) dump.length)
        .setSha256(sha256(dump))
        .build();
  }

  private void send(CrashEvent e) {
    raw.pipeInput(null, WireSerdes.crashEvent().encode(e));
  }

  /**
   * Answers every module requested so far as the loader would from {@code symbols}: the table of
   * its .sym file, or missing; returns how many it answered.
   */
  private int answerRequests(Path symbols) throws Exception {
    drainRequests();
    int n = 0;
    for (SymbolRequest r : allRequests) {
      if (!answered.add(r.getModuleKey())) {
        continue;
      }
      n++;
      ModuleRef ref = new ModuleRef(r.getScope(), TableKind.NATIVE, r.getModuleKey());
      String[] parts = r.getModuleKey().split("/");
      String stem =
          parts[0].endsWith(".pdb") ? parts[0].substring(0, parts[0].length() - 4) : parts[0];
      Path sym = symbols.resolve(parts[0]).resolve(parts[1]).resolve(stem + ".sym");
      if (Files.isRegularFile(sym)) {
        NativeTable table = NativeSymbols.convert(sym);
        List<Long> keys = new ArrayList<>();
        for (TablePage page : table.pages()) {
          tables.pipeInput(TableKeys.page(ref, 1, page.firstKey()), page.bytes());
          keys.add(page.firstKey());
        }
        tables.pipeInput(
            TableKeys.state(ref),
            WireSerdes.moduleState()
                .encode(
                    io.symbolicate.schema.ModuleState.newBuilder()
                        .setModule(ref.toString())
                        .setStatus(TableStatus.found)
                        .setFormatVersion(table.formatVersion())
                        .setGeneration(1)
                        .setHeader(ByteBuffer.wrap(table.header()))
                        .setPageCount(keys.size())
                        .setPageKeys(keys)
                        .setTableBytes(0)
                        .setSource("test")
                        .setMessage(null)
                        .setUpdatedAt(T0)
                        .setLastUsed(null)
                        .setRetryAfter(null)
                        .build()));
      } else {
        tables.pipeInput(
            TableKeys.state(ref),
            WireSerdes.moduleState()
                .encode(
                    io.symbolicate.schema.ModuleState.newBuilder()
                        .setModule(ref.toString())
                        .setStatus(TableStatus.missing)
                        .setFormatVersion(0)
                        .setGeneration(0)
                        .setHeader(null)
                        .setPageCount(0)
                        .setPageKeys(List.of())
                        .setTableBytes(0)
                        .setSource("test")
                        .setMessage("no symbol file")
                        .setUpdatedAt(T0)
                        .setLastUsed(null)
                        .setRetryAfter(T0.plus(Duration.ofHours(1)))
                        .build()));
      }
    }
    return n;
  }

  private final List<SymbolRequest> allRequests = new ArrayList<>();
  private final Set<String> answered = new HashSet<>();

  /** The requests sent since the last call (kept for answering). */
  private List<SymbolRequest> drainRequests() {
    List<SymbolRequest> fresh = requests.readValuesToList();
    allRequests.addAll(fresh);
    return fresh;
  }

  /** Answers requests and lets the punctuator run until the event comes out (bounded). */
  private SymbolicatedEvent runUntilOut(Path symbols) throws Exception {
    for (int round = 0; round < 10 && out.isEmpty(); round++) {
      answerRequests(symbols);
      driver.advanceWallClockTime(Duration.ofMillis(200));
    }
    assertThat(out.isEmpty()).as("the dump's event came out").isFalse();
    return out.readValue();
  }

  private static SymbolicatedEvent cliWalk(Path dump, Path symbols) throws Exception {
    try (Minidump d = Minidump.open(dump)) {
      ProcessState s = new MinidumpProcessor(new SymbolDirectory(symbols)).process(d);
      return WalkedDumpEvent.of(
          WalkedDumpEventTest.raw("cli", s.cpu()),
          s,
          d.modules() == null ? List.of() : d.modules(),
          d.crashpadInfo(),
          T0.toEpochMilli());
    }
  }

  /** What a frame says, the fields a walk decides. */
  private static List<String> frames(SymbolicatedEvent e) {
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
                + f.getModuleIndex()
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

  @Test
  void anInlineDumpParksForItsModulesThenMatchesTheCliWalk() throws Exception {
    start(128);
    Path dump = TESTDATA.resolve("minidump2.dmp");
    send(event("d-1", inline(Files.readAllBytes(dump))));
    assertThat(out.isEmpty()).as("parked until its modules have answers").isTrue();
    assertThat(drainRequests())
        .extracting(SymbolRequest::getModuleKey)
        .contains("test_app.pdb/5A9832E5287241C1838ED98914E9B7FF1");
    SymbolicatedEvent e = runUntilOut(TESTDATA.resolve("symbols"));
    SymbolicatedEvent cli = cliWalk(dump, TESTDATA.resolve("symbols"));
    assertThat(frames(e)).isEqualTo(frames(cli)).isNotEmpty();
    assertThat(e.getMinidump().getCrashReason()).isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE");
    assertThat(e.getModulesInStack()).isEqualTo(cli.getModulesInStack());
    assertThat(e.getModules())
        .extracting(ModuleResult::getStatus)
        .isEqualTo(cli.getModules().stream().map(ModuleResult::getStatus).toList());
    assertThat(dlq.isEmpty()).isTrue();
  }

  @Test
  void aDumpByReferenceWaitsWhileTheStoreIsDownAndComesOutWhenItIsBack() throws Exception {
    start(128);
    byte[] dump = Files.readAllBytes(TESTDATA.resolve("minidump2.dmp"));
    bucket.put("2026-11-27/d-2/upload_file_minidump.dmp", dump);
    storeDown = true;
    send(event("d-2", reference("2026-11-27/d-2/upload_file_minidump.dmp", dump)));
    for (int i = 0; i < 20; i++) {
      driver.advanceWallClockTime(Duration.ofSeconds(10)); // far past the 30 s module deadline
    }
    assertThat(out.isEmpty()).as("no output without the dump").isTrue();
    assertThat(dlq.isEmpty()).as("a store that is down loses nothing").isTrue();
    assertThat(drainRequests()).as("no module known before the walk").isEmpty();
    assertThat(fetches)
        .as("tried again every fetch.retry, not at every pass")
        .isBetween(2, 200 / 2);
    storeDown = false;
    for (int i = 0; i < 3; i++) {
      driver.advanceWallClockTime(
          Duration.ofSeconds(2)); // the next retry, then the fetched dump's walk
    }
    SymbolicatedEvent e = runUntilOut(TESTDATA.resolve("symbols"));
    assertThat(frames(e))
        .isEqualTo(frames(cliWalk(TESTDATA.resolve("minidump2.dmp"), TESTDATA.resolve("symbols"))));
    assertThat(e.getEvent().getNative$().getMinidump().getKey())
        .as("the raw event keeps its reference")
        .isEqualTo("2026-11-27/d-2/upload_file_minidump.dmp");
  }

  @Test
  void aDumpThatIsGoneOrDiffersIsADeadLetterWithItsReference() throws Exception {
    start(128);
    byte[] dump = Files.readAllBytes(TESTDATA.resolve("minidump2.dmp"));
    send(event("gone", reference("nowhere.dmp", dump)));
    bucket.put("other.dmp", dump);
    Attachment wrongHash =
        Attachment.newBuilder(reference("other.dmp", dump)).setSha256("00".repeat(32)).build();
    send(event("changed", wrongHash));
    driver.advanceWallClockTime(Duration.ofMillis(200));
    Map<String, DeadLetter> byId = new HashMap<>();
    for (DeadLetter d : dlq.readValuesToList()) {
      byId.put(d.getEventId(), d);
    }
    assertThat(byId).containsOnlyKeys("gone", "changed");
    assertThat(byId.get("gone").getErrorKind()).isEqualTo(ErrorKind.attachment_unavailable);
    assertThat(byId.get("gone").getMessage()).contains("s3://dumps/nowhere.dmp", "no such key");
    assertThat(byId.get("changed").getErrorKind()).isEqualTo(ErrorKind.attachment_unavailable);
    assertThat(byId.get("changed").getMessage()).contains("SHA-256");
    // the dead letter holds the raw event, reference included, so it can be replayed
    CrashEvent replay = WireSerdes.crashEvent().decode(byId.get("gone").getOriginalValue().array());
    assertThat(replay.getNative$().getMinidump().getKey()).isEqualTo("nowhere.dmp");
    assertThat(out.isEmpty()).isTrue();
  }

  @Test
  void aDumpThatDoesNotReadIsADeadLetterWithTheReadersReason() {
    start(128);
    send(
        event(
            "junk",
            inline(
                "MDMP but not really a minidump"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
    send(event("empty", Attachment.newBuilder().build()));
    driver.advanceWallClockTime(Duration.ofMillis(200));
    Map<String, DeadLetter> byId = new HashMap<>();
    for (DeadLetter d : dlq.readValuesToList()) {
      byId.put(d.getEventId(), d);
    }
    assertThat(byId.get("junk").getErrorKind()).isEqualTo(ErrorKind.unreadable_attachment);
    assertThat(byId.get("junk").getMessage()).startsWith("the minidump (inline) cannot be read: ");
    assertThat(byId.get("empty").getErrorKind()).isEqualTo(ErrorKind.invalid_event);
    assertThat(out.isEmpty()).isTrue();
  }

  @Test
  void theWalkAsksForAtMostMaxModulesAndSaysSoOfTheRest() throws Exception {
    start(1);
    Path dump = TESTDATA.resolve("minidump2.dmp");
    send(event("capped", inline(Files.readAllBytes(dump))));
    assertThat(drainRequests()).extracting(SymbolRequest::getModuleKey).hasSize(1);
    SymbolicatedEvent e = runUntilOut(TESTDATA.resolve("symbols"));
    assertThat(allRequests)
        .extracting(SymbolRequest::getModuleKey)
        .as("never more than one module")
        .hasSize(1);
    assertThat(e.getModules())
        .filteredOn(m -> m.getStatus() == ModuleStatus.fetch_failed)
        .isNotEmpty()
        .allMatch(m -> m.getMessage().contains("max.modules.per.event=1"));
    assertThat(e.getModules()).filteredOn(m -> m.getStatus() == ModuleStatus.found).hasSize(1);
  }

  @Test
  void anAppleReportByReferenceComesOutAsTheSameReportInline() throws Exception {
    start(128);
    byte[] report =
        Files.readAllBytes(
            io.symbolicate.symbols.testing.SharedFixtures.fixtures("apple-crash")
                .resolve("symbolicator/tests/fixtures/apple_crash_report.txt"));
    bucket.put("reports/a.crash", report);
    Attachment ref =
        Attachment.newBuilder()
            .setBucket("dumps")
            .setKey("reports/a.crash")
            .setSize((long) report.length)
            .setSha256(sha256(report))
            .build();
    send(
        CrashEvent.newBuilder()
            .setEventId("by-ref")
            .setPlatform(Platform.native$)
            .setNative$(NativePayload.newBuilder().setAppleCrashReport(ref).build())
            .build());
    send(
        CrashEvent.newBuilder()
            .setEventId("inline")
            .setPlatform(Platform.native$)
            .setNative$(NativePayload.newBuilder().setAppleCrashReport(inline(report)).build())
            .build());
    Map<String, SymbolicatedEvent> byId = new HashMap<>();
    for (int round = 0; round < 10 && byId.size() < 2; round++) {
      answerRequests(stateDir); // no symbol files here: every module is missing
      driver.advanceWallClockTime(Duration.ofMillis(200));
      out.readValuesToList().forEach(e -> byId.put(e.getEvent().getEventId(), e));
    }
    assertThat(byId).containsOnlyKeys("by-ref", "inline");
    SymbolicatedEvent byRef = byId.get("by-ref");
    assertThat(byRef.getEvent().getNative$().getModules()).isNotEmpty();
    assertThat(frames(byRef)).isEqualTo(frames(byId.get("inline"))).isNotEmpty();
    assertThat(byRef.getModules())
        .extracting(ModuleResult::getStatus)
        .isEqualTo(byId.get("inline").getModules().stream().map(ModuleResult::getStatus).toList());
    assertThat(byRef.getEvent().getAttributes())
        .isEqualTo(byId.get("inline").getEvent().getAttributes());
    assertThat(dlq.isEmpty()).isTrue();
  }

  @Test
  void anAppleReportByReferenceThatDoesNotParseIsADeadLetter() {
    start(128);
    bucket.put(
        "reports/junk.crash", "hello\nworld\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    send(
        CrashEvent.newBuilder()
            .setEventId("junk-report")
            .setPlatform(Platform.native$)
            .setNative$(
                NativePayload.newBuilder()
                    .setAppleCrashReport(
                        Attachment.newBuilder()
                            .setBucket("dumps")
                            .setKey("reports/junk.crash")
                            .build())
                    .build())
            .build());
    driver.advanceWallClockTime(Duration.ofMillis(200));
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.unreadable_attachment);
    assertThat(d.getMessage())
        .startsWith("native.apple_crash_report (s3://dumps/reports/junk.crash): ");
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

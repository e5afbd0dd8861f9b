package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.reprocess.ModuleReprocessing;
import io.symbolicate.app.reset.StreamsReset;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.events.SampleEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stream app against a real in-process KRaft broker. */
class PipelineIT {
  private static EmbeddedKafka kafka;
  private static final AtomicInteger RUN = new AtomicInteger();

  @TempDir Path stateDir;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  /** Config with per-test topic names so tests do not see each other's records. */
  private AppConfig config(String prefix) {
    return AppConfig.defaults()
        .set("bootstrap.servers", kafka.bootstrapServers())
        .set("application.id", prefix + "-app")
        .set("topic.raw", prefix + ".raw")
        .set("topic.symbolicated", prefix + ".symbolicated")
        .set("topic.dlq", prefix + ".dlq")
        .set("topics.partitions", "2")
        .set("state.dir", stateDir.toString())
        .set("streams.commit.interval.ms", "100");
  }

  @Test
  void everyPlatformFlowsAndEveryKindOfBadInputReachesTheDlq() throws Exception {
    String prefix = "mix" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix).set("max.event.bytes", String.valueOf(512 * 1024));
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
      assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
      List<byte[]> inputs =
          List.of(
              avro(SampleEvents.nativeEvent("n-1")),
              SampleEvents.undecodableBytes(),
              avro(SampleEvents.jsEvent("j-1")),
              SampleEvents.invalidJson(),
              avro(SampleEvents.jvmEvent("v-1")),
              SampleEvents.missingEventIdJson(),
              SampleEvents.nativeEventJson("n-json").getBytes(StandardCharsets.UTF_8),
              SampleEvents.unknownPlatformJson("cobol-1"),
              avro(SampleEvents.hugeEvent("huge-frames", 50_000)),
              new byte[900 * 1024],
              avro(SampleEvents.jvmEvent("v-2")));
      produce(cfg.get("topic.raw"), inputs, true);

      Map<String, SymbolicatedEvent> out = new HashMap<>();
      List<DeadLetter> dead = new ArrayList<>();
      consumeUntil(
          cfg, out, dead, () -> out.size() >= 5 && dead.size() >= 6, Duration.ofSeconds(60));

      assertThat(out.keySet()).containsExactlyInAnyOrder("n-1", "j-1", "v-1", "n-json", "v-2");
      assertThat(out.get("n-1").getEvent().getPlatform()).isEqualTo(Platform.native$);
      // no symbol source is configured here: every needed module is honestly missing
      assertThat(out.get("j-1").getStacks().get(0).getFrames())
          .allMatch(f -> f.getStatus() == FrameStatus.missing_symbols);
      assertThat(out.get("v-1").getModules())
          .allMatch(m -> m.getStatus() == io.symbolicate.schema.ModuleStatus.missing);
      assertThat(out.get("n-1").getStacks().get(0).getFrames())
          .extracting(f -> f.getStatus())
          .contains(FrameStatus.invalid_frame, FrameStatus.unknown_module);
      // signed in the stream: the JVM event (no mapping) by its raw frames, newest first
      var expected =
          io.symbolicate.signatures.SignatureGenerator.withDefaultLists()
              .generate(
                  io.symbolicate.signatures.CrashData.builder()
                      .javaException(
                          io.symbolicate.signatures.JavaException.of(
                              new io.symbolicate.signatures.JavaStackTrace(
                                  "a",
                                  "io.example.b",
                                  "boom",
                                  List.of(
                                      new io.symbolicate.signatures.JavaFrame(
                                          "io.example.c", "b", null),
                                      new io.symbolicate.signatures.JavaFrame(
                                          "io.example.a.b", "a", null)))))
                      .build());
      assertThat(out.get("v-1").getSignature())
          .isEqualTo(expected.signature())
          .contains("io.example.b.a");
      assertThat(out.get("v-1").getProtoSignature()).isEqualTo(expected.protoSignature());
      assertThat(out.values())
          .allSatisfy(e -> assertThat(e.getSignature()).as(e.getEvent().getEventId()).isNotBlank());
      assertThat(dead)
          .extracting(DeadLetter::getErrorKind)
          .containsExactlyInAnyOrder(
              ErrorKind.undecodable,
              ErrorKind.invalid_json,
              ErrorKind.invalid_event,
              ErrorKind.unknown_platform,
              ErrorKind.too_large,
              ErrorKind.too_large);
      assertThat(dead)
          .allSatisfy(
              d -> {
                assertThat(d.getMessage()).isNotBlank();
                assertThat(d.getSourceTopic()).isEqualTo(prefix + ".raw");
                assertThat(d.getOriginalValue().remaining())
                    .isEqualTo(d.getOriginalSize())
                    .isPositive();
              });
      assertThat(dead)
          .filteredOn(d -> d.getErrorKind() == ErrorKind.too_large)
          .extracting(DeadLetter::getOriginalSize)
          .contains(900 * 1024);
    }
  }

  /**
   * Records that once stopped their partition for good on this broker (the task failed, the
   * replaced thread read the same record again, and nothing after it came out), under
   * exactly-once: an output larger than the output topic takes, a debug file name with the
   * module-name separator, an instant beyond the millisecond range. Each is one output or one
   * dead letter, and the event after them flows.
   */
  @Test
  void recordsThatOnceStoppedAPartitionAreOneOutputOrOneDeadLetter() throws Exception {
    String prefix = "stopper" + RUN.incrementAndGet();
    // small topics: the output limit is ~240 KB, which the big event's output exceeds
    AppConfig cfg =
        config(prefix)
            .set("topics.partitions", "1")
            .set("dlq.max.message.bytes", String.valueOf(256 << 10));
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
      assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
      byte[] big = avro(SampleEvents.hugeEvent("big", 15_000));
      List<byte[]> inputs =
          List.of(
              big,
              SampleEvents.nativeEventJson("pipe")
                  .replace("\"debug_file\": \"crashy\"", "\"debug_file\": \"a|b.pdb\"")
                  .getBytes(StandardCharsets.UTF_8),
              ("{\"event_id\": \"far\", \"platform\": \"jvm\", \"jvm\": {},"
                      + " \"received_at\": \"+1000000000-12-31T23:59:59Z\"}")
                  .getBytes(StandardCharsets.UTF_8),
              avro(SampleEvents.jvmEvent("after")));
      produce(cfg.get("topic.raw"), inputs, false);

      Map<String, SymbolicatedEvent> out = new HashMap<>();
      List<DeadLetter> dead = new ArrayList<>();
      consumeUntil(
          cfg, out, dead, () -> out.size() >= 2 && dead.size() >= 2, Duration.ofSeconds(90));

      assertThat(out.keySet()).containsExactlyInAnyOrder("pipe", "after");
      assertThat(out.get("pipe").getModules().get(0).getStatus())
          .isEqualTo(io.symbolicate.schema.ModuleStatus.malformed_request);
      assertThat(dead).extracting(DeadLetter::getEventId).containsExactlyInAnyOrder("big", "far");
      DeadLetter tooLarge =
          dead.stream().filter(d -> "big".equals(d.getEventId())).findFirst().orElseThrow();
      assertThat(tooLarge.getErrorKind()).isEqualTo(ErrorKind.too_large);
      assertThat(tooLarge.getMessage()).contains("more than the output's limit");
      byte[] original = new byte[tooLarge.getOriginalValue().remaining()];
      tooLarge.getOriginalValue().get(original);
      // a native event waits for its modules and is released by a punctuation, which has no
      // source record: its dead letter holds the event re-encoded (the same bytes here) and the
      // position its parked key names
      assertThat(original).isEqualTo(big);
      assertThat(tooLarge.getSourceTopic()).isEqualTo(cfg.get("topic.raw"));
      assertThat(tooLarge.getSourcePartition()).isZero();
      assertThat(tooLarge.getSourceOffset()).isZero();
    }
  }

  /**
   * An output topic created outside the app with the broker's 1 MB limit would refuse outputs
   * the app allows itself (up to dlq.max.message.bytes, 8 MB): the app refuses to start instead
   * of stopping a partition later. A topic that takes enough passes (the restart test below
   * starts twice on topics the first start created).
   */
  @Test
  void anExistingOutputTopicThatTakesLessThanTheAppWritesStopsTheStart() {
    String prefix = "small" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix);
    kafka.createTopics(
        List.of(
            new NewTopic(cfg.get("topic.symbolicated"), 1, (short) 1)
                .configs(Map.of("max.message.bytes", String.valueOf(1 << 20)))));
    assertThatThrownBy(() -> SymbolicatorApp.start(cfg).close())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(
            "topic " + prefix + ".symbolicated takes records of at most 1048576 bytes")
        .hasMessageContaining("dlq.max.message.bytes is " + (8 << 20));
    // within its limit, the same topic is fine
    try (SymbolicatorApp app =
        SymbolicatorApp.start(cfg.set("dlq.max.message.bytes", String.valueOf(1 << 20)))) {
      assertThat(app.streams()).isNotNull();
    }
  }

  /**
   * Reprocessing: a reset of the stopped app moves its input offsets back and deletes its
   * internal topics and local state, and the next run symbolicates every event again. While an
   * instance runs, the reset is refused.
   */
  @Test
  void aResetMakesTheNextRunReadTheInputAgain() throws Exception {
    String prefix = "reset" + RUN.incrementAndGet();
    // a missing-symbols topic of its own: the clean at the end deletes it
    AppConfig cfg = config(prefix).set("topic.missing", prefix + ".missing");
    int total = 30;
    List<byte[]> events = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      events.add(
          avro(i % 2 == 0 ? SampleEvents.jsEvent("r-" + i) : SampleEvents.nativeEvent("r-" + i)));
    }
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
      assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
      produce(cfg.get("topic.raw"), events, false);
      Map<String, Integer> first = new HashMap<>();
      countOutputs(cfg, first, () -> first.size() >= total, Duration.ofSeconds(120), "reader-1");
      assertThat(first).hasSize(total);
      assertThatThrownBy(() -> new StreamsReset(cfg).plan(null))
          .isInstanceOf(StreamsReset.ResetException.class)
          .hasMessageContaining("still running");
      assertThatThrownBy(() -> new StreamsReset(cfg).planClean(false))
          .isInstanceOf(StreamsReset.ResetException.class)
          .hasMessageContaining("still running");
    }
    Path state = stateDir.resolve(prefix + "-app");
    assertThat(state.resolve("global")).exists();
    String app = prefix + "-app";
    // another app whose id starts with this one's: its topics are not this app's to delete
    String decoy = app + "-eu-parked-events-native-changelog";
    kafka.createTopics(1, decoy);

    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      var loaderOffsets =
          admin.listConsumerGroupOffsets(app + "-loader").partitionsToOffsetAndMetadata().get();
      StreamsReset.Plan plan = new StreamsReset(cfg).plan(null);
      assertThat(plan.kind()).isEqualTo(StreamsReset.GroupKind.CLASSIC);
      assertThat(plan.offsets()).hasSize(2).allSatisfy((tp, offset) -> assertThat(offset).isZero());
      assertThat(plan.current().values().stream().mapToLong(Long::longValue).sum())
          .isEqualTo(total);
      assertThat(plan.skipsAhead()).isEmpty();
      assertThat(plan.internalTopics())
          .containsExactlyInAnyOrder(
              app + "-parked-events-native-changelog",
              app + "-parked-events-javascript-changelog",
              app + "-parked-events-jvm-changelog",
              app + "-missing-symbols-changelog",
              app + "-missing-by-module-repartition");
      assertThat(plan.describe())
          .containsPattern(prefix + "\\.raw offsets 0: (\\d+|none) -> 0, 1: (\\d+|none) -> 0");
      // to an instant: the first record at or after it; past every record, the end
      assertThat(
              new StreamsReset(cfg)
                  .plan(java.time.Instant.now().minusSeconds(3600))
                  .offsets()
                  .values())
          .containsOnly(0L);
      assertThat(
              new StreamsReset(cfg)
                  .plan(java.time.Instant.now().plusSeconds(3600)).offsets().values().stream()
                      .mapToLong(Long::longValue)
                      .sum())
          .isEqualTo(total);

      new StreamsReset(cfg).apply(plan, false);
      assertThat(state.resolve("global"))
          .as("the global store's copy of symbols.tables stays")
          .exists();
      try (var children = java.nio.file.Files.list(state)) {
        // and Kafka Streams' lock file, which the reset held while it worked
        assertThat(children.map(c -> c.getFileName().toString())).containsOnly("global", ".lock");
      }
      var after = admin.listConsumerGroupOffsets(app).partitionsToOffsetAndMetadata().get();
      assertThat(
              after.entrySet().stream()
                  .filter(e -> e.getKey().topic().equals(cfg.get("topic.raw"))))
          .hasSize(2)
          .allSatisfy(e -> assertThat(e.getValue().offset()).isZero());
      assertThat(admin.listTopics().names().get())
          .contains(decoy)
          .doesNotContain(plan.internalTopics().get(0));
      assertThat(
              admin.listConsumerGroupOffsets(app + "-loader").partitionsToOffsetAndMetadata().get())
          .as("the loader's group is not the app's")
          .isEqualTo(loaderOffsets);
    }

    try (SymbolicatorApp again = SymbolicatorApp.start(cfg)) {
      assertThat(again.awaitRunning(Duration.ofSeconds(60))).isTrue();
      Map<String, Integer> all = new HashMap<>();
      countOutputs(
          cfg,
          all,
          () -> all.values().stream().mapToInt(Integer::intValue).sum() >= 2 * total,
          Duration.ofSeconds(120),
          "reader-2");
      assertThat(all).hasSize(total);
      assertThat(all.entrySet())
          .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(2));
    }

    // an instance on this machine that has not joined the group yet (restoring its global
    // store) already holds the state directory's lock: neither a clean nor a reset goes on
    try (SymbolicatorApp starting = SymbolicatorApp.create(cfg)) {
      StreamsReset.CleanPlan early = new StreamsReset(cfg).planClean(false);
      assertThatThrownBy(() -> new StreamsReset(cfg).applyClean(early, false))
          .isInstanceOf(StreamsReset.ResetException.class)
          .hasMessageContaining("an instance on this machine");
      StreamsReset.Plan resetEarly = new StreamsReset(cfg).plan(null);
      assertThatThrownBy(() -> new StreamsReset(cfg).apply(resetEarly, true))
          .isInstanceOf(StreamsReset.ResetException.class)
          .hasMessageContaining("an instance on this machine");
    }
    // an output configured onto the input or a symbol topic is never among the outputs to delete
    AppConfig sharing =
        config(prefix)
            .set("topic.missing", cfg.get("topic.tables"))
            .set("topic.dlq", cfg.get("topic.raw"));
    assertThat(new StreamsReset(sharing).planClean(false).outputTopics())
        .containsExactly(prefix + ".symbolicated");

    // clean: the app leaves the cluster; its outputs go only when asked for
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      var loaderOffsets =
          admin.listConsumerGroupOffsets(app + "-loader").partitionsToOffsetAndMetadata().get();
      List<String> outputs =
          List.of(prefix + ".symbolicated", prefix + ".dlq", prefix + ".missing");
      StreamsReset.CleanPlan clean = new StreamsReset(cfg).planClean(false);
      assertThat(clean.kind()).isEqualTo(StreamsReset.GroupKind.CLASSIC);
      assertThat(clean.parkedEvents()).isZero();
      assertThat(clean.internalTopics())
          .hasSize(5)
          .allSatisfy(t -> assertThat(t).startsWith(app + "-"))
          .doesNotContain(decoy);
      assertThat(clean.outputTopics()).containsExactlyInAnyOrderElementsOf(outputs);
      assertThat(clean.topicsToDelete())
          .containsExactlyInAnyOrderElementsOf(clean.internalTopics());
      assertThat(clean.describe()).contains("output topics kept");
      new StreamsReset(cfg).applyClean(clean, false);

      assertThat(admin.listGroups().all().get())
          .extracting(g -> g.groupId())
          .doesNotContain(app)
          .contains(app + "-loader");
      assertThat(
              admin.listConsumerGroupOffsets(app + "-loader").partitionsToOffsetAndMetadata().get())
          .as("the loader's group is not the app's")
          .isEqualTo(loaderOffsets);
      Set<String> topics = admin.listTopics().names().get();
      assertThat(topics)
          .doesNotContainAnyElementsOf(clean.internalTopics())
          .contains(decoy, cfg.get("topic.raw"), cfg.get("topic.tables"), cfg.get("topic.requests"))
          .containsAll(outputs);
      assertThat(state).doesNotExist();

      // once more, outputs too: no group left to delete, nothing internal either
      StreamsReset.CleanPlan outputsToo = new StreamsReset(cfg).planClean(true);
      assertThat(outputsToo.kind()).isEqualTo(StreamsReset.GroupKind.NONE);
      assertThat(outputsToo.topicsToDelete()).containsExactlyInAnyOrderElementsOf(outputs);
      new StreamsReset(cfg).applyClean(outputsToo, false);
      assertThat(admin.listTopics().names().get())
          .doesNotContainAnyElementsOf(outputs)
          .contains(decoy, cfg.get("topic.raw"), cfg.get("topic.tables"));
    }
  }

  /** The same for an app on the streams rebalance protocol (KIP-1071), whose group is no consumer group. */
  @Test
  void aResetKnowsAGroupOfTheStreamsProtocol() throws Exception {
    String prefix = "resetstreams" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix).set("streams.group.protocol", "streams");
    int total = 6;
    List<byte[]> events = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      events.add(avro(SampleEvents.jsEvent("s-" + i)));
    }
    String app = prefix + "-app";
    try (SymbolicatorApp running = SymbolicatorApp.start(cfg)) {
      assertThat(running.awaitRunning(Duration.ofSeconds(60))).isTrue();
      produce(cfg.get("topic.raw"), events, false);
      Map<String, Integer> seen = new HashMap<>();
      countOutputs(cfg, seen, () -> seen.size() >= total, Duration.ofSeconds(120), "reader");
      assertThat(seen).hasSize(total);
      assertThatThrownBy(() -> new StreamsReset(cfg).plan(null))
          .isInstanceOf(StreamsReset.ResetException.class)
          .hasMessageContaining("still running");
    }
    StreamsReset.Plan plan = new StreamsReset(cfg).plan(null);
    assertThat(plan.kind()).isEqualTo(StreamsReset.GroupKind.STREAMS);
    assertThat(plan.current().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(total);
    new StreamsReset(cfg).apply(plan, false);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      var offsets =
          admin
              .listStreamsGroupOffsets(
                  Map.of(app, new org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec()))
              .partitionsToOffsetAndMetadata(app)
              .get();
      assertThat(
              offsets.entrySet().stream()
                  .filter(e -> e.getKey().topic().equals(cfg.get("topic.raw"))))
          .isNotEmpty()
          .allSatisfy(e -> assertThat(e.getValue().offset()).isZero());

      // and a clean deletes the streams group itself and its state (the reset deleted the
      // internal topics already)
      assertThat(stateDir.resolve(app).resolve("global")).exists();
      StreamsReset.CleanPlan clean = new StreamsReset(cfg).planClean(false);
      assertThat(clean.kind()).isEqualTo(StreamsReset.GroupKind.STREAMS);
      new StreamsReset(cfg).applyClean(clean, false);
      assertThat(admin.listGroups().all().get()).extracting(g -> g.groupId()).doesNotContain(app);
      assertThat(stateDir.resolve(app)).doesNotExist();
      StreamsReset.CleanPlan again = new StreamsReset(cfg).planClean(false);
      assertThat(again.kind()).isEqualTo(StreamsReset.GroupKind.NONE);
      assertThat(again.internalTopics()).isEmpty();
      new StreamsReset(cfg).applyClean(again, false); // nothing left: a second clean is harmless
    }
  }

  /**
   * {@code --delete-outputs} refuses an output that another producer wrote to: a reprocessing
   * app that changed only its id must not delete the running app's outputs.
   */
  @Test
  void aCleanKeepsOutputsThatAnotherProducerWrites() throws Exception {
    String prefix = "cleanshared" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix);
    kafka.createTopics(1, cfg.get("topic.symbolicated"), cfg.get("topic.dlq"));
    produce(
        cfg.get("topic.symbolicated"),
        List.of("from another app".getBytes(StandardCharsets.UTF_8)),
        false);
    StreamsReset.CleanPlan kept = new StreamsReset(cfg).planClean(false);
    assertThat(kept.outputTopics()).contains(cfg.get("topic.symbolicated"), cfg.get("topic.dlq"));
    assertThat(kept.topicsToDelete()).isEmpty();
    assertThatThrownBy(() -> new StreamsReset(cfg).planClean(true))
        .isInstanceOf(StreamsReset.ResetException.class)
        .hasMessageContaining(
            "output topic "
                + cfg.get("topic.symbolicated")
                + " was written recently by producer id");
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(admin.listTopics().names().get())
          .contains(cfg.get("topic.symbolicated"), cfg.get("topic.dlq"));
    }
  }

  /**
   * Events still parked when the app stopped live only in the changelogs a reset deletes: a reset
   * to an instant after them starts at the first of them instead.
   */
  @Test
  void aResetNeverStartsAfterAnEventThatWasStillParked() throws Exception {
    String prefix = "resetparked" + RUN.incrementAndGet();
    // no loader: every native event waits for its modules (park.timeout.ms is a minute). The
    // modules are this test's own: symbols.tables is shared by the tests on this broker, and a
    // settled answer for a module of another test would let the events through at once
    AppConfig cfg = config(prefix).set("loader.embedded", "false");
    int total = 10;
    List<byte[]> events = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      CrashEvent e = SampleEvents.nativeEvent("p-" + i);
      e.getNative$()
          .getModules()
          .forEach(
              m ->
                  m.setDebugId(
                      java.util
                              .UUID
                              .randomUUID()
                              .toString()
                              .replace("-", "")
                              .toUpperCase(java.util.Locale.ROOT)
                          + "0"));
      events.add(avro(e));
    }
    String app = prefix + "-app";
    try (SymbolicatorApp running = SymbolicatorApp.start(cfg);
        Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(running.awaitRunning(Duration.ofSeconds(60))).isTrue();
      produce(cfg.get("topic.raw"), events, false);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      long committed = 0;
      while (committed < total && System.nanoTime() < deadline) {
        Thread.sleep(200);
        committed =
            admin
                .listConsumerGroupOffsets(app)
                .partitionsToOffsetAndMetadata()
                .get()
                .entrySet()
                .stream()
                .filter(e -> e.getKey().topic().equals(cfg.get("topic.raw")))
                .mapToLong(e -> e.getValue().offset())
                .sum();
      }
      assertThat(committed).as("every event consumed (and parked)").isEqualTo(total);
    }
    StreamsReset.Plan plan = new StreamsReset(cfg).plan(java.time.Instant.now().plusSeconds(3600));
    // without the parked events, an instant after every record would mean the end
    assertThat(plan.offsets().values().stream().mapToLong(Long::longValue).sum()).isZero();
    assertThat(plan.skipsAhead()).isEmpty();

    // a clean would lose them: refused unless they are discarded
    StreamsReset.CleanPlan clean = new StreamsReset(cfg).planClean(false);
    assertThat(clean.parkedEvents()).isEqualTo(total);
    assertThat(clean.describe())
        .contains("events still parked, never to come out after the clean: " + total);
    assertThatThrownBy(() -> new StreamsReset(cfg).applyClean(clean, false))
        .isInstanceOf(StreamsReset.ResetException.class)
        .hasMessageContaining(total + " event(s) are still parked");
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(admin.listTopics().names().get()).containsAll(clean.internalTopics());
      new StreamsReset(cfg).applyClean(clean, true);
      assertThat(admin.listTopics().names().get())
          .doesNotContainAnyElementsOf(clean.internalTopics());
      assertThat(admin.listGroups().all().get()).extracting(g -> g.groupId()).doesNotContain(app);
    }
  }

  /**
   * Records that retention deleted before the reprocessing scan read them are counted as lost
   * (the command then exits 3), and the scan goes on from the new start: a consumer left to its
   * offset reset would have jumped to the end and read nothing, silently.
   */
  @Test
  void aReprocessingScanCountsWhatRetentionDeletedBeforeItRead() throws Exception {
    String prefix = "retained" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix);
    String topic = prefix + ".some";
    kafka.createTopics(1, topic);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      values.add(("r-" + i).getBytes(StandardCharsets.UTF_8));
    }
    produce(topic, values, false);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin
          .deleteRecords(
              Map.of(
                  new org.apache.kafka.common.TopicPartition(topic, 0),
                  org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(4)))
          .all()
          .get();
    }
    long[] counts = new ModuleReprocessing(cfg, line -> {}).readFrom(topic, Map.of(0, 0L));
    assertThat(counts[0]).as("read").isEqualTo(6);
    assertThat(counts[2]).as("deleted before they were read").isEqualTo(4);
    assertThat(new ModuleReprocessing(cfg, line -> {}).readFrom(topic, Map.of(0, 4L))[2]).isZero();
    // everything up to the end deleted: the partition is done, not read again for ever
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin
          .deleteRecords(
              Map.of(
                  new org.apache.kafka.common.TopicPartition(topic, 0),
                  org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(10)))
          .all()
          .get();
    }
    long[] none = new ModuleReprocessing(cfg, line -> {}).readFrom(topic, Map.of(0, 0L));
    assertThat(none[0]).isZero();
    assertThat(none[2]).isEqualTo(10);
  }

  /**
   * An event output twice while it missed the module is written once, as its latest output
   * embeds it; an event whose latest output found the module is not written; an output
   * topic's other partitions are read from the first candidate only.
   */
  @Test
  void reprocessingWritesEachEventAsItsLatestOutputEmbedsIt() throws Exception {
    String prefix = "latest" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix);
    kafka.createTopics(2, cfg.get("topic.raw"), cfg.get("topic.symbolicated"));
    List<byte[]> outputs = new ArrayList<>();
    for (int version = 1; version <= 2; version++) {
      CrashEvent twice = SampleEvents.nativeEvent("twice");
      twice.setAttributes(Map.of("version", String.valueOf(version)));
      outputs.add(output(twice, io.symbolicate.schema.ModuleStatus.missing));
      outputs.add(
          output(
              SampleEvents.nativeEvent("mended"),
              version == 1
                  ? io.symbolicate.schema.ModuleStatus.missing
                  : io.symbolicate.schema.ModuleStatus.found));
    }
    outputs.add(
        output(SampleEvents.nativeEvent("once"), io.symbolicate.schema.ModuleStatus.missing));
    // keyed by event id, as the app writes them: an event's outputs share a partition
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (byte[] v : outputs) {
        String id = WireSerdes.symbolicatedEvent().decode(v).getEvent().getEventId();
        producer.send(
            new ProducerRecord<>(
                cfg.get("topic.symbolicated"), id.getBytes(StandardCharsets.UTF_8), v));
      }
    }

    var sel =
        ModuleReprocessing.Selection.of(
            "global|native|late.pdb/01", ModuleReprocessing.Selection.MENDABLE, null, null);
    ModuleReprocessing.Result result = new ModuleReprocessing(cfg, line -> {}).run(sel, false);
    assertThat(result.scanned()).isEqualTo(5);
    assertThat(result.matched()).isEqualTo(2);
    assertThat(result.written()).isEqualTo(2);

    Map<String, CrashEvent> written = new HashMap<>();
    try (KafkaConsumer<String, byte[]> c =
        new KafkaConsumer<>(
            consumerProps(prefix + "-raw-reader"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      c.subscribe(List.of(cfg.get("topic.raw")));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (written.size() < 2 && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
          assertThat(written.put(r.key(), WireSerdes.crashEvent().decode(r.value())))
              .as("written once")
              .isNull();
        }
      }
      assertThat(c.poll(Duration.ofSeconds(1))).isEmpty();
    }
    assertThat(written).containsOnlyKeys("twice", "once");
    assertThat(written.get("twice").getAttributes())
        .containsEntry("version", "2")
        .containsEntry(ModuleReprocessing.REPROCESSED_ATTRIBUTE, "true");
  }

  /**
   * {@code reprocess --signatures-only}: each event's latest output is signed again with the
   * configured lists and written back, keyed by event id, only when its signature changed.
   */
  @Test
  void signaturesOnlyReprocessingWritesTheLatestOutputsWithNewSignatures() throws Exception {
    String prefix = "resign" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix);
    kafka.createTopics(2, cfg.get("topic.symbolicated"));
    List<byte[]> outputs = new ArrayList<>();
    for (int version = 1; version <= 2; version++) {
      CrashEvent twice = SampleEvents.nativeEvent("twice");
      twice.setAttributes(Map.of("version", String.valueOf(version)));
      outputs.add(output(twice, io.symbolicate.schema.ModuleStatus.missing));
    }
    outputs.add(output(SampleEvents.jvmEvent("jvm"), io.symbolicate.schema.ModuleStatus.missing));
    outputs.add(output(SampleEvents.jsEvent("js"), io.symbolicate.schema.ModuleStatus.missing));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (byte[] v : outputs) {
        String id = WireSerdes.symbolicatedEvent().decode(v).getEvent().getEventId();
        producer.send(
            new ProducerRecord<>(
                cfg.get("topic.symbolicated"), id.getBytes(StandardCharsets.UTF_8), v));
      }
    }

    // 1. written without signatures: every event's latest output changes
    var signer = new io.symbolicate.symbolication.signature.EventSigner(cfg.signatureLists());
    var first = new ModuleReprocessing(cfg, line -> {}).resign(signer, null, null, false, 0);
    assertThat(first.scanned()).isEqualTo(4);
    assertThat(first.events()).isEqualTo(3);
    assertThat(first.changed()).isEqualTo(3);
    assertThat(first.written()).isEqualTo(3);
    assertThat(first.complete(false)).isTrue();

    // 2. other lists (every native frame irrelevant): only the native event changes
    Path lists = stateDir.resolve("lists");
    java.nio.file.Files.createDirectories(lists);
    java.nio.file.Files.writeString(lists.resolve("irrelevant_signature_re.txt"), ".*\n");
    java.nio.file.Files.writeString(lists.resolve("prefix_signature_re.txt"), "(?!)\n");
    java.nio.file.Files.writeString(lists.resolve("signature_sentinels.txt"), "");
    java.nio.file.Files.writeString(lists.resolve("signatures_with_line_numbers_re.txt"), "(?!)\n");
    AppConfig changedCfg = config(prefix).set("signatures.lists.dir", lists.toString());
    var newSigner =
        new io.symbolicate.symbolication.signature.EventSigner(changedCfg.signatureLists());
    var second =
        new ModuleReprocessing(changedCfg, line -> {}).resign(newSigner, null, null, false, 0);
    assertThat(second.scanned()).isEqualTo(7);
    assertThat(second.events()).isEqualTo(3);
    assertThat(second.changed()).isEqualTo(1);
    assertThat(second.written()).isEqualTo(1);

    // 3. nothing differs any more
    var third =
        new ModuleReprocessing(changedCfg, line -> {}).resign(newSigner, null, null, false, 0);
    assertThat(third.changed()).isZero();
    assertThat(third.written()).isZero();

    // the latest output of each event carries the signature the new lists give its frames
    Map<String, SymbolicatedEvent> latest = new HashMap<>();
    consumeUntil(cfg, latest, new ArrayList<>(), () -> false, Duration.ofSeconds(5));
    assertThat(latest).containsOnlyKeys("twice", "jvm", "js");
    assertThat(latest.get("twice").getEvent().getAttributes()).containsEntry("version", "2");
    for (SymbolicatedEvent e : latest.values()) {
      var want = newSigner.signatureOf(e);
      assertThat(e.getSignature()).as(e.getEvent().getEventId()).isEqualTo(want.signature());
      assertThat(e.getSignatureNotes()).isEqualTo(want.notes());
    }
    // every frame irrelevant: the first frame stands in, and a note says no frame was kept
    assertThat(latest.get("twice").getSignatureNotes())
        .isNotEqualTo(signer.signatureOf(latest.get("twice")).notes())
        .anySatisfy(n -> assertThat(n).contains("no frame data"));
  }

  private static byte[] output(CrashEvent e, io.symbolicate.schema.ModuleStatus status) {
    SymbolicatedEvent out =
        io.symbolicate.symbolication.platform.SymbolicatedEvents.builder(e, 0L).build();
    out.setModules(
        List.of(
            io.symbolicate.schema.ModuleResult.newBuilder()
                .setIndex(0)
                .setKey("late.pdb/01")
                .setStatus(status)
                .build()));
    return WireSerdes.symbolicatedEvent().encode(out);
  }

  @Test
  void nothingIsLostOrDuplicatedAcrossARestart() throws Exception {
    String prefix = "restart" + RUN.incrementAndGet();
    AppConfig cfg = config(prefix);
    int total = 3000;
    List<byte[]> first = new ArrayList<>();
    List<byte[]> second = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      CrashEvent e =
          switch (i % 3) {
            case 0 -> SampleEvents.nativeEvent("e-" + i);
            case 1 -> SampleEvents.jsEvent("e-" + i);
            default -> SampleEvents.jvmEvent("e-" + i);
          };
      (i < total / 2 ? first : second).add(avro(e));
    }

    Map<String, Integer> seen = new HashMap<>();
    SymbolicatorApp app = SymbolicatorApp.start(cfg);
    assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
    produce(cfg.get("topic.raw"), first, false);
    // stop while part of the input is still unprocessed
    countOutputs(
        cfg,
        seen,
        () -> seen.values().stream().mapToInt(Integer::intValue).sum() >= 200,
        Duration.ofSeconds(60),
        "reader-1");
    app.close(Duration.ofSeconds(30));
    produce(cfg.get("topic.raw"), second, false);

    // restarted held at RUNNING (as the pipeline benchmark starts its runs), then resumed
    try (SymbolicatorApp restarted =
        SymbolicatorApp.create(cfg).pauseWhenRunning().startStreams()) {
      assertThat(restarted.awaitRunning(Duration.ofSeconds(60))).isTrue();
      assertThat(restarted.firstRunningAt()).isPositive();
      assertThat(restarted.streams().isPaused()).isTrue();
      restarted.streams().resume();
      Map<String, Integer> all = new HashMap<>();
      countOutputs(cfg, all, () -> all.size() >= total, Duration.ofSeconds(120), "reader-2");
      assertThat(all).hasSize(total);
      assertThat(all.entrySet())
          .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(1));
    }
  }

  private static byte[] avro(CrashEvent e) {
    return WireSerdes.crashEvent().encode(e);
  }

  private static void produce(String topic, List<byte[]> values, boolean allowLarge)
      throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    if (allowLarge) {
      p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_000_000);
    }
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (byte[] v : values) {
        producer.send(new ProducerRecord<>(topic, v));
      }
      producer.flush();
    }
  }

  private static Properties consumerProps(String group) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return c;
  }

  private static void consumeUntil(
      AppConfig cfg,
      Map<String, SymbolicatedEvent> out,
      List<DeadLetter> dead,
      java.util.function.BooleanSupplier done,
      Duration timeout) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(
            consumerProps(cfg.get("application.id") + "-reader"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      c.subscribe(List.of(cfg.get("topic.symbolicated"), cfg.get("topic.dlq")));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!done.getAsBoolean() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          if (r.topic().equals(cfg.get("topic.dlq"))) {
            dead.add(WireSerdes.deadLetter().deserializer().deserialize(r.topic(), r.value()));
          } else {
            SymbolicatedEvent e =
                WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8))
                .isEqualTo(e.getEvent().getEventId());
            out.put(e.getEvent().getEventId(), e);
          }
        }
      }
    }
  }

  /** Counts outputs per event id (read_committed), from the beginning of the output topic. */
  private static void countOutputs(
      AppConfig cfg,
      Map<String, Integer> seen,
      java.util.function.BooleanSupplier done,
      Duration timeout,
      String group) {
    try (KafkaConsumer<String, byte[]> c =
        new KafkaConsumer<>(
            consumerProps(cfg.get("application.id") + group),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      c.subscribe(List.of(cfg.get("topic.symbolicated")));
      long deadline = System.nanoTime() + timeout.toNanos();
      long quietUntil = Long.MAX_VALUE;
      while (System.nanoTime() < deadline) {
        var records = c.poll(Duration.ofMillis(200));
        for (ConsumerRecord<String, byte[]> r : records) {
          seen.merge(r.key(), 1, Integer::sum);
        }
        if (done.getAsBoolean()) {
          // keep reading briefly so a duplicate that follows would be counted
          if (quietUntil == Long.MAX_VALUE) {
            quietUntil = System.nanoTime() + Duration.ofSeconds(2).toNanos();
          }
          if (System.nanoTime() > quietUntil) {
            return;
          }
        }
      }
    }
  }
}

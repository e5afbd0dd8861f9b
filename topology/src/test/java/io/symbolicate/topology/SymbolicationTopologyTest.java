package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.schema.topic.Topics;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.topology.config.InputFormat;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SymbolicationTopologyTest {
  @TempDir Path stateDir;

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestOutputTopic<String, SymbolicatedEvent> out;
  private TestOutputTopic<byte[], DeadLetter> dlq;

  private void start(TopologyConfig cfg, Map<Platform, PlatformSymbolicator> steps) {
    start(cfg, steps, new Properties());
  }

  /** Event ids the topology counted as written (symbolicate_events_out_total). */
  private final List<String> countedOut = new ArrayList<>();

  private void start(TopologyConfig cfg, Map<Platform, PlatformSymbolicator> steps, Properties p) {
    Topology t =
        SymbolicationTopology.build(
            cfg,
            steps,
            new io.symbolicate.symbolication.store.PageCache(1 << 20),
            new io.symbolicate.topology.metrics.PipelineMetrics() {
              @Override
              public void symbolicated(
                  Platform platform, io.symbolicate.schema.SymbolicatedEvent e) {
                countedOut.add(e.getEvent().getEventId());
              }
            });
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
    p.put(
        StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // never the shared /tmp/kafka-streams
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(t, p);
    raw =
        driver.createInputTopic(
            cfg.topics().raw(), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    out =
        driver.createOutputTopic(
            cfg.topics().symbolicated(),
            Serdes.String().deserializer(),
            WireSerdes.symbolicatedEvent().deserializer());
    dlq =
        driver.createOutputTopic(
            cfg.topics().dlq(),
            Serdes.ByteArray().deserializer(),
            WireSerdes.deadLetter().deserializer());
  }

  private void start() {
    start(TopologyConfig.defaults(), TestPlatforms.steps());
  }

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  /** Native events wait for symbols; with no tables they are released at the park deadline. */
  private void releaseParked() {
    driver.advanceWallClockTime(TopologyConfig.Parking.defaults().timeout().plusSeconds(1));
  }

  private List<String> keys() {
    return out.readKeyValuesToList().stream().map(kv -> kv.key).toList();
  }

  private static byte[] avro(CrashEvent e) {
    return WireSerdes.crashEvent().encode(e);
  }

  @Test
  void splitsByPlatformAndMergesIntoOneOutputKeyedByEventId() {
    start();
    raw.pipeInput("k1".getBytes(), avro(SampleEvents.nativeEvent("n-1")));
    raw.pipeInput("k2".getBytes(), avro(SampleEvents.jsEvent("j-1")));
    raw.pipeInput("k3".getBytes(), avro(SampleEvents.jvmEvent("v-1")));
    raw.pipeInput(
        "k4".getBytes(), SampleEvents.nativeEventJson("n-2").getBytes(StandardCharsets.UTF_8));
    releaseParked();

    List<KeyValue<String, SymbolicatedEvent>> got = out.readKeyValuesToList();
    assertThat(got).extracting(kv -> kv.key).containsExactlyInAnyOrder("n-1", "j-1", "v-1", "n-2");
    Map<String, SymbolicatedEvent> byId = new java.util.HashMap<>();
    got.forEach(kv -> byId.put(kv.key, kv.value));
    assertThat(byId.get("n-1").getEvent().getPlatform()).isEqualTo(Platform.native$);
    assertThat(byId.get("j-1").getEvent().getPlatform()).isEqualTo(Platform.javascript);
    assertThat(byId.get("v-1").getEvent().getPlatform()).isEqualTo(Platform.jvm);
    assertThat(dlq.isEmpty()).isTrue();

    // the raw event travels untouched
    assertThat(byId.get("n-1").getEvent()).isEqualTo(SampleEvents.nativeEvent("n-1"));
    assertThat(byId.get("n-1").getSymbolicationVersion()).isEqualTo(1);
  }

  @Test
  void nativeFramesGetModuleOffsetsAndHonestStatuses() {
    start();
    raw.pipeInput(null, avro(SampleEvents.nativeEvent("n-1")));
    assertThat(out.isEmpty()).as("waits for its symbols").isTrue();
    releaseParked();
    SymbolicatedEvent e = out.readValue();
    List<SymbolicatedFrame> frames = e.getStacks().get(0).getFrames();
    // no tables arrived before the deadline: fetch_failed, never "missing"
    assertThat(frames)
        .extracting(SymbolicatedFrame::getStatus)
        .containsExactly(
            FrameStatus.fetch_failed,
            FrameStatus.fetch_failed,
            FrameStatus.fetch_failed,
            FrameStatus.invalid_frame,
            FrameStatus.unknown_module);
    assertThat(frames.get(1).getModuleIndex()).isEqualTo(0);
    assertThat(frames.get(1).getModuleOffset()).isEqualTo(0x1c40L);
    assertThat(frames.get(2).getModuleIndex()).isEqualTo(1);
    assertThat(frames.get(2).getModuleOffset()).isEqualTo(0x29d90L);
    assertThat(frames.get(3).getMessage()).contains("module_index 7 out of range (2 modules)");
    assertThat(e.getModules())
        .extracting(m -> m.getStatus())
        .containsExactly(ModuleStatus.fetch_failed, ModuleStatus.fetch_failed);
    assertThat(e.getModulesInStack())
        .containsExactly(
            "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0",
            "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900");
  }

  /**
   * The default steps with a JVM step that throws {@code naming} while naming its modules (when
   * not null) and {@code symbolicating} while symbolicating.
   */
  private static Map<Platform, PlatformSymbolicator> withFailingJvmStep(
      RuntimeException naming, Throwable symbolicating) {
    Map<Platform, PlatformSymbolicator> steps = new java.util.EnumMap<>(TestPlatforms.steps());
    steps.put(
        Platform.jvm,
        new PlatformSymbolicator() {
          @Override
          public Platform platform() {
            return Platform.jvm;
          }

          @Override
          public List<io.symbolicate.symbols.table.ModuleRef> modulesNeeded(CrashEvent event) {
            if (naming != null) {
              throw naming;
            }
            return PlatformSymbolicator.super.modulesNeeded(event);
          }

          @Override
          public SymbolicatedEvent symbolicate(
              CrashEvent event,
              io.symbolicate.symbolication.store.SymbolLookup lookup,
              long nowMillis) {
            if (symbolicating instanceof RuntimeException r) {
              throw r;
            }
            throw (Error) symbolicating;
          }
        });
    return steps;
  }

  @Test
  void routesEveryKindOfBadInputToTheDlqWhileGoodEventsFlow() {
    start(TopologyConfig.defaults().withLimits(64 * 1024, 1000), TestPlatforms.steps());
    List<byte[]> inputs = new ArrayList<>();
    inputs.add(avro(SampleEvents.nativeEvent("ok-1")));
    inputs.add(SampleEvents.undecodableBytes());
    inputs.add(SampleEvents.invalidJson());
    inputs.add(avro(SampleEvents.jsEvent("ok-2")));
    inputs.add(SampleEvents.missingEventIdJson());
    inputs.add(SampleEvents.unknownPlatformJson("cobol-1"));
    inputs.add(avro(SampleEvents.hugeEvent("huge-frames", 5000)));
    inputs.add(new byte[100 * 1024]); // beyond max.event.bytes
    byte[] truncated = avro(SampleEvents.jvmEvent("trunc"));
    inputs.add(java.util.Arrays.copyOf(truncated, truncated.length / 2));
    inputs.add(avro(SampleEvents.jvmEvent("ok-3")));
    for (int i = 0; i < inputs.size(); i++) {
      raw.pipeInput(("key-" + i).getBytes(), inputs.get(i));
    }
    releaseParked();

    assertThat(keys()).containsExactlyInAnyOrder("ok-1", "ok-2", "ok-3");
    List<DeadLetter> dead = dlq.readValuesToList();
    assertThat(dead)
        .extracting(DeadLetter::getErrorKind)
        .containsExactly(
            ErrorKind.undecodable,
            ErrorKind.invalid_json,
            ErrorKind.invalid_event,
            ErrorKind.unknown_platform,
            ErrorKind.too_large,
            ErrorKind.too_large,
            ErrorKind.undecodable);
    assertThat(dead.get(1).getMessage()).startsWith("invalid JSON");
    assertThat(dead.get(2).getMessage()).isEqualTo("$.event_id: is required");
    assertThat(dead.get(3).getMessage()).contains("cobol");
    assertThat(dead.get(3).getEventId()).isEqualTo("cobol-1");
    assertThat(dead.get(4).getMessage()).contains("5000 frames");
    assertThat(dead.get(4).getEventId()).isEqualTo("huge-frames");
    assertThat(dead.get(5).getMessage()).contains("max.event.bytes");
    assertThat(dead.get(6).getMessage()).contains("truncated");

    // nothing is lost: each dead letter carries its original bytes and source position
    int[] deadInputs = {1, 2, 4, 5, 6, 7, 8};
    for (int i = 0; i < dead.size(); i++) {
      DeadLetter d = dead.get(i);
      byte[] original = new byte[d.getOriginalValue().remaining()];
      d.getOriginalValue().get(original);
      assertThat(original).isEqualTo(inputs.get(deadInputs[i]));
      assertThat(d.getSourceTopic()).isEqualTo(Topics.RAW.defaultName());
      assertThat(d.getSourceOffset()).isEqualTo(deadInputs[i]);
      assertThat(d.getOriginalSize()).isEqualTo(original.length);
    }
  }

  @Test
  void aFailingStepDeadLettersItsEventOnly() {
    start(
        TopologyConfig.defaults(),
        withFailingJvmStep(null, new IllegalStateException("mapping exploded")));
    raw.pipeInput(null, avro(SampleEvents.jvmEvent("v-1")));
    raw.pipeInput(null, avro(SampleEvents.nativeEvent("n-1")));
    releaseParked();
    assertThat(keys()).containsExactly("n-1");
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.processing_error);
    assertThat(d.getMessage()).contains("mapping exploded");
    assertThat(d.getEventId()).isEqualTo("v-1");
    // it failed when its parking ended (a punctuation): the position is the parked entry's
    assertThat(d.getSourceTopic()).isEqualTo(Topics.RAW.defaultName());
    assertThat(d.getSourcePartition()).isZero();
    assertThat(d.getSourceOffset()).isZero();
  }

  /**
   * Inputs that once stopped their partition (the exception escaped, the replaced thread read
   * the same record again): each is one output or one dead letter now, and the next event flows.
   */
  @Test
  void inputsThatOnceStoppedThePartitionAreOneOutputOrOneDeadLetter() {
    start();
    String pipeInName =
        SampleEvents.nativeEventJson("pipe")
            .replace("\"debug_file\": \"crashy\"", "\"debug_file\": \"a|b.pdb\"");
    raw.pipeInput("k-pipe".getBytes(), pipeInName.getBytes(StandardCharsets.UTF_8));
    raw.pipeInput(
        "k-far".getBytes(),
        "{\"event_id\": \"far\", \"platform\": \"jvm\", \"jvm\": {},"
            .concat(" \"received_at\": \"+1000000000-12-31T23:59:59Z\"}")
            .getBytes(StandardCharsets.UTF_8));
    raw.pipeInput(
        "k-two".getBytes(),
        ("{\"event_id\": \"one\", \"platform\": \"jvm\", \"jvm\": {}}"
                + "{\"event_id\": \"two\", \"platform\": \"jvm\", \"jvm\": {}}")
            .getBytes(StandardCharsets.UTF_8));
    byte[] avroTwice = avro(SampleEvents.jvmEvent("avro-1"));
    byte[] withJunk = java.util.Arrays.copyOf(avroTwice, avroTwice.length + 3);
    raw.pipeInput("k-junk".getBytes(), withJunk);
    raw.pipeInput(null, avro(SampleEvents.jvmEvent("after")));
    releaseParked();

    Map<String, SymbolicatedEvent> byId = new java.util.HashMap<>();
    out.readKeyValuesToList().forEach(kv -> byId.put(kv.key, kv.value));
    assertThat(byId).containsOnlyKeys("pipe", "after");
    // the module's name cannot hold the separator of module names: a malformed request, per module
    assertThat(byId.get("pipe").getModules().get(0).getStatus())
        .isEqualTo(ModuleStatus.malformed_request);
    List<DeadLetter> dead = dlq.readValuesToList();
    assertThat(dead)
        .extracting(DeadLetter::getErrorKind)
        .containsExactly(ErrorKind.invalid_event, ErrorKind.invalid_json, ErrorKind.undecodable);
    assertThat(dead.get(0).getMessage())
        .contains("received_at")
        .contains("out of the epoch-milliseconds range");
    assertThat(dead.get(1).getMessage()).contains("Trailing token");
    assertThat(dead.get(2).getMessage()).contains("trailing bytes");
  }

  /**
   * An input record larger than the dead-letter topic takes (a compressed batch gets past the
   * input topic's limit) is dead-lettered cut to fit, its whole size kept: refused by the
   * producer, its dead letter failed the transaction and the partition stopped for good.
   */
  @Test
  void aDeadLetterLargerThanTheTopicTakesIsCutToFit() {
    start(
        TopologyConfig.defaults().withLimits(1000, 20_000).withMaxOutputBytes(8192),
        TestPlatforms.steps(),
        new Properties());
    byte[] huge = new byte[50_000];
    java.util.Arrays.fill(huge, (byte) '{');
    raw.pipeInput("k".getBytes(), huge);
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.too_large);
    assertThat(d.getOriginalSize()).isEqualTo(50_000);
    assertThat(d.getOriginalValue().remaining()).isLessThan(8192).isGreaterThan(7000);
    assertThat(d.getMessage()).contains("original value cut to").contains("of 50000 bytes");
  }

  private final List<ErrorKind> handlerCounted = new ArrayList<>();

  private void startWithOutputLimit(int maxOutputBytes) {
    Properties p = new Properties();
    p.put(
        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
        io.symbolicate.topology.deadletter.OversizedOutputHandler.class);
    p.put(
        io.symbolicate.topology.deadletter.OversizedOutputHandler.DLQ_TOPIC,
        Topics.DLQ.defaultName());
    p.put(
        io.symbolicate.topology.deadletter.OversizedOutputHandler.METRICS,
        new io.symbolicate.topology.metrics.PipelineMetrics() {
          @Override
          public void deadLettered(ErrorKind reason) {
            handlerCounted.add(reason);
          }
        });
    start(TopologyConfig.defaults().withMaxOutputBytes(maxOutputBytes), TestPlatforms.steps(), p);
  }

  /**
   * An output the topic would refuse is dead-lettered by the app's production exception handler
   * with the raw input: thrown by the producer or the broker, it failed the transaction and the
   * task read the same record again, for good. Here an event symbolicated on its own turn (its
   * frames need no module), so the handler has the source record.
   */
  @Test
  void anOutputTooLargeForItsTopicIsDeadLetteredWithTheRawInput() {
    startWithOutputLimit(4096);
    CrashEvent e = SampleEvents.hugeEvent("big", 2000);
    e.getNative$().getThreads().get(0).getFrames().forEach(f -> f.setModuleIndex(-1));
    byte[] big = avro(e);
    raw.pipeInput("k-big".getBytes(), big);
    raw.pipeInput(null, avro(SampleEvents.jvmEvent("small")));
    releaseParked();

    assertThat(keys()).containsExactly("small");
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.too_large);
    assertThat(d.getEventId()).isEqualTo("big");
    assertThat(d.getMessage()).contains("more than the output's limit of 4096 bytes");
    assertThat(d.getOriginalValue().array()).isEqualTo(big);
    assertThat(new String(d.getOriginalKey().array(), StandardCharsets.UTF_8)).isEqualTo("k-big");
    assertThat(d.getSourceTopic()).isEqualTo(Topics.RAW.defaultName());
    assertThat(d.getSourceOffset()).isZero();
    assertThat(dlq.isEmpty()).isTrue();
    assertThat(handlerCounted)
        .as("counted on symbolicate_events_dlq_total")
        .containsExactly(ErrorKind.too_large);
    assertThat(countedOut).as("and not also as written").containsExactly("small");
  }

  /**
   * A native event waits in parking for its module and is released by a punctuation, which has
   * no source record: the parking step checks its output itself and dead-letters it with the
   * position its parked key names and the event as parked.
   */
  @Test
  void aReleasedEventWhoseOutputIsTooLargeIsDeadLetteredWithItsInputPosition() {
    startWithOutputLimit(4096);
    raw.pipeInput(null, avro(SampleEvents.jvmEvent("first")));
    byte[] big = avro(SampleEvents.hugeEvent("big", 200));
    raw.pipeInput("k-big".getBytes(), big);
    releaseParked();

    assertThat(keys()).containsExactly("first");
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.too_large);
    assertThat(d.getEventId()).isEqualTo("big");
    assertThat(d.getMessage()).contains("more than the output's limit of 4096 bytes");
    assertThat(d.getOriginalValue().array())
        .as("the event as parked: here the same Avro bytes")
        .isEqualTo(big);
    assertThat(d.getSourceTopic()).isEqualTo(Topics.RAW.defaultName());
    assertThat(d.getSourcePartition()).isZero();
    assertThat(d.getSourceOffset()).isEqualTo(1);
    assertThat(dlq.isEmpty()).isTrue();
  }

  @Test
  void aStepThatCannotNameItsModulesDeadLettersItsEventWithItsKey() {
    start(
        TopologyConfig.defaults(),
        withFailingJvmStep(
            new IllegalArgumentException("x".repeat(5000)), new AssertionError("not reached")));
    // JSON input: the dead letter keeps these very bytes, not the event re-encoded
    byte[] json =
        "{\"event_id\": \"v-2\", \"platform\": \"jvm\", \"jvm\": {}, \"x-collector\": 1}"
            .getBytes(StandardCharsets.UTF_8);
    raw.pipeInput("key-v".getBytes(), json);
    raw.pipeInput(null, avro(SampleEvents.jsEvent("j-2")));
    releaseParked();
    assertThat(keys()).containsExactly("j-2");
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.processing_error);
    assertThat(d.getEventId()).isEqualTo("v-2");
    assertThat(new String(d.getOriginalKey().array(), StandardCharsets.UTF_8)).isEqualTo("key-v");
    assertThat(d.getMessage()).startsWith("jvm step failed").hasSizeLessThan(2100);
    assertThat(d.getOriginalValue().array()).isEqualTo(json);
  }

  /** A native event whose frames use {@code modules} distinct modules, one frame each. */
  private static CrashEvent nativeEventWithModules(String id, int modules) {
    CrashEvent e = SampleEvents.nativeEvent(id);
    List<io.symbolicate.schema.NativeModule> mods = new ArrayList<>();
    List<io.symbolicate.schema.NativeFrame> frames = new ArrayList<>();
    for (int i = 0; i < modules; i++) {
      mods.add(
          io.symbolicate.schema.NativeModule.newBuilder()
              .setType("elf")
              .setCodeFile("lib" + i + ".so")
              .setDebugFile("lib" + i + ".so")
              .setDebugId(String.format("%032X0", i + 1))
              .setImageAddr(0x10000000L * (i + 1))
              .setImageSize(0x1000L)
              .build());
      frames.add(
          io.symbolicate.schema.NativeFrame.newBuilder()
              .setModuleIndex(i)
              .setModuleOffset(0x10L)
              .setTrust("cfi")
              .build());
    }
    // one module listed twice: still one module to look up
    mods.add(mods.get(0));
    frames.add(
        io.symbolicate.schema.NativeFrame.newBuilder()
            .setModuleIndex(modules)
            .setModuleOffset(0x20L)
            .setTrust("cfi")
            .build());
    e.getNative$().setModules(mods);
    e.getNative$().getThreads().get(0).setFrames(frames);
    return e;
  }

  @Test
  void anEventThatNeedsMoreModulesThanAllowedIsDeadLetteredWithoutASymbolRequest()
      throws Exception {
    TopologyConfig cfg =
        TopologyConfig.defaults().withParking(TopologyConfig.Parking.defaults().withMaxModules(5));
    start(cfg, TestPlatforms.steps());
    TestOutputTopic<String, io.symbolicate.schema.SymbolRequest> requests =
        driver.createOutputTopic(
            cfg.topics().requests(),
            Serdes.String().deserializer(),
            WireSerdes.symbolRequest().deserializer());
    byte[] six = avro(nativeEventWithModules("n-6", 6));
    raw.pipeInput("key-6".getBytes(StandardCharsets.UTF_8), six);
    assertThat(requests.isEmpty()).isTrue();
    DeadLetter d = dlq.readValue();
    assertThat(d.getErrorKind()).isEqualTo(ErrorKind.too_large);
    assertThat(d.getEventId()).isEqualTo("n-6");
    assertThat(d.getMessage())
        .isEqualTo("event needs 6 modules, more than max.modules.per.event=5");
    assertThat(new String(d.getOriginalKey().array(), StandardCharsets.UTF_8)).isEqualTo("key-6");
    assertThat(d.getOriginalValue().array()).isEqualTo(six);
    assertThat(d.getSourceOffset()).isZero();

    // at the limit (six entries, five distinct modules): requested, parked, then emitted
    raw.pipeInput(null, avro(nativeEventWithModules("n-5", 5)));
    assertThat(requests.readValuesToList()).hasSize(5);
    assertThat(dlq.isEmpty()).isTrue();
    releaseParked();
    assertThat(keys()).containsExactly("n-5");
  }

  @Test
  void aPlatformWithoutAStepIsDeadLetteredNotDropped() {
    Map<Platform, PlatformSymbolicator> steps = new java.util.EnumMap<>(TestPlatforms.steps());
    steps.remove(Platform.javascript);
    start(TopologyConfig.defaults(), steps);
    raw.pipeInput(null, avro(SampleEvents.jsEvent("j-1")));
    assertThat(out.isEmpty()).isTrue();
    assertThat(dlq.readValue().getMessage())
        .contains("no symbolication step for platform javascript");
  }

  @Test
  void strictInputFormatsRejectTheOtherEncoding() {
    start(
        new TopologyConfig(TopicNames.defaults(), InputFormat.AVRO, 1 << 20, 1000),
        TestPlatforms.steps());
    raw.pipeInput(null, SampleEvents.nativeEventJson("n-2").getBytes(StandardCharsets.UTF_8));
    assertThat(dlq.readValue().getErrorKind()).isEqualTo(ErrorKind.undecodable);
  }

  @Test
  void topicNamesAreConfigurable() {
    TopologyConfig cfg = TopologyConfig.defaults().withTopics(new TopicNames("in", "out", "dead"));
    start(cfg, TestPlatforms.steps());
    raw.pipeInput(null, avro(SampleEvents.jsEvent("j-1")));
    raw.pipeInput(null, SampleEvents.undecodableBytes());
    releaseParked();
    assertThat(keys()).containsExactly("j-1");
    assertThat(dlq.readValue().getSourceTopic()).isEqualTo("in");
  }
}

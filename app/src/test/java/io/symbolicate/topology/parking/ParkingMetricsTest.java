package io.symbolicate.topology.parking;

import static io.symbolicate.app.metrics.Meters.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.symbolicate.app.metrics.AppMetrics;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.TestPlatforms;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline's meters, driven through the real topology (RocksDB stores in the test driver):
 * frame and module statuses per platform, events in/out/dead-lettered, parked events and the
 * cache layers of the symbol store.
 */
class ParkingMetricsTest {
  @TempDir Path stateDir;

  private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
  private static final String APP = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
  private static final String LIBC = "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900";

  private AppMetrics metrics;
  private MeterRegistry registry;
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestInputTopic<byte[], byte[]> tables;
  private TestOutputTopic<String, SymbolicatedEvent> out;
  private TestOutputTopic<byte[], DeadLetter> dlq;

  @BeforeEach
  void start() {
    metrics = new AppMetrics();
    registry = metrics.registry();
    PageCache cache = new PageCache(1 << 20);
    metrics.bindPageCache(cache);
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
    steps.put(Platform.native$, new ParkingTopologyTest.StringPageStep());
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "metrics-test");
    p.put(
        StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // never the shared /tmp/kafka-streams
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver =
        new TopologyTestDriver(
            SymbolicationTopology.build(cfg, steps, cache, metrics.pipeline()), p, T0);
    var bytes = Serdes.ByteArray().serializer();
    raw = driver.createInputTopic(cfg.topics().raw(), bytes, bytes);
    tables = driver.createInputTopic(cfg.topics().tables(), bytes, bytes);
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

  @AfterEach
  void stop() {
    driver.close();
    metrics.close();
  }

  private void found(String key, Map<Long, String> pages) {
    ModuleRef ref = new ModuleRef("global", TableKind.NATIVE, key);
    List<Long> keys = new ArrayList<>(new java.util.TreeMap<>(pages).keySet());
    for (long k : keys) {
      tables.pipeInput(TableKeys.page(ref, 7, k), pages.get(k).getBytes(StandardCharsets.UTF_8));
    }
    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                state(ref, TableStatus.found)
                    .setGeneration(7)
                    .setPageKeys(keys)
                    .setPageCount(keys.size())
                    .build()));
  }

  private void missing(String key) {
    ModuleRef ref = new ModuleRef("global", TableKind.NATIVE, key);
    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                state(ref, TableStatus.missing)
                    .setRetryAfter(T0.plus(Duration.ofHours(1)))
                    .setMessage("missing in test")
                    .build()));
  }

  private static ModuleState.Builder state(ModuleRef ref, TableStatus status) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(status)
        .setFormatVersion(2)
        .setGeneration(0)
        .setHeader(null)
        .setPageCount(0)
        .setPageKeys(List.of())
        .setTableBytes(0)
        .setSource("test")
        .setMessage(null)
        .setUpdatedAt(T0)
        .setLastUsed(null)
        .setRetryAfter(null);
  }

  private double frames(String status) {
    return value(registry, "symbolicate.frames", "platform", "native", "status", status);
  }

  private double lookups(String layer, String result) {
    return value(registry, "symbolicate.cache.lookups", "layer", layer, "result", result);
  }

  @Test
  void framesAndModulesAreCountedByPlatformAndStatusAsTheyAreEmitted() {
    found(APP, Map.of(0x1000L, "main", 0x1b00L, "crash_here"));
    missing(LIBC);
    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("e-1")));
    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("e-2")));
    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.jvmEvent("v-1")));
    // the JVM event waits for its mapping, which never comes: released at its deadline
    driver.advanceWallClockTime(Duration.ofSeconds(31));

    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got).hasSize(3);
    // the counters agree with a tally of what was actually written, status by status
    Map<FrameStatus, Integer> nativeTally = new EnumMap<>(FrameStatus.class);
    for (SymbolicatedEvent e : got) {
      if (e.getEvent().getPlatform() == Platform.native$) {
        for (SymbolicatedFrame f : e.getStacks().get(0).getFrames()) {
          nativeTally.merge(f.getStatus(), 1, Integer::sum);
        }
      }
    }
    assertThat(nativeTally.get(FrameStatus.symbolicated)).isEqualTo(4); // two per event
    for (FrameStatus s : FrameStatus.values()) {
      assertThat(frames(s.name()))
          .as(s.name())
          .isEqualTo(nativeTally.getOrDefault(s, 0).doubleValue());
    }
    assertThat(
            value(
                registry,
                "symbolicate.modules",
                "platform",
                "native",
                "status",
                ModuleStatus.found.name()))
        .isEqualTo(2);
    assertThat(
            value(
                registry,
                "symbolicate.modules",
                "platform",
                "native",
                "status",
                ModuleStatus.missing.name()))
        .isEqualTo(2);
    assertThat(value(registry, "symbolicate.events.in")).isEqualTo(3);
    assertThat(value(registry, "symbolicate.events.out", "platform", "native")).isEqualTo(2);
    assertThat(value(registry, "symbolicate.events.out", "platform", "jvm")).isEqualTo(1);
    assertThat(value(registry, "symbolicate.events.out", "platform", "javascript")).isZero();
    // the JVM event's frames are counted under its own platform
    double jvmFrames = 0;
    for (FrameStatus s : FrameStatus.values()) {
      jvmFrames += value(registry, "symbolicate.frames", "platform", "jvm", "status", s.name());
    }
    assertThat(jvmFrames)
        .isPositive()
        .isEqualTo(
            (double)
                got.stream()
                    .filter(e -> e.getEvent().getPlatform() == Platform.jvm)
                    .mapToInt(e -> e.getStacks().stream().mapToInt(s -> s.getFrames().size()).sum())
                    .sum());
  }

  @Test
  void cacheLayersCountHitsAndMissesNearestFirst() {
    found(APP, Map.of(0x1000L, "main", 0x1b00L, "crash_here"));
    missing(LIBC);
    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("e-1")));
    // e-1 decoded both pages: two page-cache misses, each read from RocksDB
    assertThat(lookups("page_cache", "miss")).isEqualTo(2);
    assertThat(lookups("rocksdb", "hit")).isEqualTo(2);
    assertThat(lookups("rocksdb", "miss")).isZero();
    assertThat(lookups("page_cache", "hit")).isZero();
    double stateReads = lookups("module_state", "miss");
    assertThat(stateReads).isPositive();

    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("e-2")));
    // the same frames again: served from memory, RocksDB untouched
    assertThat(lookups("page_cache", "hit")).isEqualTo(2);
    assertThat(lookups("page_cache", "miss")).isEqualTo(2);
    assertThat(lookups("rocksdb", "hit")).isEqualTo(2);
    // the found module's state was reused (same task wall clock), the missing one re-read
    assertThat(lookups("module_state", "hit")).isPositive();
    assertThat(out.readValuesToList()).hasSize(2);
  }

  @Test
  void parkedEventsAreAGaugeThatFallsWhenTheyAreReleased() {
    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("e-1")));
    raw.pipeInput(null, WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("e-2")));
    assertThat(value(registry, "symbolicate.events.parked", "platform", "native")).isEqualTo(2);
    assertThat(out.isEmpty()).isTrue();
    found(APP, Map.of(0x1000L, "main"));
    missing(LIBC);
    driver.advanceWallClockTime(Duration.ofMillis(200));
    assertThat(out.readValuesToList()).hasSize(2);
    assertThat(value(registry, "symbolicate.events.parked", "platform", "native")).isZero();
  }

  @Test
  void deadLettersAreCountedByReason() {
    raw.pipeInput(null, SampleEvents.undecodableBytes());
    raw.pipeInput(null, SampleEvents.invalidJson());
    raw.pipeInput(null, SampleEvents.invalidJson());
    List<DeadLetter> dead = dlq.readValuesToList();
    assertThat(dead).hasSize(3);
    assertThat(value(registry, "symbolicate.events.in")).isEqualTo(3);
    for (DeadLetter d : dead) {
      long same = dead.stream().filter(x -> x.getErrorKind() == d.getErrorKind()).count();
      assertThat(value(registry, "symbolicate.events.dlq", "reason", d.getErrorKind().name()))
          .as(d.getErrorKind().name())
          .isEqualTo((double) same);
    }
    double total = 0;
    for (var k : io.symbolicate.schema.ErrorKind.values()) {
      total += value(registry, "symbolicate.events.dlq", "reason", k.name());
    }
    assertThat(total).isEqualTo(3);
  }
}

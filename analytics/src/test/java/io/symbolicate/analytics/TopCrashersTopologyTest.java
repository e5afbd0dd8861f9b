package io.symbolicate.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.analytics.query.CrasherQuery;
import io.symbolicate.analytics.query.CrasherTotal;
import io.symbolicate.analytics.query.LocalCounts;
import io.symbolicate.analytics.query.PartitionStores;
import io.symbolicate.analytics.query.SignatureHistory;
import io.symbolicate.analytics.query.TopCrashers;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TopCrashersTopologyTest {
  private static final long H = 3_600_000L;
  private static final Instant NOW = Instant.parse("2026-11-27T12:30:00Z");
  private static final long HOUR0 = Instant.parse("2026-11-27T10:00:00Z").toEpochMilli();

  private TopologyTestDriver driver;
  private TestInputTopic<String, SymbolicatedEvent> in;

  @BeforeEach
  void start() {
    AnalyticsConfig cfg = new AnalyticsConfig("sym", Duration.ofDays(2), Duration.ofMinutes(1));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "topcrashers-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(TopCrashersTopology.build(cfg), p, NOW);
    in =
        driver.createInputTopic(
            "sym",
            Topics.SYMBOLICATED.keys().serializer(),
            Topics.SYMBOLICATED.values().serializer());
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  static SymbolicatedEvent event(
      String id, String release, Platform platform, String signature, long crashMs) {
    CrashEvent e =
        CrashEvent.newBuilder()
            .setEventId(id)
            .setPlatform(platform)
            .setRelease(release)
            .setReceivedAt(Instant.ofEpochMilli(crashMs))
            .build();
    return SymbolicatedEvent.newBuilder()
        .setEvent(e)
        .setSymbolicatedAt(NOW)
        .setSignature(signature)
        .build();
  }

  private void send(String id, String release, String sig, long crashMs) {
    in.pipeInput(id, event(id, release, Platform.native$, sig, crashMs));
  }

  private List<PartitionStores> stores() {
    return List.of(
        new PartitionStores(
            driver.getKeyValueStore(AnalyticsStores.CELLS),
            driver.getKeyValueStore(AnalyticsStores.CELL_EVENTS),
            driver.getKeyValueStore(AnalyticsStores.SIGNATURE_HOURS)));
  }

  private Map<String, CrasherTotal> crashers(String release, long since, long until) {
    return LocalCounts.crashers(stores(), new CrasherQuery(release, null, since, until)).stream()
        .collect(Collectors.toMap(CrasherTotal::signature, t -> t));
  }

  @Test
  void countsPerSignatureAndADuplicateChangesNothing() {
    send("e1", "1.0", "A", HOUR0 + 10);
    send("e2", "1.0", "A", HOUR0 + 20);
    send("e3", "1.0", "B", HOUR0 + H + 5);
    send("e4", "2.0", "A", HOUR0 + 30);
    send("e2", "1.0", "A", HOUR0 + 20); // a duplicate

    Map<String, CrasherTotal> r1 = crashers("1.0", HOUR0, HOUR0 + 2 * H);
    assertThat(r1.get("A")).isEqualTo(new CrasherTotal("A", 2, HOUR0 + 10, HOUR0 + 20, "e2"));
    assertThat(r1.get("B").count()).isEqualTo(1);
    assertThat(crashers(null, HOUR0, HOUR0 + 2 * H).get("A").count()).isEqualTo(3);
    // the hour range: only the first hour
    assertThat(crashers(null, HOUR0, HOUR0 + H)).doesNotContainKey("B");
    TopCrashers top =
        TopCrashers.of(
            LocalCounts.crashers(stores(), new CrasherQuery(null, null, HOUR0, HOUR0 + 2 * H)), 1);
    assertThat(top.total()).isEqualTo(4);
    assertThat(top.crashers()).extracting(CrasherTotal::signature).containsExactly("A");
  }

  @Test
  void reprocessingMovesTheCountAndKeepsFirstAndLastSeenExact() {
    send("e1", "1.0", "A", HOUR0 + 10);
    send("e2", "1.0", "A", HOUR0 + 20);
    send("e3", "1.0", "A", HOUR0 + 30);
    // reprocessed: the latest and the earliest event get another signature
    send("e3", "1.0", "C", HOUR0 + 30);
    send("e1", "1.0", "C", HOUR0 + 10);

    Map<String, CrasherTotal> r = crashers("1.0", HOUR0, HOUR0 + H);
    assertThat(r.get("A")).isEqualTo(new CrasherTotal("A", 1, HOUR0 + 20, HOUR0 + 20, "e2"));
    assertThat(r.get("C")).isEqualTo(new CrasherTotal("C", 2, HOUR0 + 10, HOUR0 + 30, "e3"));
    SignatureHistory a = LocalCounts.signature(stores(), "A", 10);
    assertThat(a.total()).isEqualTo(1);
    assertThat(a.recent()).extracting(SignatureHistory.RecentEvent::eventId).containsExactly("e2");
    SignatureHistory c = LocalCounts.signature(stores(), "C", 10);
    assertThat(c.recent())
        .extracting(SignatureHistory.RecentEvent::eventId)
        .containsExactly("e3", "e1");
    // moving all of a signature away removes it
    send("e2", "1.0", "C", HOUR0 + 20);
    assertThat(crashers("1.0", HOUR0, HOUR0 + H)).containsOnlyKeys("C");
    assertThat(LocalCounts.signature(stores(), "A", 10).hours()).isEmpty();
  }

  @Test
  void signatureHistoryIsPerHourReleaseAndPlatformWithTheLatestEventsFirst() {
    send("e1", "1.0", "A", HOUR0 + 10);
    send("e2", "2.0", "A", HOUR0 + H + 10);
    in.pipeInput("e3", event("e3", "2.0", Platform.javascript, "A", HOUR0 + H + 20));
    send("e4", "2.0", "A", HOUR0 + H + 30);
    SignatureHistory h = LocalCounts.signature(stores(), "A", 2);
    assertThat(h.hours())
        .containsExactly(
            new SignatureHistory.HourCount(HOUR0, "1.0", "native", 1),
            new SignatureHistory.HourCount(HOUR0 + H, "2.0", "javascript", 1),
            new SignatureHistory.HourCount(HOUR0 + H, "2.0", "native", 2));
    assertThat(h.recent())
        .extracting(SignatureHistory.RecentEvent::eventId)
        .containsExactly("e4", "e3");
    assertThat(
            LocalCounts.crashers(
                stores(), new CrasherQuery(null, "javascript", HOUR0, HOUR0 + 2 * H)))
        .extracting(CrasherTotal::count)
        .containsExactly(1L);
  }

  @Test
  void expiredHoursArePurgedFromEveryStoreAndOldEventsAreNotCounted() {
    send("old", "1.0", "A", HOUR0 - 2 * H);
    send("new", "1.0", "A", HOUR0 + H);
    // older than the retention (2 days) already: never counted
    send("ancient", "1.0", "A", NOW.toEpochMilli() - Duration.ofDays(3).toMillis());
    assertThat(crashers(null, 0, HOUR0 + 10 * H).get("A").count()).isEqualTo(2);

    // at 10:00 two days later, the "old" event's hour (08:00) has expired, the other's (11:00) not
    // yet
    driver.advanceWallClockTime(Duration.ofDays(2).minusMinutes(150));
    assertThat(crashers(null, 0, HOUR0 + 10 * H).get("A").count()).isEqualTo(1);
    assertThat(LocalCounts.signature(stores(), "A", 10).recent())
        .extracting(SignatureHistory.RecentEvent::eventId)
        .containsExactly("new");
    try (var it = driver.<Bytes, byte[]>getKeyValueStore(AnalyticsStores.EVENTS).all()) {
      assertThat(it.next().key.get()).isEqualTo("new".getBytes(StandardCharsets.UTF_8));
      assertThat(it.hasNext()).isFalse();
    }
    driver.advanceWallClockTime(Duration.ofHours(2));
    assertThat(crashers(null, 0, HOUR0 + 10 * H)).isEmpty();
    for (String store :
        List.of(
            AnalyticsStores.EVENTS,
            AnalyticsStores.CELLS,
            AnalyticsStores.CELL_EVENTS,
            AnalyticsStores.SIGNATURE_HOURS)) {
      try (var it = driver.getKeyValueStore(store).all()) {
        assertThat(it.hasNext()).as(store).isFalse();
      }
    }
  }
}

package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.topic.Topics;
import io.symbolicate.testkit.EmbeddedKafka;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Top crashers on the real broker, two instances of {@code aggregate}: 1,000 events over
 * several signatures, releases, platforms and hours, duplicates, and a reprocessing that gives
 * some events another signature (re-emitted with the same event id, as {@code reprocess}
 * does). Every answer of the API, asked of either instance, equals what this test computes
 * from the symbolicated topic itself (the latest record of each event id); so do they after
 * both instances restart, one of them on an empty state directory (restored from the
 * changelogs).
 */
class TopCrashersIT {
  private static final long H = 3_600_000L;
  private static final String TOPIC = Topics.SYMBOLICATED.defaultName();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> RELEASES = List.of("1.0", "1.1", "2.0");
  private static final List<Platform> PLATFORMS =
      List.of(Platform.native$, Platform.javascript, Platform.jvm);

  @TempDir Path stateA;
  @TempDir Path stateB;
  @TempDir Path stateB2;

  private final HttpClient http = HttpClient.newHttpClient();

  /** What the test remembers of the latest record of an event. */
  record Seen(String id, String release, String platform, String signature, long crashMs) {}

  @Test
  void answersEqualCountsFromTheOutputTopicAcrossReprocessingAndRestarts() throws Exception {
    long base = Math.floorDiv(System.currentTimeMillis(), H) * H - 6 * H;
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      AggregatorApp[] apps = {
        AggregatorApp.start(config(kafka, stateA)), AggregatorApp.start(config(kafka, stateB))
      };
      try {
        AggregatorApp a = apps[0];
        AggregatorApp b = apps[1];
        Random rnd = new Random(34);
        List<SymbolicatedEvent> events = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          // a skewed spread of signatures, so the top has an order
          int s = Math.min(7, (int) Math.floor(-Math.log(1 - rnd.nextDouble()) * 2));
          String release = i % 20 == 19 ? null : RELEASES.get(rnd.nextInt(RELEASES.size()));
          events.add(
              event(
                  "ev-" + i,
                  release,
                  PLATFORMS.get(rnd.nextInt(3)),
                  "sig" + s + " | frame_" + s,
                  base + (long) (rnd.nextDouble() * 6 * H)));
        }
        List<SymbolicatedEvent> again = new ArrayList<>(events);
        for (int i = 0; i < 60; i++) {
          again.add(events.get(rnd.nextInt(events.size()))); // duplicates
        }
        produce(kafka, again);
        awaitTotal(a, base, 1000);

        // reprocessing: 150 events come out again with another signature (their crash time
        // unchanged)
        List<SymbolicatedEvent> reprocessed = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
          SymbolicatedEvent e = events.get(i * 6);
          SymbolicatedEvent r =
              SymbolicatedEvent.newBuilder(e)
                  .setReprocessed(true)
                  .setSignature(i % 3 == 0 ? "fixed::handler(int)" : e.getSignature() + " | better")
                  .setSymbolicatedAt(Instant.now())
                  .build();
          reprocessed.add(r);
        }
        produce(kafka, reprocessed);
        Map<String, Seen> truth = latestFromTopic(kafka);
        assertThat(truth).hasSize(1000);
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> checkAll(List.of(a, b), truth, base));
        assertThat(a.analytics().counts().allHosts()).as("both instances hold counts").hasSize(2);

        badRequests(a);

        // restart: a on its own state, b on an empty directory (restored from the changelogs)
        a.close();
        b.close();
        apps[0] = AggregatorApp.start(config(kafka, stateA));
        apps[1] = AggregatorApp.start(config(kafka, stateB2));
        await()
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> checkAll(List.of(apps[0], apps[1]), truth, base));
      } finally {
        apps[0].close();
        apps[1].close();
      }
    }
  }

  private AppConfig config(EmbeddedKafka kafka, Path state) {
    return AppConfig.defaults()
        .set("bootstrap.servers", kafka.bootstrapServers())
        .set("application.id", "tcit")
        .set("state.dir", state.toString())
        .set("topics.partitions", "3")
        .set("streams.commit.interval.ms", "100")
        .set("http.port", "0");
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
        .setSymbolicatedAt(Instant.now())
        .setSignature(signature)
        .build();
  }

  private static void produce(EmbeddedKafka kafka, List<SymbolicatedEvent> events) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(
            p,
            Topics.SYMBOLICATED.keys().serializer(),
            Topics.SYMBOLICATED.values().serializer())) {
      for (SymbolicatedEvent e : events) {
        producer.send(new ProducerRecord<>(TOPIC, e.getEvent().getEventId(), e));
      }
      producer.flush();
    }
  }

  /** The latest record of each event id on the output topic (one partition per id: offset order). */
  private static Map<String, Seen> latestFromTopic(EmbeddedKafka kafka) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    Map<String, Seen> out = new HashMap<>();
    try (var c =
        new KafkaConsumer<>(
            p,
            Topics.SYMBOLICATED.keys().deserializer(),
            Topics.SYMBOLICATED.values().deserializer())) {
      List<TopicPartition> parts =
          c.partitionsFor(TOPIC).stream()
              .map(i -> new TopicPartition(TOPIC, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        for (var r : c.poll(Duration.ofMillis(200))) {
          CrashEvent e = r.value().getEvent();
          out.put(
              r.key(),
              new Seen(
                  r.key(),
                  e.getRelease() == null ? "" : e.getRelease(),
                  Platforms.wireName(e.getPlatform()),
                  r.value().getSignature(),
                  e.getReceivedAt().toEpochMilli()));
        }
      }
    }
    return out;
  }

  private void awaitTotal(AggregatorApp app, long base, long n) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              HttpResponse<String> r =
                  get(
                      app,
                      "/api/top-crashers?since="
                          + Instant.ofEpochMilli(base)
                          + "&until="
                          + Instant.ofEpochMilli(base + 6 * H));
              return r.statusCode() == 200 && JSON.readTree(r.body()).path("total").asLong() == n;
            });
  }

  private void checkAll(List<AggregatorApp> apps, Map<String, Seen> truth, long base)
      throws Exception {
    List<String[]> queries = new ArrayList<>();
    queries.add(new String[] {null, null, "" + base, "" + (base + 6 * H)});
    for (String r : RELEASES) {
      queries.add(new String[] {r, null, "" + base, "" + (base + 6 * H)});
    }
    queries.add(new String[] {"1.1", "javascript", "" + base, "" + (base + 6 * H)});
    queries.add(new String[] {null, "jvm", "" + (base + 2 * H), "" + (base + 4 * H)});
    for (AggregatorApp app : apps) {
      for (String[] q : queries) {
        checkTop(app, truth, q[0], q[1], Long.parseLong(q[2]), Long.parseLong(q[3]));
      }
      for (String sig :
          List.of("fixed::handler(int)", "sig0 | frame_0", "sig1 | frame_1 | better")) {
        checkSignature(app, truth, sig);
      }
    }
  }

  private void checkTop(
      AggregatorApp app,
      Map<String, Seen> truth,
      String release,
      String platform,
      long since,
      long until)
      throws Exception {
    Predicate<Seen> in =
        s ->
            (release == null || release.equals(s.release()))
                && (platform == null || platform.equals(s.platform()))
                && s.crashMs() >= since
                && s.crashMs() < until;
    Map<String, List<Seen>> bySig = new TreeMap<>();
    truth.values().stream()
        .filter(in)
        .forEach(s -> bySig.computeIfAbsent(s.signature(), k -> new ArrayList<>()).add(s));
    long total = bySig.values().stream().mapToLong(List::size).sum();
    List<Map.Entry<String, List<Seen>>> expected = new ArrayList<>(bySig.entrySet());
    expected.sort(
        Comparator.<Map.Entry<String, List<Seen>>>comparingInt(e -> -e.getValue().size())
            .thenComparing(Map.Entry::getKey));
    int limit = 5;

    StringBuilder url =
        new StringBuilder(
            "/api/top-crashers?limit="
                + limit
                + "&since="
                + Instant.ofEpochMilli(since)
                + "&until="
                + Instant.ofEpochMilli(until));
    if (release != null) {
      url.append("&release=").append(URLEncoder.encode(release, StandardCharsets.UTF_8));
    }
    if (platform != null) {
      url.append("&platform=").append(platform);
    }
    HttpResponse<String> r = get(app, url.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode o = JSON.readTree(r.body());
    assertThat(o.path("total").asLong()).as(url.toString()).isEqualTo(total);
    assertThat(o.path("release").isNull() ? null : o.path("release").asText()).isEqualTo(release);
    assertThat(o.path("since").asText()).isEqualTo(Instant.ofEpochMilli(since).toString());
    assertThat(o.path("until").asText()).isEqualTo(Instant.ofEpochMilli(until).toString());
    JsonNode crashers = o.path("crashers");
    assertThat(crashers.size()).isEqualTo(Math.min(limit, expected.size()));
    for (int i = 0; i < crashers.size(); i++) {
      JsonNode c = crashers.get(i);
      List<Seen> seen = expected.get(i).getValue();
      Seen latest =
          seen.stream()
              .max(Comparator.comparingLong(Seen::crashMs).thenComparing(Seen::id))
              .orElseThrow();
      assertThat(c.path("signature").asText())
          .as(url + " #" + i)
          .isEqualTo(expected.get(i).getKey());
      assertThat(c.path("count").asLong()).isEqualTo(seen.size());
      assertThat(c.path("share").asDouble())
          .isCloseTo((double) seen.size() / total, Offset.offset(1e-9));
      assertThat(c.path("first_seen").asText())
          .isEqualTo(
              Instant.ofEpochMilli(seen.stream().mapToLong(Seen::crashMs).min().orElseThrow())
                  .toString());
      assertThat(c.path("last_seen").asText())
          .isEqualTo(Instant.ofEpochMilli(latest.crashMs()).toString());
      assertThat(c.path("example_event_id").asText()).isEqualTo(latest.id());
    }
  }

  private void checkSignature(AggregatorApp app, Map<String, Seen> truth, String sig)
      throws Exception {
    List<Seen> seen = truth.values().stream().filter(s -> s.signature().equals(sig)).toList();
    Map<String, Long> hours = new LinkedHashMap<>();
    seen.stream()
        .sorted(Comparator.comparingLong(Seen::crashMs))
        .forEach(
            s ->
                hours.merge(
                    Instant.ofEpochMilli(Math.floorDiv(s.crashMs(), H) * H)
                        + "|"
                        + s.release()
                        + "|"
                        + s.platform(),
                    1L,
                    Long::sum));
    List<String> recent =
        seen.stream()
            .sorted(Comparator.comparingLong(Seen::crashMs).thenComparing(Seen::id).reversed())
            .limit(20)
            .map(Seen::id)
            .toList();

    HttpResponse<String> r =
        get(
            app,
            "/api/signatures/"
                + URLEncoder.encode(sig, StandardCharsets.UTF_8).replace("+", "%20"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode o = JSON.readTree(r.body());
    assertThat(o.path("signature").asText()).isEqualTo(sig);
    assertThat(o.path("total").asLong()).isEqualTo(seen.size());
    Map<String, Long> got = new HashMap<>();
    for (JsonNode h : o.path("hours")) {
      got.put(
          h.path("hour").asText()
              + "|"
              + (h.path("release").isNull() ? "" : h.path("release").asText())
              + "|"
              + h.path("platform").asText(),
          h.path("count").asLong());
    }
    assertThat(got).isEqualTo(hours);
    List<String> ids = new ArrayList<>();
    o.path("recent_event_ids").forEach(n -> ids.add(n.asText()));
    assertThat(ids).isEqualTo(recent);
  }

  private void badRequests(AggregatorApp app) throws Exception {
    for (String bad :
        List.of(
            "/api/top-crashers?limit=0",
            "/api/top-crashers?limit=x",
            "/api/top-crashers?since=yesterday",
            "/api/top-crashers?platform=cobol",
            "/api/top-crashers?release=",
            "/api/top-crashers?colour=red",
            "/api/top-crashers?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z",
            "/api/signatures/%C3",
            "/api/top-crashers?limit=1&limit=2")) {
      HttpResponse<String> r = get(app, bad);
      assertThat(r.statusCode()).as(bad + ": " + r.body()).isEqualTo(400);
      assertThat(JSON.readTree(r.body()).path("error").asText()).as(bad).isNotBlank();
    }
  }

  private HttpResponse<String> get(AggregatorApp app, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(app.server().uri() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.events.SampleEvents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shape of Kafka's EosIntegrationTest: a failure inside a transaction, after some of its
 * outputs reached the broker, makes the stream thread fail; the transaction is aborted and the
 * replaced thread processes the same input again. A read_uncommitted reader sees the aborted
 * outputs, a read_committed one never does, and sees every event exactly once.
 */
class TransactionAbortIT {
  private static final String RAW = "abort.raw";
  private static final String OUT = "abort.symbolicated";
  private static final int EVENTS = 3000;

  /** The output (or symbol request) that fails: well inside the first transactions. */
  private static final int FAIL_AT = 1200;

  @TempDir Path stateDir;

  @Test
  void anAbortedTransactionsOutputIsReadOnlyUncommitted() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopics(2, RAW);
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (var producer =
          new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
        for (int i = 0; i < EVENTS; i++) {
          String id = "ta-" + i;
          CrashEvent e = i % 2 == 0 ? SampleEvents.nativeEvent(id) : SampleEvents.jvmEvent(id);
          producer.send(new ProducerRecord<>(RAW, WireSerdes.crashEvent().encode(e)));
        }
      }
      AppConfig cfg =
          AppConfig.defaults()
              .set("bootstrap.servers", kafka.bootstrapServers())
              .set("application.id", "abort-app")
              .set("topic.raw", RAW)
              .set("topic.symbolicated", OUT)
              .set("topic.dlq", "abort.dlq")
              .set("topics.partitions", "2")
              .set("state.dir", stateDir.toString())
              .set("loader.warmup", "false")
              // long transactions, each record sent at once: the failing one has outputs on the
              // broker
              .set("streams.commit.interval.ms", "2000")
              .set("streams.producer.linger.ms", "0")
              .set("streams.producer.partitioner.class", FaultyPartitioner.class.getName())
              .set("streams.producer." + FaultyPartitioner.AFTER, String.valueOf(FAIL_AT));

      Map<String, Integer> committed = new HashMap<>();
      Set<String> committedOffsets = new HashSet<>();
      try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
          var reader = consumer(kafka.bootstrapServers(), "read_committed")) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (committed.size() < EVENTS && System.nanoTime() < deadline) {
          read(reader, committed, committedOffsets);
        }
        long more = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < more) {
          read(reader, committed, committedOffsets); // a late duplicate must be counted
        }
        assertThat(app.failed()).as("the failed thread was replaced").isFalse();
      }
      assertThat(FaultyPartitioner.failures()).as("the fault was injected").isEqualTo(1);

      Map<String, Integer> uncommitted = new HashMap<>();
      Set<String> uncommittedOffsets = new HashSet<>();
      try (var reader = consumer(kafka.bootstrapServers(), "read_uncommitted")) {
        Map<TopicPartition, Long> ends = reader.endOffsets(reader.assignment());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!reachedEnd(reader, ends) && System.nanoTime() < deadline) {
          read(reader, uncommitted, uncommittedOffsets);
        }
      }

      Set<String> aborted = new HashSet<>(uncommittedOffsets);
      aborted.removeAll(committedOffsets);
      System.out.printf(
          "transaction abort: read_committed %d records of %d events, read_uncommitted %d records,"
              + " %d of them aborted%n",
          committedOffsets.size(), committed.size(), uncommittedOffsets.size(), aborted.size());
      assertThat(aborted).as("the aborted transaction's outputs reached the broker").isNotEmpty();
      assertThat(uncommittedOffsets)
          .as("read_uncommitted sees everything committed too")
          .containsAll(committedOffsets);
      assertThat(uncommitted.values().stream().anyMatch(n -> n > 1))
          .as("read_uncommitted sees aborted outputs beside their retried ones")
          .isTrue();
      assertThat(committed).as("read_committed: every event").hasSize(EVENTS);
      assertThat(committed.entrySet())
          .as("read_committed: exactly once")
          .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(1));
    }
  }

  private static KafkaConsumer<String, byte[]> consumer(String bootstrap, String isolation) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    var consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (parts.isEmpty() && System.nanoTime() < deadline) {
      // the app creates the output topic as it starts
      for (PartitionInfo pi : consumer.partitionsFor(OUT, Duration.ofSeconds(10))) {
        parts.add(new TopicPartition(OUT, pi.partition()));
      }
    }
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    return consumer;
  }

  private static void read(
      KafkaConsumer<String, byte[]> consumer, Map<String, Integer> counts, Set<String> offsets) {
    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
      counts.merge(r.key(), 1, Integer::sum);
      offsets.add(r.partition() + "@" + r.offset());
    }
  }

  private static boolean reachedEnd(
      KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, Long> ends) {
    for (var e : ends.entrySet()) {
      if (consumer.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }
}

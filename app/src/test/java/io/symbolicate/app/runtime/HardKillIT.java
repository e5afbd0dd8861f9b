package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streams app as a separate process, killed with SIGKILL mid-stream and started again: with
 * exactly-once v2, every input event appears exactly once on the output.
 */
class HardKillIT {
  @TempDir Path stateDir;

  private Process startApp(String bootstrap) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                "io.symbolicate.app.cli.SymbolicatorCli",
                "run",
                "-b",
                bootstrap,
                "--set",
                "application.id=hardkill",
                "--set",
                "state.dir=" + stateDir,
                "--set",
                "topics.partitions=2",
                "--set",
                "streams.commit.interval.ms=100",
                // the killed member is noticed after this, not after the default 45 s
                "--set",
                "streams.session.timeout.ms=6000"));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(new File(stateDir.toFile(), "app-" + System.nanoTime() + ".log"))
        .start();
  }

  @Test
  void aKilledAppLosesAndDuplicatesNothing() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopics(2, "crash-events.raw");
      int total = 4000;
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (var producer =
          new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
        for (int i = 0; i < total; i++) {
          CrashEvent e =
              switch (i % 3) {
                case 0 -> SampleEvents.nativeEvent("k-" + i);
                case 1 -> SampleEvents.jsEvent("k-" + i);
                default -> SampleEvents.jvmEvent("k-" + i);
              };
          producer.send(
              new ProducerRecord<>("crash-events.raw", WireSerdes.crashEvent().encode(e)));
        }
      }

      Map<String, Integer> seen = new HashMap<>();
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      c.put(ConsumerConfig.GROUP_ID_CONFIG, "hardkill-reader");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      try (var consumer =
          new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
        Process first = startApp(kafka.bootstrapServers());
        try {
          poll(consumer, seen, () -> sum(seen) >= 300, Duration.ofSeconds(90));
          assertThat(sum(seen)).as("the first process produced output").isGreaterThanOrEqualTo(300);
        } finally {
          first.destroyForcibly(); // SIGKILL: no clean shutdown, open transactions are left behind
          first.waitFor();
        }
        assertThat(sum(seen)).as("killed before the end").isLessThan(total);

        Process second = startApp(kafka.bootstrapServers());
        try {
          poll(consumer, seen, () -> seen.size() >= total, Duration.ofSeconds(180));
          // keep reading a little: a duplicate arriving late must be counted
          poll(consumer, seen, () -> false, Duration.ofSeconds(3));
        } finally {
          second.destroy();
          second.waitFor();
        }
      }
      assertThat(seen).hasSize(total);
      assertThat(seen.entrySet())
          .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(1));
    }
  }

  private static int sum(Map<String, Integer> seen) {
    return seen.values().stream().mapToInt(Integer::intValue).sum();
  }

  private static void poll(
      KafkaConsumer<String, byte[]> consumer,
      Map<String, Integer> seen,
      BooleanSupplier done,
      Duration timeout) {
    consumer.subscribe(List.of("crash-events.symbolicated"));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      consumer.poll(Duration.ofMillis(100)).forEach(r -> seen.merge(r.key(), 1, Integer::sum));
    }
  }
}

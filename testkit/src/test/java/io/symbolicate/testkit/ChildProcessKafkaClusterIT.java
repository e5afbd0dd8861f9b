package io.symbolicate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Three child-process KRaft nodes sharing a quorum: topics replicated three times, and
 * {@code acks=all} writes go on while one node is stopped (two in sync of three) and after it is
 * back, with no record lost.
 */
class ChildProcessKafkaClusterIT {

  @Test
  void keepsServingWithOneNodeDownAndTakesItBack() throws Exception {
    Path dir;
    try (ChildProcessKafkaCluster cluster =
        ChildProcessKafkaCluster.start(3, Map.of(), ChildProcessKafka.TEST_JVM_OPTIONS)) {
      dir = cluster.directory();
      assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
      cluster.createTopics(2, "t");
      try (Admin admin = cluster.admin()) {
        TopicDescription t = admin.describeTopics(List.of("t")).allTopicNames().get().get("t");
        assertThat(t.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
        String minIsr = admin.describeConfigs(List.of(new org.apache.kafka.common.config.ConfigResource(
            org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "t"))).all().get().values().iterator().next()
            .get("min.insync.replicas").value();
        assertThat(minIsr).isEqualTo("2");
      }
      produce(cluster.bootstrapServers(), "a-", 50);

      cluster.node(2).stop(Duration.ofSeconds(30));
      assertThat(cluster.node(2).isRunning()).isFalse();
      produce(cluster.bootstrapServers(), "b-", 50);

      cluster.node(2).restart();
      cluster.awaitBrokers(3, Duration.ofSeconds(60));
      cluster.node(3).kill();
      produce(cluster.bootstrapServers(), "c-", 50);
      cluster.node(3).restart();

      List<String> all = consumeAll(cluster.bootstrapServers(), 150);
      assertThat(all).hasSize(150).doesNotHaveDuplicates();
      assertThat(all).filteredOn(v -> v.startsWith("b-")).hasSize(50);
    }
    assertThat(Files.exists(dir)).as("directory removed").isFalse();
  }

  private static void produce(String bootstrap, String prefix, int n) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
    try (var producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < n; i++) {
        producer.send(new ProducerRecord<>("t", prefix + i)).get();
      }
    }
  }

  private static List<String> consumeAll(String bootstrap, int expected) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    List<String> out = new ArrayList<>();
    try (var consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> parts = List.of(new TopicPartition("t", 0), new TopicPartition("t", 1));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> out.add(r.value()));
      }
      consumer.poll(Duration.ofMillis(500)).forEach(r -> out.add(r.value()));
    }
    return out;
  }
}

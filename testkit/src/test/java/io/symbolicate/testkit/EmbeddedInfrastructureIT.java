package io.symbolicate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

class EmbeddedInfrastructureIT {

  @Test
  void kafkaBrokerRunsTransactionsOnLoopback() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      assertThat(kafka.bootstrapServers()).matches("(localhost|127\\.0\\.0\\.1):\\d+");
      kafka.createTopics(2, "t");
      kafka.createTopics(2, "t"); // idempotent

      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-1");
      try (KafkaProducer<String, String> p =
          new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
        p.initTransactions();
        p.beginTransaction();
        p.send(new ProducerRecord<>("t", "k1", "committed"));
        p.commitTransaction();
        p.beginTransaction();
        p.send(new ProducerRecord<>("t", "k2", "aborted"));
        p.flush();
        p.abortTransaction();
      }

      Properties cp = new Properties();
      cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      cp.put(ConsumerConfig.GROUP_ID_CONFIG, "g");
      cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      List<String> seen = new ArrayList<>();
      try (KafkaConsumer<String, String> c =
          new KafkaConsumer<>(cp, new StringDeserializer(), new StringDeserializer())) {
        c.subscribe(List.of("t"));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (seen.isEmpty() && System.nanoTime() < deadline) {
          for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
            seen.add(r.value());
          }
        }
        // give an aborted record a chance to (wrongly) show up
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
          seen.add(r.value());
        }
      }
      assertThat(seen).containsExactly("committed");
    }
  }

  @Test
  void s3ServerStoresObjectsOnDiskThroughTheAwsSdk(@TempDir Path dir) {
    try (EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(dir);
        S3Client client = s3.client()) {
      assertThat(s3.endpoint().getHost()).isEqualTo("127.0.0.1");
      client.createBucket(b -> b.bucket("symbols"));
      String key = "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.sym";
      client.putObject(
          b -> b.bucket("symbols").key(key),
          RequestBody.fromString("MODULE windows x86 A xul.pdb\n"));
      assertThat(
              client
                  .getObjectAsBytes(b -> b.bucket("symbols").key(key))
                  .asString(StandardCharsets.UTF_8))
          .startsWith("MODULE windows");
      assertThat(Files.exists(dir.resolve("symbols"))).isTrue();
      assertThatThrownBy(() -> client.getObjectAsBytes(b -> b.bucket("symbols").key("nope")))
          .isInstanceOf(NoSuchKeyException.class);
    }
  }

  @Test
  void brokerAcceptsOverridesSuchAsMessageSize() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(Map.of("message.max.bytes", "2000000"));
        var admin = kafka.admin()) {
      var broker =
          new ConfigResource(
              ConfigResource.Type.BROKER,
              String.valueOf(admin.describeCluster().nodes().get().iterator().next().id()));
      var configs = admin.describeConfigs(List.of(broker)).all().get().get(broker);
      assertThat(configs.get("message.max.bytes").value()).isEqualTo("2000000");
    }
  }
}

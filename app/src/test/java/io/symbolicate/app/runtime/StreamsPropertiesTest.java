package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.config.TopologyConfig;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/** The Kafka Streams settings the app derives from its configuration. */
class StreamsPropertiesTest {

  private static AppConfig config() {
    return AppConfig.defaults()
        .set("bootstrap.servers", "127.0.0.1:9")
        .set("application.id", "props-test")
        .set("state.dir", "/tmp/props-test");
  }

  @Test
  void exactlyOnceWithoutIdlingAndCompressedOutput() {
    Properties p = KafkaProperties.streams(config());
    assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
        .isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
    assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG))
        .as("single-partition tasks: never idle")
        .isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    assertThat(p.get(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG)))
        .isEqualTo("lz4");
    assertThat(new StreamsConfig(p).getLong(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(-1L);
  }

  @Test
  void theMainConsumerFetchesSeveralMegabytesPerPartitionTheOthersTheirDefault() {
    StreamsConfig c = new StreamsConfig(KafkaProperties.streams(config()));
    assertThat(
            c.getMainConsumerConfigs("g", "c", 0)
                .get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG))
        .isEqualTo(8 << 20);
    assertThat(c.getGlobalConsumerConfigs("c"))
        .doesNotContainKey(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);
    assertThat(c.getRestoreConsumerConfigs("c"))
        .doesNotContainKey(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);
    // and a setting of the user's wins
    StreamsConfig set =
        new StreamsConfig(
            KafkaProperties.streams(
                config().set("streams.main.consumer.max.partition.fetch.bytes", "1048576")));
    assertThat(
            set.getMainConsumerConfigs("g", "c", 0)
                .get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG))
        .isEqualTo("1048576");
  }

  /**
   * Why idling may be off: every sub-topology reads one topic, so every task one partition, and
   * there is nothing to align in time. A join or a second source would need idling back.
   */
  @Test
  void everySubTopologyReadsOneTopic() {
    TopologyDescription d =
        SymbolicationTopology.build(TopologyConfig.defaults(), SymbolEngines.steps()).describe();
    assertThat(d.subtopologies()).isNotEmpty();
    for (TopologyDescription.Subtopology sub : d.subtopologies()) {
      Set<String> topics = new HashSet<>();
      for (TopologyDescription.Node n : sub.nodes()) {
        if (n instanceof TopologyDescription.Source src) {
          assertThat(src.topicPattern()).as("no pattern sources").isNull();
          topics.addAll(src.topicSet());
        }
      }
      assertThat(topics).as("sub-topology %d", sub.id()).hasSize(1);
    }
  }

  /** docs/operations.md#failover: a killed instance's partitions move in seconds, not 45 s. */
  @Test
  void failoverInSecondsByDefault() {
    StreamsConfig c = new StreamsConfig(KafkaProperties.streams(config()));
    Map<String, Object> main = c.getMainConsumerConfigs("g", "c", 0);
    assertThat(main.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)).isEqualTo(6000);
    assertThat(main.get(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)).isEqualTo(1500);
    assertThat(c.getProducerConfigs("c").get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG))
        .isEqualTo(5000);
    assertThat(c.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo(1);
    // the app's keys set them, a streams. key still wins
    StreamsConfig set =
        new StreamsConfig(
            KafkaProperties.streams(
                config()
                    .set("group.session.timeout.ms", "10000")
                    .set("standby.replicas", "0")
                    .set("streams.transaction.timeout.ms", "20000")));
    assertThat(
            set.getMainConsumerConfigs("g", "c", 0).get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG))
        .isEqualTo(10000);
    assertThat(
            set.getMainConsumerConfigs("g", "c", 0)
                .get(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG))
        .isEqualTo(2500);
    assertThat(set.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isZero();
    assertThat(set.getProducerConfigs("c").get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG))
        .isEqualTo("20000");
    // at-least-once has no transactions to time out
    assertThat(KafkaProperties.streams(config().set("processing.guarantee", "at_least_once")))
        .doesNotContainKey(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
  }

  @Test
  void streamsSettingsOverrideTheDefaults() {
    Properties p =
        KafkaProperties.streams(
            config()
                .set("streams.max.task.idle.ms", "500")
                .set("streams.producer.compression.type", "zstd"));
    assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo("500");
    assertThat(p.get(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG)))
        .isEqualTo("zstd");
  }

  @Test
  void theOutputLimitStaysBelowTheTopicsAndTheProducersLimit() {
    assertThat(config().topologyConfig().maxOutputBytes()).isEqualTo((8 << 20) - (64 << 10));
    // the broker's default 1 MB: the limit must not exceed it (it once had a 1 MB floor)
    assertThat(
            config()
                .set("dlq.max.message.bytes", String.valueOf(1 << 20))
                .topologyConfig()
                .maxOutputBytes())
        .isLessThan(1 << 20)
        .isGreaterThan(900 << 10);
  }

  @Test
  void theModulesPerEventAreCappedByDefaultAndConfigurable() {
    assertThat(config().topologyConfig().parking().maxModules()).isEqualTo(1000);
    assertThat(config().set("max.modules.per.event", "64").topologyConfig().parking().maxModules())
        .isEqualTo(64);
    assertThatThrownBy(() -> config().set("max.modules.per.event", "0").topologyConfig())
        .isInstanceOf(AppConfig.ConfigException.class)
        .hasMessageContaining("max.modules.per.event must be positive");
  }

  /** The tools' own clients (reset, clean, reprocess) connect as the app does, secrets and all. */
  @Test
  void theToolsClientsTakeTheConnectionSettingsAndConfigProviders() {
    AppConfig cfg =
        config()
            .set("streams.security.protocol", "SASL_SSL")
            .set("streams.sasl.jaas.config", "${file:/etc/kafka/secrets.properties:jaas}")
            .set("streams.config.providers", "file")
            .set(
                "streams.config.providers.file.class",
                "org.apache.kafka.common.config.provider.FileConfigProvider")
            .set("streams.group.protocol", "streams")
            .set("streams.consumer.max.poll.records", "77")
            .set("streams.producer.linger.ms", "9")
            .set("streams.admin.request.timeout.ms", "4321");
    Properties consumer =
        KafkaProperties.client(cfg, ConsumerConfig.configNames(), StreamsConfig.CONSUMER_PREFIX);
    assertThat(consumer)
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.jaas.config", "${file:/etc/kafka/secrets.properties:jaas}")
        .containsEntry("config.providers", "file")
        .containsEntry(
            "config.providers.file.class",
            "org.apache.kafka.common.config.provider.FileConfigProvider")
        .containsEntry("max.poll.records", "77")
        .doesNotContainKey("group.protocol") // the app's consumer behaviour, not a plain consumer's
        .doesNotContainKey("linger.ms");
    Properties producer =
        KafkaProperties.client(cfg, ProducerConfig.configNames(), StreamsConfig.PRODUCER_PREFIX);
    assertThat(producer)
        .containsEntry("linger.ms", "9")
        .containsEntry("security.protocol", "SASL_SSL")
        .doesNotContainKey("max.poll.records");
    assertThat(KafkaProperties.admin(cfg))
        .containsEntry("request.timeout.ms", "4321")
        .containsEntry("config.providers", "file")
        .containsEntry("security.protocol", "SASL_SSL");
    // the loader's and the API's clients too
    assertThat(KafkaProperties.security(cfg))
        .containsEntry("config.providers", "file")
        .containsEntry("sasl.jaas.config", "${file:/etc/kafka/secrets.properties:jaas}")
        .doesNotContainKey("group.protocol");
  }

  /** A request timeout longer than startup.timeout.ms must not make the Admin client refuse its settings. */
  @Test
  void aLongRequestTimeoutStillMakesAnAdminClient() {
    AppConfig cfg = config().set("streams.request.timeout.ms", "30000");
    Properties p = KafkaProperties.admin(cfg);
    assertThat(Long.parseLong(String.valueOf(p.get("default.api.timeout.ms"))))
        .isGreaterThanOrEqualTo(30000);
    try (var admin = Admin.create(p)) {
      assertThat(admin).isNotNull();
    }
  }
}

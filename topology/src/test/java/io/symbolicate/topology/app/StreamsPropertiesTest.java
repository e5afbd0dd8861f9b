package io.symbolicate.topology.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The Kafka Streams settings the app derives from its configuration. */
class StreamsPropertiesTest {

  private static AppConfig config() {
    return AppConfig.defaults().set("bootstrap.servers", "127.0.0.1:9").set("application.id", "props-test")
        .set("state.dir", "/tmp/props-test");
  }

  @Test
  void exactlyOnceWithoutIdlingAndCompressedOutput() {
    Properties p = SymbolicatorApp.streamsProperties(config());
    assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
    assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).as("single-partition tasks: never idle")
        .isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    assertThat(p.get(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG))).isEqualTo("lz4");
    // the topology's tasks each read one partition: the whole configuration is accepted
    assertThat(new StreamsConfig(p).getLong(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo(-1L);
  }

  @Test
  void streamsSettingsOverrideTheDefaults() {
    Properties p = SymbolicatorApp.streamsProperties(config().set("streams.max.task.idle.ms", "500")
        .set("streams.producer.compression.type", "zstd"));
    assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo("500");
    assertThat(p.get(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG))).isEqualTo("zstd");
  }
}

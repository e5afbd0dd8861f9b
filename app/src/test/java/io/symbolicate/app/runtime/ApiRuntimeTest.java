package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The Kafka client settings of the API beside the stream ({@code run} with http.enabled). */
class ApiRuntimeTest {

  @Test
  void moduleRequestsBlockAtMostTwoSecondsNotTheProducersMinute() {
    Properties p =
        ApiRuntime.requestProducerProperties(
            AppConfig.defaults().set("bootstrap.servers", "127.0.0.1:9"));
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    ProducerConfig c = new ProducerConfig(p);
    assertThat(c.getLong(ProducerConfig.MAX_BLOCK_MS_CONFIG)).isEqualTo(2_000L);
    assertThat(c.getString(ProducerConfig.ACKS_CONFIG)).isEqualTo("-1");
    assertThat(c.getList(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)).containsExactly("127.0.0.1:9");
  }
}

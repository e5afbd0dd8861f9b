package io.symbolicate.app.runtime;

import io.symbolicate.api.collect.CollectorLimits;
import io.symbolicate.api.collect.CollectorService;
import io.symbolicate.api.collect.EventSink;
import io.symbolicate.api.collect.S3DumpStore;
import io.symbolicate.api.collect.SubmitHandler;
import io.symbolicate.api.collect.SubmitKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.connectors.source.S3Source;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The crash collector from the configuration ({@code collector.*}, {@code api.keys}): its dump
 * bucket, its limits, the producer of its events on {@code topic.raw}, and its sweeper.
 */
final class CollectorRuntime {
  /** How long a send may block on an unreachable broker before it fails (the event stays pending). */
  static final long MAX_BLOCK_MS = 2_000;

  /** How long the producer retries an event before it gives up (then the sweeper sends it). */
  static final int DELIVERY_TIMEOUT_MS = 120_000;

  /** A running collector: its service and what it closes. */
  record Collector(
      CollectorService service,
      SubmitHandler endpoint,
      S3Client s3,
      Producer<byte[], byte[]> producer)
      implements AutoCloseable {
    @Override
    public void close() {
      service.close();
      producer.close(Duration.ofSeconds(5));
      s3.close();
    }
  }

  private CollectorRuntime() {}

  /** The collector, or null when {@code collector.enabled} is false. */
  static Collector start(AppConfig cfg) {
    if (!cfg.getBoolean(ConfigKeys.COLLECTOR_ENABLED)) {
      return null;
    }
    String bucket = cfg.get(ConfigKeys.COLLECTOR_S3_BUCKET).strip();
    if (bucket.isEmpty()) {
      throw new AppConfig.ConfigException(
          "collector.enabled needs collector.s3.bucket to store the dumps in");
    }
    if (cfg.get(ConfigKeys.BOOTSTRAP_SERVERS).isBlank()) {
      throw new AppConfig.ConfigException(
          "collector.enabled needs bootstrap.servers: it writes crash events to "
              + cfg.topicNames().raw());
    }
    CollectorLimits limits = limits(cfg);
    SubmitKeys keys =
        new SubmitKeys(UploadRuntime.keys(cfg), cfg.getBoolean(ConfigKeys.COLLECTOR_KEYS_REQUIRED));
    String endpoint = cfg.get(ConfigKeys.SYMBOLS_S3_ENDPOINT);
    S3Client s3 =
        S3Source.client(
            new S3Source.Settings(
                bucket,
                "",
                cfg.get(ConfigKeys.SYMBOLS_S3_REGION),
                endpoint.isBlank() ? null : URI.create(endpoint),
                cfg.getBoolean(ConfigKeys.SYMBOLS_S3_PATH_STYLE),
                cfg.getMillis(ConfigKeys.SYMBOLS_FETCH_TIMEOUT_MS)));
    KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            producerProperties(cfg), new ByteArraySerializer(), new ByteArraySerializer());
    CollectorService service =
        new CollectorService(
                new S3DumpStore(s3, bucket),
                cfg.get(ConfigKeys.COLLECTOR_S3_PREFIX),
                sink(producer, cfg.topicNames().raw()),
                limits,
                System::currentTimeMillis)
            .startSweeper();
    return new Collector(service, new SubmitHandler(service, keys), s3, producer);
  }

  static CollectorLimits limits(AppConfig cfg) {
    try {
      return new CollectorLimits(
          cfg.getLong(ConfigKeys.COLLECTOR_MAX_BODY_BYTES),
          cfg.getLong(ConfigKeys.COLLECTOR_MAX_DECOMPRESSED_BYTES),
          cfg.getLong(ConfigKeys.COLLECTOR_MAX_DUMP_BYTES),
          cfg.getInt(ConfigKeys.COLLECTOR_MAX_DUMPS),
          cfg.getInt(ConfigKeys.COLLECTOR_MAX_FIELDS),
          cfg.getInt(ConfigKeys.COLLECTOR_MAX_FIELD_BYTES),
          cfg.getInt(ConfigKeys.COLLECTOR_MAX_ANNOTATIONS_BYTES),
          cfg.getInt(ConfigKeys.COLLECTOR_MAX_IN_FLIGHT),
          cfg.getInt(ConfigKeys.HTTP_RETRY_AFTER_SECONDS),
          cfg.getMillis(ConfigKeys.COLLECTOR_SEND_WAIT_MS),
          cfg.getMillis(ConfigKeys.COLLECTOR_PENDING_RESEND_MS),
          cfg.getMillis(ConfigKeys.COLLECTOR_SWEEP_INTERVAL_MS));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException(e.getMessage());
    }
  }

  /** Events keyed by crash id; the future completes on the broker's acknowledgement. */
  static EventSink sink(Producer<byte[], byte[]> producer, String topic) {
    return (key, value) -> {
      CompletableFuture<Void> f = new CompletableFuture<>();
      try {
        producer.send(
            new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value),
            (md, e) -> {
              if (e != null) {
                f.completeExceptionally(e);
              } else {
                f.complete(null);
              }
            });
      } catch (RuntimeException e) {
        f.completeExceptionally(e);
      }
      return f;
    };
  }

  /** Acknowledged by every in-sync replica, idempotent; a send blocks at most {@link #MAX_BLOCK_MS}. */
  static Properties producerProperties(AppConfig cfg) {
    Properties p = new Properties();
    KafkaProperties.security(cfg).forEach(p::put);
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "symbolicator-collector");
    return p;
  }
}

package io.symbolicate.app.config;

import io.symbolicate.topology.deadletter.OversizedOutputHandler;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka clients' settings that follow from the configuration: the stream app's, the
 * start-up admin client's, the tools' plain clients', and the security settings of the clients
 * the app creates itself.
 */
public final class KafkaProperties {
  private KafkaProperties() {}

  /** The main consumer's {@code max.partition.fetch.bytes} (see {@link #streams}). */
  static final int MAIN_FETCH_BYTES = 8 << 20;

  /** The output producer's codec and batch size (see {@link #streams}; the JMH benchmarks use them too). */
  public static final String OUTPUT_COMPRESSION = "lz4";

  public static final int OUTPUT_BATCH_BYTES = 256 * 1024;

  public static Properties streams(AppConfig cfg) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, cfg.get(ConfigKeys.APPLICATION_ID));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, cfg.get(ConfigKeys.PROCESSING_GUARANTEE));
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, cfg.getInt(ConfigKeys.NUM_STREAM_THREADS));
    p.put(StreamsConfig.STATE_DIR_CONFIG, cfg.get(ConfigKeys.STATE_DIR));
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    // a symbolicated event too large for the output topic is dead-lettered, not a stopped partition
    p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, OversizedOutputHandler.class);
    p.put(OversizedOutputHandler.DLQ_TOPIC, cfg.get(ConfigKeys.TOPIC_DLQ));
    p.put(OversizedOutputHandler.MAX_BYTES, cfg.topologyConfig().maxOutputBytes());
    // the changelogs of parked events hold whole events: as large as the outputs may be, not the
    // broker's 1 MB default (max.event.bytes may be raised above it)
    p.put(
        StreamsConfig.topicPrefix("max.message.bytes"),
        cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES));
    // a dead letter carries the original record plus its reason, so it may exceed 1 MB
    p.put(
        StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
        cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES));
    // symbolicated events are several KB of repetitive names: batches of a whole commit interval
    // and lz4 cost the broker and every consumer a fraction of the per-batch and per-byte work
    p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), OUTPUT_BATCH_BYTES);
    p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), OUTPUT_COMPRESSION);
    // every task reads one partition (no joins to align in time), so there is nothing to idle
    // for; and Kafka Streams 4.3 formats a log string per empty partition on every processing
    // check unless idling is disabled (String.format on the stream thread: 1-2 % of its samples)
    p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    // the input is many small events: fetch up to 8 MB per partition (not 1 MB, ~900 events), so
    // the stream thread waits out a fetch round trip once per several thousand events. A broker
    // busy storing the symbolicated output answers fetches late: with 1 MB the symbolicator's
    // stream thread waited 15-24 µs per event for input in the benchmark, 5-15 µs with 8 MB.
    // The main consumer only (the global one reads pages of up to 4 MB anyway); the consumer's
    // own fetch.max.bytes (50 MB) still bounds a response
    p.put(
        StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
        MAIN_FETCH_BYTES);
    failover(cfg, p);
    cfg.streamsOverrides().forEach(p::put);
    return p;
  }

  /**
   * The settings that decide how fast a killed instance's partitions come back (see
   * docs/operations.md#failover): the group notices the loss after the session timeout; the
   * dead instance's open transaction blocks read_committed readers of every output partition
   * until the broker aborts it after the transaction timeout; a standby copy of the state lets
   * the new owner start without restoring it.
   */
  private static void failover(AppConfig cfg, Properties p) {
    int session = cfg.getInt(ConfigKeys.SESSION_TIMEOUT_MS);
    // plain keys, not main.consumer./producer. ones, so that a user's streams.session.timeout.ms
    // or streams.transaction.timeout.ms still wins over them
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, session);
    // a third of the session is Kafka's rule of thumb; a quarter leaves a missed heartbeat room
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(1, session / 4));
    if (!StreamsConfig.AT_LEAST_ONCE.equals(cfg.get(ConfigKeys.PROCESSING_GUARANTEE))) {
      p.put(
          ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, cfg.getInt(ConfigKeys.TRANSACTION_TIMEOUT_MS));
    }
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, cfg.getInt(ConfigKeys.STANDBY_REPLICAS));
  }

  /**
   * An Admin client's settings: the cluster, {@code startup.timeout.ms} for its calls, and the
   * {@code streams.*} overrides an Admin client takes (security, for one).
   */
  public static Properties admin(AppConfig cfg) {
    int timeoutMs = cfg.getInt(ConfigKeys.STARTUP_TIMEOUT_MS);
    Properties ap = client(cfg, AdminClientConfig.configNames(), StreamsConfig.ADMIN_CLIENT_PREFIX);
    ap.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 5000));
    // the Admin client refuses an API timeout below the request timeout (a user's may be longer)
    long request =
        Long.parseLong(String.valueOf(ap.get(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)).trim());
    ap.putIfAbsent(
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
        (int) Math.min(Integer.MAX_VALUE, Math.max(timeoutMs, request)));
    return ap;
  }

  /**
   * The settings of a plain client of the app's cluster (the tools' consumers and producers):
   * the {@code streams.*} overrides about the connection that this client takes (security,
   * timeouts; not the app's consumer behaviour such as {@code group.protocol}), the config
   * providers that resolve {@code ${...}} secrets in them, and those given for that kind of
   * client alone ({@code streams.consumer.*}, {@code streams.producer.*}, {@code streams.admin.*},
   * which win).
   */
  public static Properties client(AppConfig cfg, Set<String> names, String clientPrefix) {
    Properties p = new Properties();
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    Map<String, String> overrides = cfg.streamsOverrides();
    overrides.forEach(
        (k, v) -> {
          if (names.contains(k) && AdminClientConfig.configNames().contains(k)
              || k.startsWith(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
            p.put(k, v);
          }
        });
    overrides.forEach(
        (k, v) -> {
          if (k.startsWith(clientPrefix) && names.contains(k.substring(clientPrefix.length()))) {
            p.put(k.substring(clientPrefix.length()), v);
          }
        });
    return p;
  }

  /**
   * The loader's client settings: the cluster's security settings, and its consumer group's
   * session timeout and heartbeat, the stream's ({@code group.session.timeout.ms}): with Kafka's
   * 45 s a killed instance's embedded loader kept its partitions of {@code symbols.requests} for
   * 45 s, and the modules asked for on them were not loaded meanwhile (their events parked, near
   * {@code park.timeout.ms}). The loader's producer ignores the two consumer keys.
   */
  public static Map<String, String> loader(AppConfig cfg) {
    Map<String, String> m = new HashMap<>(security(cfg));
    int session = cfg.getInt(ConfigKeys.SESSION_TIMEOUT_MS);
    m.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, String.valueOf(session));
    m.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, String.valueOf(Math.max(1, session / 4)));
    return m;
  }

  /** The cluster's security settings, for clients the app creates itself (loader, API). */
  public static Map<String, String> security(AppConfig cfg) {
    Map<String, String> clientOverrides = new HashMap<>();
    cfg.streamsOverrides()
        .forEach(
            (k, v) -> {
              if (k.startsWith("security.")
                  || k.startsWith("ssl.")
                  || k.startsWith("sasl.")
                  || k.startsWith(AbstractConfig.CONFIG_PROVIDERS_CONFIG)) {
                clientOverrides.put(k, v);
              }
            });
    return clientOverrides;
  }
}

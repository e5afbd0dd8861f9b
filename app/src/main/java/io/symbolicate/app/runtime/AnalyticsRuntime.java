package io.symbolicate.app.runtime;

import io.symbolicate.analytics.AnalyticsConfig;
import io.symbolicate.analytics.TopCrashersTopology;
import io.symbolicate.analytics.query.StreamsCounts;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The top-crashers aggregation as a Kafka Streams client of its own (its application id,
 * state and internal topics), inside {@code run} ({@code analytics.enabled}) or alone
 * ({@code aggregate}). Its {@code application.server} is this instance's HTTP API, so the
 * API can route a question to the instance that holds the answer.
 */
public final class AnalyticsRuntime implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AnalyticsRuntime.class);

  private final KafkaStreams streams;
  private final StreamsCounts counts;

  private AnalyticsRuntime(KafkaStreams streams, StreamsCounts counts) {
    this.streams = streams;
    this.counts = counts;
  }

  public static AnalyticsConfig config(AppConfig cfg) {
    try {
      return new AnalyticsConfig(
          cfg.get(ConfigKeys.TOPIC_SYMBOLICATED),
          cfg.getMillis(ConfigKeys.ANALYTICS_RETENTION_MS),
          cfg.getMillis(ConfigKeys.ANALYTICS_PURGE_INTERVAL_MS));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException("analytics: " + e.getMessage());
    }
  }

  public static String applicationId(AppConfig cfg) {
    String id = cfg.get(ConfigKeys.ANALYTICS_APPLICATION_ID);
    return id.isBlank() ? cfg.get(ConfigKeys.APPLICATION_ID) + "-analytics" : id;
  }

  /** The host and port other instances reach this one's API at, for {@code application.server}. */
  public static HostInfo advertised(AppConfig cfg, int apiPort) {
    String host = cfg.get(ConfigKeys.ANALYTICS_ADVERTISED_HOST);
    return new HostInfo(host.isBlank() ? cfg.get(ConfigKeys.HTTP_HOST) : host, apiPort);
  }

  /** The aggregation client's settings: the app's, its own application id, and {@code self} as application.server (if any). */
  public static Properties properties(AppConfig cfg, HostInfo self) {
    Properties p = KafkaProperties.streams(cfg);
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId(cfg));
    if (self != null) {
      p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
    }
    // a record on the symbolicated topic that does not decode is skipped (and logged): it
    // must not stop the counting of every other one
    p.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndContinueExceptionHandler.class);
    return p;
  }

  /** Creates and starts the aggregation; {@code self} is null when this process serves no API. */
  public static AnalyticsRuntime start(AppConfig cfg, HostInfo self) {
    KafkaStreams streams =
        new KafkaStreams(TopCrashersTopology.build(config(cfg)), properties(cfg, self));
    streams.setUncaughtExceptionHandler(
        ex -> {
          log.error("top-crashers stream thread failed; replacing it", ex);
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    streams.setStateListener(
        (now, before) -> log.info("top-crashers streams state {} -> {}", before, now));
    streams.start();
    log.info("top crashers: application.id={}, application.server={}", applicationId(cfg), self);
    return new AnalyticsRuntime(
        streams, new StreamsCounts(streams, self == null ? new HostInfo("unknown", 0) : self));
  }

  public KafkaStreams streams() {
    return streams;
  }

  public StreamsCounts counts() {
    return counts;
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  public void close(Duration timeout) {
    streams.close(
        CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
            .withTimeout(timeout));
  }
}

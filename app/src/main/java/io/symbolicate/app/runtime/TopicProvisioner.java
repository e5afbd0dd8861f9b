package io.symbolicate.app.runtime;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.schema.topic.TopicNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** At start-up: reaches the cluster, creates the missing topics and checks the existing ones. */
public final class TopicProvisioner {
  private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);

  private TopicProvisioner() {}

  /**
   * Reaches the cluster and creates the missing topics (unless {@code topics.create=false}).
   * {@code writesEvents}: the caller is the stream app, whose output and dead-letter topics, if
   * they exist already, must take records of {@code dlq.max.message.bytes}.
   */
  public static void ensure(AppConfig cfg, TopicNames topics, boolean writesEvents) {
    int timeoutMs = cfg.getInt(ConfigKeys.STARTUP_TIMEOUT_MS);
    Properties ap = KafkaProperties.admin(cfg);
    try (Admin admin = Admin.create(ap)) {
      Set<String> existing;
      try {
        existing = admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        throw new StartupException(
            "cannot reach Kafka at "
                + cfg.bootstrapServers()
                + " within "
                + timeoutMs
                + " ms"
                + (e instanceof ExecutionException ? ": " + e.getCause().getMessage() : ""));
      }
      List<NewTopic> missing = new ArrayList<>();
      int partitions = cfg.getInt(ConfigKeys.TOPICS_PARTITIONS);
      Optional<Short> rf =
          cfg.getInt(ConfigKeys.TOPICS_REPLICATION_FACTOR) < 0
              ? Optional.empty()
              : Optional.of((short) cfg.getInt(ConfigKeys.TOPICS_REPLICATION_FACTOR));
      for (String t : topics.all()) {
        if (!existing.contains(t)) {
          NewTopic nt = new NewTopic(t, Optional.of(partitions), rf);
          Map<String, String> tc = new HashMap<>();
          if (t.equals(topics.dlq()) || t.equals(topics.symbolicated())) {
            // a dead letter carries the original record plus its reason; a symbolicated event
            // carries the raw event plus every frame's names: either may exceed 1 MB
            tc.put("max.message.bytes", cfg.get(ConfigKeys.DLQ_MAX_MESSAGE_BYTES));
          }
          if (topics.compacted().contains(t)) {
            tc.put("cleanup.policy", "compact");
          }
          if (t.equals(topics.tables())) {
            tc.put("max.message.bytes", String.valueOf(4 << 20));
          }
          nt.configs(tc);
          missing.add(nt);
        }
      }
      if (writesEvents) {
        checkRecordLimits(
            admin,
            cfg,
            Stream.of(topics.symbolicated(), topics.dlq())
                .filter(existing::contains)
                .distinct()
                .toList(),
            timeoutMs);
      }
      if (missing.isEmpty()) {
        return;
      }
      if (!cfg.getBoolean(ConfigKeys.TOPICS_CREATE)) {
        throw new StartupException(
            "missing topics "
                + missing.stream().map(NewTopic::name).toList()
                + " and topics.create=false");
      }
      log.info("creating topics {}", missing.stream().map(NewTopic::name).toList());
      try {
        admin.createTopics(missing).all().get(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new StartupException("cannot create topics: " + e.getCause().getMessage());
        }
      } catch (TimeoutException e) {
        throw new StartupException("timed out creating topics " + missing);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartupException("interrupted while starting");
    }
  }

  /**
   * An output or dead letter that its topic refuses dooms the exactly-once transaction, and after
   * the restart the same record fails again: the partition stops for good. The app's own limit on
   * what it writes there is {@code dlq.max.message.bytes}, so existing topics must take that much.
   * (Topics the app creates get it.) If the configs cannot be read (no DescribeConfigs right), it
   * says so and goes on.
   */
  private static void checkRecordLimits(
      Admin admin, AppConfig cfg, List<String> names, int timeoutMs) throws InterruptedException {
    if (names.isEmpty()) {
      return;
    }
    int needed = cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES);
    Map<ConfigResource, Config> configs;
    try {
      configs =
          admin
              .describeConfigs(
                  names.stream()
                      .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n))
                      .toList())
              .all()
              .get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      log.warn(
          "cannot read max.message.bytes of {} ({}); they must take records of dlq.max.message.bytes={}",
          names,
          e instanceof ExecutionException ? e.getCause().getMessage() : "timed out",
          needed);
      return;
    }
    for (String name : names) {
      Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name));
      ConfigEntry limit = c == null ? null : c.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
      if (limit == null || limit.value() == null) {
        continue;
      }
      long takes = Long.parseLong(limit.value());
      if (takes < needed) {
        throw new StartupException(
            "topic "
                + name
                + " takes records of at most "
                + takes
                + " bytes (max.message.bytes) but dlq.max.message.bytes is "
                + needed
                + ": an output or dead letter "
                + "between the two would fail its transaction again and again. Raise the topic's max.message.bytes "
                + "to at least "
                + needed
                + ", or set dlq.max.message.bytes to at most "
                + takes);
      }
    }
  }
}

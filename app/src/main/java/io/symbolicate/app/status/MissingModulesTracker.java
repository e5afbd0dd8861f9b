package io.symbolicate.app.status;

import io.symbolicate.api.status.StatusSnapshot;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The most requested missing modules, read from the compacted {@code symbols.missing} (each
 * record the running count of one module) by a consumer of every partition without a group, from
 * the beginning. It keeps at most {@link #MAX_TRACKED} modules: when full, a new module replaces
 * the least counted one, so the top stays right while memory stays bounded.
 */
public final class MissingModulesTracker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MissingModulesTracker.class);

  /** Modules remembered at most. */
  public static final int MAX_TRACKED = 10_000;

  /** Modules shown. */
  public static final int TOP = 10;

  static final Duration POLL = Duration.ofMillis(500);
  static final Duration RETRY_PARTITIONS = Duration.ofSeconds(2);

  private final Map<String, MissingSymbols> byModule = new HashMap<>();
  private final String topic;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile boolean started;
  private volatile String problem;
  private long undecodable;

  public MissingModulesTracker(Properties clientProps, String topic) {
    this.topic = topic;
    Properties p = new Properties();
    p.putAll(clientProps);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "status-missing-modules");
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    this.thread = new Thread(this::run, "status-missing-modules");
    thread.setDaemon(true);
  }

  public MissingModulesTracker start() {
    started = true;
    thread.start();
    return this;
  }

  private void run() {
    var values = Topics.SYMBOLS_MISSING.values().deserializer();
    try {
      while (running && !assign()) {
        Thread.sleep(RETRY_PARTITIONS.toMillis());
      }
      while (running) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
          MissingSymbols m = null;
          if (r.value() != null) {
            try {
              m = values.deserialize(r.topic(), r.value());
            } catch (RuntimeException e) {
              synchronized (this) {
                undecodable++;
              }
              continue;
            }
          }
          update(r.key() == null ? "" : r.key(), m);
        }
        problem = null;
      }
    } catch (WakeupException | InterruptedException e) {
      // closing
    } catch (RuntimeException e) {
      problem = "reading " + topic + " failed: " + e.getMessage();
      log.warn("the status page stopped reading {}", topic, e);
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  private boolean assign() {
    List<PartitionInfo> parts;
    try {
      parts = consumer.partitionsFor(topic, Duration.ofSeconds(5));
    } catch (TimeoutException e) {
      problem = "waiting for the cluster to read " + topic;
      return false; // a broker down at start: asked again, not given up
    }
    if (parts == null || parts.isEmpty()) {
      problem = "waiting for topic " + topic;
      return false;
    }
    List<TopicPartition> tps =
        parts.stream().map(pi -> new TopicPartition(topic, pi.partition())).toList();
    consumer.assign(tps);
    consumer.seekToBeginning(tps);
    problem = null;
    return true;
  }

  /** The latest count of a module (null: its tombstone), keeping the map within bounds. */
  synchronized void update(String key, MissingSymbols m) {
    if (m == null) {
      byModule.remove(key);
      return;
    }
    if (!byModule.containsKey(key) && byModule.size() >= MAX_TRACKED) {
      Map.Entry<String, MissingSymbols> least = null;
      for (Map.Entry<String, MissingSymbols> e : byModule.entrySet()) {
        if (least == null || e.getValue().getCount() < least.getValue().getCount()) {
          least = e;
        }
      }
      if (least.getValue().getCount() >= m.getCount()) {
        return; // not among the most counted
      }
      byModule.remove(least.getKey());
    }
    byModule.put(key, m);
  }

  /** The most counted modules, most first. */
  public StatusSnapshot.MissingModules top() {
    List<MissingSymbols> all;
    long bad;
    synchronized (this) {
      all = new ArrayList<>(byModule.values());
      bad = undecodable;
    }
    all.sort(
        Comparator.comparingLong(MissingSymbols::getCount)
            .reversed()
            .thenComparing(m -> m.getModule().toString()));
    List<StatusSnapshot.MissingModule> top = new ArrayList<>();
    for (MissingSymbols m : all.subList(0, Math.min(TOP, all.size()))) {
      top.add(
          new StatusSnapshot.MissingModule(
              m.getModule().toString(),
              Platforms.wireName(m.getPlatform()),
              m.getScope().toString(),
              m.getCount(),
              m.getLastSeen() == null ? null : m.getLastSeen().toString()));
    }
    String note = problem;
    if (note == null && bad > 0) {
      note = bad + " records of " + topic + " could not be read";
    }
    return new StatusSnapshot.MissingModules(true, note, top);
  }

  @Override
  public void close() {
    running = false;
    if (!started) {
      consumer.close(Duration.ZERO);
      return;
    }
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

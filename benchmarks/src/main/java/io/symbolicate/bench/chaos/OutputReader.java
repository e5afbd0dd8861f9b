package io.symbolicate.bench.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every partition of a topic from its beginning with {@code read_committed} in a thread of
 * its own (no group: nothing it does can disturb the app's), handing each record to a sink
 * together with the time it arrived here.
 */
final class OutputReader implements AutoCloseable {
  /** A record and when this reader got it ({@link System#nanoTime()}). */
  record Arrival(ConsumerRecord<byte[], byte[]> record, long at) {}

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Consumer<Arrival> sink;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile RuntimeException failure;

  private OutputReader(
      KafkaConsumer<byte[], byte[]> consumer, Consumer<Arrival> sink, String topic) {
    this.consumer = consumer;
    this.sink = sink;
    this.thread = new Thread(this::run, "chaos-reader-" + topic);
    thread.setDaemon(true);
  }

  /** Starts reading {@code topic}, which must exist. The sink is called on the reader's thread. */
  static OutputReader start(String bootstrap, String topic, Consumer<Arrival> sink) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = new ArrayList<>();
    for (PartitionInfo pi : consumer.partitionsFor(topic, Duration.ofSeconds(60))) {
      parts.add(new TopicPartition(topic, pi.partition()));
    }
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    OutputReader r = new OutputReader(consumer, sink, topic);
    r.thread.start();
    return r;
  }

  private void run() {
    try {
      while (running) {
        var records = consumer.poll(Duration.ofMillis(50));
        long now = System.nanoTime();
        for (ConsumerRecord<byte[], byte[]> r : records) {
          sink.accept(new Arrival(r, now));
        }
      }
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
  }

  /** Throws what ended the reader early, if anything did. */
  void check() {
    if (failure != null) {
      throw new IllegalStateException("the reader of the output failed: " + failure, failure);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(15_000);
  }

  /** Counts per key and arrival times per input partition, filled by a reader's sink. */
  static final class Tally {
    private final Map<String, Integer> counts = new HashMap<>();
    private final Map<Integer, List<Long>> arrivals = new HashMap<>();

    synchronized void add(String key, int inputPartition, long at) {
      counts.merge(key, 1, Integer::sum);
      arrivals.computeIfAbsent(inputPartition, k -> new ArrayList<>()).add(at);
    }

    synchronized Map<String, Integer> counts() {
      return new HashMap<>(counts);
    }

    synchronized int distinct() {
      return counts.size();
    }

    synchronized List<Long> arrivals(int inputPartition) {
      return new ArrayList<>(arrivals.getOrDefault(inputPartition, List.of()));
    }
  }
}

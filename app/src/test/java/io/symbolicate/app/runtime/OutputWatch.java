package io.symbolicate.app.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.ToIntFunction;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic from its start in a thread of its own, with a given isolation level, and keeps
 * how often each key came and when records of each input partition arrived (the input partition
 * told by the key), so that a test can find the longest time a partition produced nothing.
 */
final class OutputWatch implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final ToIntFunction<String> inputPartition;
  private final Map<String, Integer> counts = new HashMap<>();
  private final Map<Integer, List<Long>> arrivals = new HashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  private OutputWatch(
      KafkaConsumer<String, byte[]> consumer, ToIntFunction<String> inputPartition) {
    this.consumer = consumer;
    this.inputPartition = inputPartition;
    this.thread = new Thread(this::run, "output-watch");
    thread.setDaemon(true);
  }

  /** Starts reading every partition of {@code topic}, which must exist, from its beginning. */
  static OutputWatch start(
      String bootstrap, String topic, String isolation, ToIntFunction<String> inputPartition) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = new ArrayList<>();
    for (PartitionInfo pi : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
      parts.add(new TopicPartition(topic, pi.partition()));
    }
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    OutputWatch w = new OutputWatch(consumer, inputPartition);
    w.thread.start();
    return w;
  }

  private void run() {
    while (running) {
      var records = consumer.poll(Duration.ofMillis(50));
      long now = System.nanoTime();
      synchronized (this) {
        for (ConsumerRecord<String, byte[]> r : records) {
          counts.merge(r.key(), 1, Integer::sum);
          arrivals
              .computeIfAbsent(inputPartition.applyAsInt(r.key()), k -> new ArrayList<>())
              .add(now);
        }
      }
    }
    consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
  }

  synchronized Map<String, Integer> counts() {
    return new HashMap<>(counts);
  }

  synchronized int distinct() {
    return counts.size();
  }

  /** When the last record of an input partition arrived ({@link System#nanoTime()}), or 0. */
  synchronized long lastArrival(int partition) {
    List<Long> a = arrivals.get(partition);
    return a == null || a.isEmpty() ? 0 : a.get(a.size() - 1);
  }

  /**
   * The longest time, in nanoseconds, between two arrivals of an input partition's records
   * between {@code from} and {@code to} ({@link System#nanoTime()}), counting the time from the
   * last arrival before {@code from}; {@code [length, end]}, end being the arrival that closed it.
   */
  synchronized long[] longestGap(int partition, long from, long to) {
    List<Long> a = arrivals.getOrDefault(partition, List.of());
    long prev = 0;
    long[] best = {0, 0};
    for (long t : a) {
      if (t > to) {
        break;
      }
      if (t >= from && prev != 0 && t - prev > best[0]) {
        best = new long[] {t - prev, t};
      }
      prev = t;
    }
    if (prev != 0 && to - prev > best[0]) {
      best = new long[] {to - prev, to}; // still silent at the end
    }
    return best;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(10_000);
  }
}

package io.symbolicate.app.reprocess;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The reading both reprocessing jobs share ({@link ModuleReprocessing}, {@link
 * SignatureReprocessing}): a read_committed consumer that never creates a topic, and scans of
 * a topic's partitions between fixed offsets that count what they read, what could not be
 * decoded and what retention deleted before it could be read; and what a first pass over
 * {@code topic.symbolicated} learns, where each event's latest output is ({@link LatestOutputs}),
 * and where the second pass then reads ({@link Window}).
 */
public final class TopicScan {
  private final AppConfig cfg;
  private final Consumer<String> progress;
  private final AvroSerde<SymbolicatedEvent> outputs = WireSerdes.symbolicatedEvent();

  /** {@code progress} receives a line now and then during long scans (e.g. stderr). */
  public TopicScan(AppConfig cfg, Consumer<String> progress) {
    this.cfg = cfg;
    this.progress = progress;
  }

  /**
   * Reads {@code topic} from {@code start} (per partition) to its current end, as the passes do:
   * returns [records read, 0, records deleted by retention before they were read].
   */
  public long[] readFrom(String topic, Map<Integer, Long> start) {
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      Map<TopicPartition, Long> from = new HashMap<>();
      for (TopicPartition tp : partitions(consumer, topic)) {
        from.put(tp, start.getOrDefault(tp.partition(), 0L));
      }
      Counts counts = new Counts();
      scan(consumer, from, consumer.endOffsets(from.keySet()), 0, null, rec -> {}, counts);
      return new long[] {counts.read, 0, counts.lost};
    }
  }

  ReprocessException failed(KafkaException e) {
    return new ReprocessException(
        "reprocessing failed (Kafka at "
            + cfg.bootstrapServers()
            + "): "
            + e.getClass().getSimpleName()
            + ": "
            + e.getMessage());
  }

  /** The topic's partitions; refuses a topic that does not exist (never creating it). */
  List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
    List<PartitionInfo> infos =
        consumer.partitionsFor(topic, Duration.ofMillis(cfg.getInt(ConfigKeys.STARTUP_TIMEOUT_MS)));
    if (infos == null || infos.isEmpty()) {
      throw new ReprocessException("topic " + topic + " does not exist");
    }
    return infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
  }

  /** What a scan read: records, those that could not be decoded, those retention deleted first. */
  static final class Counts {
    long read;
    long undecodable;
    long lost;
  }

  /** Decodes each record as a symbolicated event for {@code each}; counts the undecodable. */
  Consumer<ConsumerRecord<byte[], byte[]>> decoded(
      Counts counts, BiConsumer<ConsumerRecord<byte[], byte[]>, SymbolicatedEvent> each) {
    return rec -> {
      SymbolicatedEvent out;
      try {
        out = rec.value() == null ? null : outputs.decode(rec.value());
      } catch (Exception e) {
        out = null;
      }
      if (out == null) {
        counts.undecodable++;
        return;
      }
      each.accept(rec, out);
    };
  }

  /**
   * Reads every partition from {@code start} to {@code end}, handing each record to
   * {@code each}, counting what it read and what retention deleted before it could (the
   * partition then goes on from its new start). {@code what} null: no progress lines.
   */
  void scan(
      KafkaConsumer<byte[], byte[]> consumer,
      Map<TopicPartition, Long> start,
      Map<TopicPartition, Long> end,
      long total,
      String what,
      Consumer<ConsumerRecord<byte[], byte[]>> each,
      Counts counts) {
    List<TopicPartition> open = new ArrayList<>();
    for (TopicPartition tp : start.keySet()) {
      if (start.get(tp) < end.get(tp)) {
        open.add(tp);
      }
    }
    consumer.assign(open);
    open.forEach(tp -> consumer.seek(tp, start.get(tp)));
    long lastReport = System.nanoTime();
    long seen = 0;
    long idleSince = System.nanoTime();
    long idleLimit =
        Duration.ofMillis(Math.max(60_000, cfg.getInt(ConfigKeys.STARTUP_TIMEOUT_MS))).toNanos();
    Map<TopicPartition, Long> positions = new HashMap<>(start);
    while (!open.isEmpty()) {
      ConsumerRecords<byte[], byte[]> records;
      try {
        records = consumer.poll(Duration.ofMillis(500));
      } catch (OffsetOutOfRangeException e) {
        // retention deleted records before they were read: count them, go on from the new start
        Map<TopicPartition, Long> now = consumer.beginningOffsets(e.partitions());
        boolean reassign = false;
        for (Map.Entry<TopicPartition, Long> oor : e.offsetOutOfRangePartitions().entrySet()) {
          TopicPartition tp = oor.getKey();
          long from = oor.getValue();
          long logStart = now.get(tp);
          if (logStart <= from) {
            throw new ReprocessException(
                tp
                    + " has no offset "
                    + from
                    + " any more, yet its log starts at "
                    + logStart
                    + " (truncated?)");
          }
          long to = Math.min(logStart, end.get(tp));
          counts.lost += Math.max(0, to - from);
          positions.put(tp, to);
          if (to >= end.get(tp)) {
            open.remove(tp);
            reassign = true;
          } else {
            consumer.seek(tp, to);
          }
        }
        if (reassign) {
          consumer.assign(open);
        }
        idleSince = System.nanoTime();
        continue;
      }
      for (ConsumerRecord<byte[], byte[]> rec : records) {
        TopicPartition tp = new TopicPartition(rec.topic(), rec.partition());
        if (rec.offset() >= end.get(tp)) {
          continue;
        }
        seen++;
        counts.read++;
        each.accept(rec);
      }
      List<TopicPartition> done = new ArrayList<>();
      boolean moved = !records.isEmpty();
      for (TopicPartition tp : open) {
        long pos = consumer.position(tp);
        moved |= pos != positions.getOrDefault(tp, -1L);
        positions.put(tp, pos);
        if (pos >= end.get(tp)) {
          done.add(tp);
        }
      }
      // aborted transactions and markers move a position without any record
      if (moved) {
        idleSince = System.nanoTime();
      } else if (System.nanoTime() - idleSince > idleLimit) {
        throw new ReprocessException(
            "no progress on " + open + " for " + idleLimit / 1_000_000_000 + " s");
      }
      if (!done.isEmpty()) {
        open.removeAll(done);
        consumer.assign(open);
      }
      if (what != null && System.nanoTime() - lastReport > 5_000_000_000L) {
        lastReport = System.nanoTime();
        progress.accept(
            what
                + ": "
                + seen
                + " of "
                + total
                + " output records read ("
                + (total == 0 ? 100 : 100 * seen / total)
                + " %)");
      }
    }
  }

  KafkaConsumer<byte[], byte[]> consumer() {
    Properties p =
        KafkaProperties.client(cfg, ConsumerConfig.configNames(), StreamsConfig.CONSUMER_PREFIX);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // a deleted start is reported (OffsetOutOfRangeException), never skipped to the end
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    // a mistyped topic must not be created with the broker's defaults
    p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    // bounded fetches (a batch larger than this still comes, alone) and time to receive them
    p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 2 << 20);
    p.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 16 << 20);
    p.putIfAbsent(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** A 64-bit hash of an event id (FNV-1a over its UTF-16 chars; a collision would only merge two ids' verdicts). */
  static long idHash(String id) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < id.length(); i++) {
      h ^= id.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }

  /**
   * An open-addressing map of 64-bit event-id hashes to where the event's latest matching output
   * is (partition and offset), or to "cleared" (a later output no longer misses the module):
   * 20 bytes a slot, at most half of the slots used.
   */
  static final class LatestOutputs {
    private long[] keys = new long[1024];
    private long[] offsets = new long[1024];
    private int[] partitions = new int[1024]; // 0 empty, -1 cleared, else partition + 1
    private int size;

    /** The event's latest output so far misses the module: it is a candidate, written from there. */
    void matched(long key, int partition, long offset) {
      put(key, partition + 1, offset);
    }

    /** The event's latest output so far does not miss the module (if it was seen at all). */
    void cleared(long key) {
      put(key, -1, -1);
    }

    private void put(long key, int partition, long offset) {
      if (size * 2 >= keys.length) {
        grow();
      }
      int i = slot(keys, partitions, key);
      if (partitions[i] == 0) {
        keys[i] = key;
        size++;
      }
      partitions[i] = partition;
      offsets[i] = offset;
    }

    boolean contains(long key) {
      return partitions[slot(keys, partitions, key)] != 0;
    }

    boolean isCandidate(long key) {
      return partitions[slot(keys, partitions, key)] > 0;
    }

    long candidates() {
      long n = 0;
      for (int p : partitions) {
        if (p > 0) {
          n++;
        }
      }
      return n;
    }

    /** The candidates' output offsets, ascending, by partition. */
    Map<Integer, long[]> offsetsByPartition() {
      Map<Integer, LongStream.Builder> by = new HashMap<>();
      for (int i = 0; i < partitions.length; i++) {
        if (partitions[i] > 0) {
          by.computeIfAbsent(partitions[i] - 1, p -> LongStream.builder()).add(offsets[i]);
        }
      }
      Map<Integer, long[]> out = new HashMap<>();
      by.forEach((p, b) -> out.put(p, b.build().sorted().toArray()));
      return out;
    }

    private static int slot(long[] keys, int[] partitions, long key) {
      int mask = keys.length - 1;
      int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
      while (partitions[i] != 0 && keys[i] != key) {
        i = (i + 1) & mask;
      }
      return i;
    }

    private void grow() {
      long[] k = new long[keys.length * 2];
      long[] o = new long[keys.length * 2];
      int[] p = new int[keys.length * 2];
      for (int i = 0; i < keys.length; i++) {
        if (partitions[i] != 0) {
          int s = slot(k, p, keys[i]);
          k[s] = keys[i];
          o[s] = offsets[i];
          p[s] = partitions[i];
        }
      }
      keys = k;
      offsets = o;
      partitions = p;
    }

    @Override
    public String toString() {
      return "LatestOutputs[" + size + "]";
    }
  }

  /** Where a second pass reads: per partition, from the first wanted offset to just past the last. */
  record Window(Map<TopicPartition, Long> start, Map<TopicPartition, Long> end, long total) {
    static Window of(Iterable<TopicPartition> parts, Map<Integer, long[]> wanted) {
      Map<TopicPartition, Long> start = new HashMap<>();
      Map<TopicPartition, Long> end = new HashMap<>();
      long total = 0;
      for (TopicPartition tp : parts) {
        long[] at = wanted.get(tp.partition());
        if (at != null) {
          start.put(tp, at[0]);
          end.put(tp, at[at.length - 1] + 1);
          total += at[at.length - 1] + 1 - at[0];
        }
      }
      return new Window(start, end, total);
    }
  }
}

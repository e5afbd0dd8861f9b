package io.symbolicate.topology.app;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbols.source.DebugIdentifiers;
import io.symbolicate.topology.serde.AvroSerde;
import io.symbolicate.topology.serde.WireSerdes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Reprocesses exactly the events that missed one module: after its symbols were uploaded late,
 * the events whose latest output says the module was {@code missing} (or another status an
 * upload can mend) are written to {@code topic.raw} again, marked {@code reprocessed}, and the
 * running app symbolicates them anew. Reads {@code topic.symbolicated} twice, between the same
 * offsets: first to learn which events' latest output still misses the module (an event already
 * reprocessed and found is not sent again), then to write those events once each. Memory grows
 * with the matching events only (20-40 bytes each), not with the topic.
 */
public final class ModuleReprocessing {
  /**
   * What to look for. {@code scope} and {@code platform} null: any. The global scope also means
   * any: every event falls back to the global symbols, so a global upload mends them all.
   */
  public record Selection(String module, String scope, String platform, Set<ModuleStatus> statuses,
      Instant from, Instant to) {

    /** Statuses a late upload of the module can mend. */
    public static final Set<ModuleStatus> MENDABLE =
        Set.of(ModuleStatus.missing, ModuleStatus.malformed, ModuleStatus.fetch_failed);

    public Selection {
      if (module == null || module.isBlank()) {
        throw new IllegalArgumentException("a module key is required");
      }
      if (statuses == null || statuses.isEmpty() || statuses.contains(ModuleStatus.found)) {
        throw new IllegalArgumentException("statuses must be given and must not include found");
      }
    }

    /**
     * {@code scope|platform|key} as the keys of {@code symbols.missing}, or a bare module key
     * ({@code debug_file/debug_id} native, a debug id or URL for JS, a mapping UUID for JVM).
     */
    public static Selection of(String module, Set<ModuleStatus> statuses, Instant from, Instant to) {
      String[] parts = module.split("\\|", -1);
      if (parts.length == 3) {
        return new Selection(parts[2], parts[0], parts[1], statuses, from, to);
      }
      return new Selection(module, null, null, statuses, from, to);
    }

    boolean matches(SymbolicatedEvent out) {
      CrashEvent e = out.getEvent();
      if (scope != null && !scope.equals(DebugIdentifiers.GLOBAL_SCOPE) && !scope.equals(e.getScope())
          || platform != null && !platform.equals(Platforms.wireName(e.getPlatform()))) {
        return false;
      }
      boolean missed = false;
      for (ModuleResult m : out.getModules()) {
        if (module.equals(m.getKey())) {
          if (m.getStatus() == ModuleStatus.found) {
            return false; // listed twice, found once: the frames of that module were symbolicated
          }
          missed |= statuses.contains(m.getStatus());
        }
      }
      return missed;
    }
  }

  /** What a run found and did. */
  public record Result(long scanned, long undecodable, long matched, long written, long failed) {}

  /** The reprocessing cannot be done (Kafka away, topic missing). */
  public static final class ReprocessException extends RuntimeException {
    public ReprocessException(String message) {
      super(message);
    }
  }

  /** Attribute set on a reprocessed event; the output's {@code reprocessed} field says so. */
  public static final String REPROCESSED_ATTRIBUTE = "reprocessed";

  private final AppConfig cfg;
  private final Consumer<String> progress;
  private final AvroSerde<SymbolicatedEvent> outputs = WireSerdes.symbolicatedEvent();
  private final AvroSerde<CrashEvent> events = WireSerdes.crashEvent();

  /** {@code progress} receives a line now and then during long scans (e.g. stderr). */
  public ModuleReprocessing(AppConfig cfg, Consumer<String> progress) {
    this.cfg = cfg;
    this.progress = progress;
  }

  /** Finds the events, and writes them to {@code topic.raw} unless {@code dryRun}. */
  public Result run(Selection sel, boolean dryRun) {
    String topic = cfg.get("topic.symbolicated");
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofMillis(cfg.getInt("startup.timeout.ms")));
      if (infos == null || infos.isEmpty()) {
        throw new ReprocessException("output topic " + topic + " does not exist");
      }
      List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
      Map<TopicPartition, Long> start = new HashMap<>(consumer.beginningOffsets(parts));
      if (sel.from() != null) {
        Map<TopicPartition, Long> at = new HashMap<>();
        parts.forEach(tp -> at.put(tp, sel.from().toEpochMilli()));
        Map<TopicPartition, Long> ends = consumer.endOffsets(parts);
        for (Map.Entry<TopicPartition, OffsetAndTimestamp> e : consumer.offsetsForTimes(at).entrySet()) {
          start.put(e.getKey(), e.getValue() == null ? ends.get(e.getKey()) : e.getValue().offset());
        }
      }
      // read_committed: the end is the last stable offset, fixed now for both passes
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      long total = 0;
      for (TopicPartition tp : parts) {
        total += Math.max(0, end.get(tp) - start.get(tp));
      }

      LongFlags latest = new LongFlags();
      long[] counts = new long[2]; // scanned, undecodable
      scan(consumer, start, end, total, "finding", (rec, out) -> {
        long id = idHash(out.getEvent().getEventId());
        if (sel.matches(out)) {
          latest.set(id, true);
        } else if (latest.contains(id)) {
          latest.set(id, false); // a later output of the same event no longer misses the module
        }
      }, sel, counts);
      long matched = latest.countTrue();
      if (dryRun || matched == 0) {
        return new Result(counts[0], counts[1], matched, 0, 0);
      }

      AtomicLong written = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      AtomicReference<Exception> firstFailure = new AtomicReference<>();
      String raw = cfg.get("topic.raw");
      try (KafkaProducer<byte[], byte[]> producer = producer()) {
        scan(consumer, start, end, total, "writing", (rec, out) -> {
          long id = idHash(out.getEvent().getEventId());
          if (!latest.isTrue(id) || !sel.matches(out)) {
            return;
          }
          latest.set(id, false); // once
          CrashEvent e = out.getEvent();
          Map<String, String> attributes = new HashMap<>(e.getAttributes());
          attributes.put(REPROCESSED_ATTRIBUTE, "true");
          e.setAttributes(attributes);
          producer.send(new ProducerRecord<>(raw, null, rec.timestamp(),
              e.getEventId().getBytes(StandardCharsets.UTF_8), events.encode(e)), (md, ex) -> {
                if (ex == null) {
                  written.incrementAndGet();
                } else {
                  failed.incrementAndGet();
                  firstFailure.compareAndSet(null, ex);
                }
              });
        }, sel, new long[2]);
        producer.flush();
      }
      if (firstFailure.get() != null) {
        progress.accept("first failure: " + firstFailure.get());
      }
      return new Result(counts[0], counts[1], matched, written.get(), failed.get());
    } catch (KafkaException e) {
      throw new ReprocessException("reprocessing failed (Kafka at " + cfg.bootstrapServers() + "): "
          + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /** Reads every partition from {@code start} to {@code end}, handing each decodable output to {@code each}. */
  private void scan(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> start,
      Map<TopicPartition, Long> end, long total, String what,
      java.util.function.BiConsumer<ConsumerRecord<byte[], byte[]>, SymbolicatedEvent> each, Selection sel,
      long[] counts) {
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
    long idleLimit = Duration.ofMillis(Math.max(60_000, cfg.getInt("startup.timeout.ms"))).toNanos();
    while (!open.isEmpty()) {
      var records = consumer.poll(Duration.ofMillis(500));
      if (records.isEmpty()) {
        if (System.nanoTime() - idleSince > idleLimit) {
          throw new ReprocessException("no records from " + open + " for " + idleLimit / 1_000_000_000 + " s");
        }
      } else {
        idleSince = System.nanoTime();
      }
      for (ConsumerRecord<byte[], byte[]> rec : records) {
        TopicPartition tp = new TopicPartition(rec.topic(), rec.partition());
        if (rec.offset() >= end.get(tp)) {
          continue;
        }
        seen++;
        counts[0]++;
        if (sel.to() != null && rec.timestamp() > sel.to().toEpochMilli()) {
          continue;
        }
        SymbolicatedEvent out;
        try {
          out = rec.value() == null ? null : outputs.decode(rec.value());
        } catch (Exception e) {
          out = null;
        }
        if (out == null) {
          counts[1]++;
          continue;
        }
        each.accept(rec, out);
      }
      List<TopicPartition> done = new ArrayList<>();
      for (TopicPartition tp : open) {
        if (consumer.position(tp) >= end.get(tp)) {
          done.add(tp);
        }
      }
      if (!done.isEmpty()) {
        open.removeAll(done);
        consumer.assign(open);
      }
      if (System.nanoTime() - lastReport > 5_000_000_000L) {
        lastReport = System.nanoTime();
        progress.accept(what + ": " + seen + " of " + total + " output records read ("
            + (total == 0 ? 100 : 100 * seen / total) + " %)");
      }
    }
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    Properties p = new Properties();
    SymbolicatorApp.adminProperties(cfg).forEach((k, v) -> {
      if (ConsumerConfig.configNames().contains((String) k)) {
        p.put(k, v);
      }
    });
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20);
    p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 << 20);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  private KafkaProducer<byte[], byte[]> producer() {
    Properties p = new Properties();
    SymbolicatorApp.adminProperties(cfg).forEach((k, v) -> {
      if (ProducerConfig.configNames().contains((String) k)) {
        p.put(k, v);
      }
    });
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 << 10);
    // an event the app took (max.event.bytes) re-encoded, with room for the batch
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, cfg.getInt("max.event.bytes") + (64 << 10));
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
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

  /** An open-addressing map of 64-bit keys to a flag: 9 bytes an entry at most twice over. */
  static final class LongFlags {
    private long[] keys = new long[1024];
    private byte[] flags = new byte[1024]; // 0 empty, 1 false, 2 true
    private int size;

    void set(long key, boolean value) {
      if (size * 2 >= keys.length) {
        grow();
      }
      int i = slot(keys, flags, key);
      if (flags[i] == 0) {
        keys[i] = key;
        size++;
      }
      flags[i] = (byte) (value ? 2 : 1);
    }

    boolean contains(long key) {
      return flags[slot(keys, flags, key)] != 0;
    }

    boolean isTrue(long key) {
      return flags[slot(keys, flags, key)] == 2;
    }

    long countTrue() {
      long n = 0;
      for (byte f : flags) {
        if (f == 2) {
          n++;
        }
      }
      return n;
    }

    private static int slot(long[] keys, byte[] flags, long key) {
      int mask = keys.length - 1;
      int i = (int) (key ^ (key >>> 32)) * 0x9E3779B9 & mask;
      while (flags[i] != 0 && keys[i] != key) {
        i = (i + 1) & mask;
      }
      return i;
    }

    private void grow() {
      long[] k = new long[keys.length * 2];
      byte[] f = new byte[keys.length * 2];
      for (int i = 0; i < keys.length; i++) {
        if (flags[i] != 0) {
          int s = slot(k, f, keys[i]);
          k[s] = keys[i];
          f[s] = flags[i];
        }
      }
      keys = k;
      flags = f;
    }

    @Override
    public String toString() {
      return "LongFlags[" + size + "]";
    }
  }
}

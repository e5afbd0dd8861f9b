package io.symbolicate.app.reprocess;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.signature.EventSigner;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Reprocesses exactly the events that missed one module: after its symbols were uploaded late,
 * the events whose latest output says the module was {@code missing} (or another status an
 * upload can mend) are written to {@code topic.raw} again, marked {@code reprocessed}, and the
 * running app symbolicates them anew. Reads {@code topic.symbolicated} twice, between the same
 * offsets: first to learn which events' latest output still misses the module (an event already
 * reprocessed and found is not sent again) and where that output is, then to write each of
 * those events once, as its latest output embeds it. Memory grows
 * with the matching events only (40-80 bytes each), not with the topic.
 */
public final class ModuleReprocessing {
  /**
   * What to look for. {@code scope} and {@code platform} null: any. The global scope also means
   * any: every event falls back to the global symbols, so a global upload mends them all.
   * {@code from}/{@code to} (null: open) bound the output records' timestamps, which are the
   * input records' (a reprocessed event keeps its first one).
   */
  public record Selection(
      String module,
      String scope,
      String platform,
      Set<ModuleStatus> statuses,
      Instant from,
      Instant to) {

    /** Statuses a late upload of the module can mend. */
    public static final Set<ModuleStatus> MENDABLE =
        Set.of(ModuleStatus.missing, ModuleStatus.malformed, ModuleStatus.fetch_failed);

    public Selection {
      if (module == null || module.isBlank() || module.indexOf('|') >= 0) {
        throw new IllegalArgumentException("a module key is required (without '|')");
      }
      if (statuses == null || statuses.isEmpty() || statuses.contains(ModuleStatus.found)) {
        throw new IllegalArgumentException("statuses must be given and must not include found");
      }
      if (from != null && to != null && from.isAfter(to)) {
        throw new IllegalArgumentException("the time window ends before it starts");
      }
      if (from != null && from.toEpochMilli() < 0 || to != null && to.toEpochMilli() < 0) {
        throw new IllegalArgumentException("the time window must not start before 1970");
      }
    }

    /**
     * {@code scope|platform|key} as the keys of {@code symbols.missing} (platform {@code native},
     * {@code javascript} or {@code jvm}; or a store reference's tag {@code N}, {@code J},
     * {@code P}), or a bare module key ({@code debug_file/debug_id} native, a debug id or URL for
     * JS, a mapping UUID for JVM).
     */
    public static Selection of(
        String module, Set<ModuleStatus> statuses, Instant from, Instant to) {
      if (module.indexOf('|') < 0) {
        return new Selection(module, null, null, statuses, from, to);
      }
      String[] parts = module.split("\\|", -1);
      if (parts.length != 3) {
        throw new IllegalArgumentException(
            "'" + module + "' is neither scope|platform|module nor a bare module key");
      }
      String scope = DebugIdentifiers.requireScope(parts[0]);
      String platform =
          switch (parts[1]) {
            case "native", "N" -> "native";
            case "javascript", "J" -> "javascript";
            case "jvm", "P" -> "jvm";
            default ->
                throw new IllegalArgumentException(
                    "unknown platform '" + parts[1] + "' (native, javascript or jvm)");
          };
      return new Selection(parts[2], scope, platform, statuses, from, to);
    }

    /** The store's references to check for a loaded table: the scope's own, then the global one. */
    List<ModuleRef> refs() {
      if (scope == null || platform == null) {
        return List.of();
      }
      Platform p =
          switch (platform) {
            case "native" -> Platform.native$;
            case "javascript" -> Platform.javascript;
            default -> Platform.jvm;
          };
      ModuleRef own = new ModuleRef(scope, ModuleRef.kindOf(p), module);
      return own.isGlobal()
          ? List.of(own)
          : List.of(own, own.inScope(DebugIdentifiers.GLOBAL_SCOPE));
    }

    boolean inWindow(long timestamp) {
      return (from == null || timestamp >= from.toEpochMilli())
          && (to == null || timestamp <= to.toEpochMilli());
    }

    boolean matches(SymbolicatedEvent out) {
      CrashEvent e = out.getEvent();
      if (scope != null
              && !scope.equals(DebugIdentifiers.GLOBAL_SCOPE)
              && !scope.equals(e.getScope())
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

  /**
   * What a run found and did: output records read, undecodable ones, events that match,
   * written, failed to write, too large to write again, and records deleted by retention
   * before the first pass could read them (their events were not considered).
   */
  public record Result(
      long scanned,
      long undecodable,
      long matched,
      long written,
      long failed,
      long tooLarge,
      long lost) {

    /** Every matching event was written (but those too large), and no record was lost to retention. */
    public boolean complete(boolean dryRun) {
      return lost == 0 && (dryRun || written + tooLarge == matched);
    }
  }

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
  private final AvroSerde<ModuleState> states = WireSerdes.moduleState();

  /** {@code progress} receives a line now and then during long scans (e.g. stderr). */
  public ModuleReprocessing(AppConfig cfg, Consumer<String> progress) {
    if ("json".equalsIgnoreCase(cfg.get(ConfigKeys.INPUT_FORMAT).trim())) {
      throw new IllegalArgumentException(
          "input.format=json: reprocess writes the events as Avro, which this app "
              + "would dead-letter; its input must take Avro (input.format=auto or avro)");
    }
    this.cfg = cfg;
    this.progress = progress;
  }

  /**
   * Whether the module's table is loaded (found) in the store's index, for a selection with a
   * scope and platform; null when the selection names none. Checked before writing: events
   * written before the loader published the table would come out missing again.
   */
  public Boolean loaded(Selection sel) {
    List<ModuleRef> refs = sel.refs();
    if (refs.isEmpty()) {
      return null;
    }
    Set<String> keys = new HashSet<>();
    refs.forEach(r -> keys.add(r.toString()));
    String index = cfg.get(ConfigKeys.TOPIC_INDEX);
    Map<String, TableStatus> last = new HashMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      List<TopicPartition> parts = partitions(consumer, index);
      Map<TopicPartition, Long> start = consumer.beginningOffsets(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      scan(
          consumer,
          start,
          end,
          0,
          null,
          rec -> {
            if (rec.key() == null) {
              return;
            }
            String key = new String(rec.key(), StandardCharsets.UTF_8);
            if (keys.contains(key)) {
              TableStatus st = null;
              if (rec.value() != null) {
                try {
                  st = states.decode(rec.value()).getStatus();
                } catch (Exception e) {
                  st = null;
                }
              }
              last.put(key, st);
            }
          },
          new Counts());
    } catch (KafkaException e) {
      throw failed(e);
    }
    return last.values().stream().anyMatch(st -> st == TableStatus.found);
  }

  /** Finds the events, and writes them to {@code topic.raw} unless {@code dryRun}, unpaced. */
  public Result run(Selection sel, boolean dryRun) {
    return run(sel, dryRun, 0);
  }

  /**
   * Finds the events, and writes them to {@code topic.raw} unless {@code dryRun}, at most
   * {@code maxPerSecond} a second (0: as fast as they are read), so that a module many events
   * missed does not crowd the live events out of the app's input.
   */
  public Result run(Selection sel, boolean dryRun, double maxPerSecond) {
    Pacer pacer =
        new Pacer(maxPerSecond, System::nanoTime, java.util.concurrent.TimeUnit.NANOSECONDS::sleep);
    String topic = cfg.get(ConfigKeys.TOPIC_SYMBOLICATED);
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      List<TopicPartition> parts = partitions(consumer, topic);
      // read_committed: the end is the last stable offset, fixed now for both passes
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      Map<TopicPartition, Long> start = new HashMap<>(consumer.beginningOffsets(parts));
      if (sel.from() != null) {
        Map<TopicPartition, Long> at = new HashMap<>();
        parts.forEach(tp -> at.put(tp, sel.from().toEpochMilli()));
        for (Map.Entry<TopicPartition, OffsetAndTimestamp> e :
            consumer.offsetsForTimes(at).entrySet()) {
          start.put(e.getKey(), e.getValue() == null ? end.get(e.getKey()) : e.getValue().offset());
        }
      }
      long total = 0;
      for (TopicPartition tp : parts) {
        total += Math.max(0, end.get(tp) - start.get(tp));
      }

      // pass 1: the latest output of each event decides. Only an output in the window makes an
      // event a candidate; any later output that does not miss the module clears it
      LatestOutputs latest = new LatestOutputs();
      Counts counts = new Counts();
      scan(
          consumer,
          start,
          end,
          total,
          "finding",
          decoded(
              counts,
              (rec, out) -> {
                long id = idHash(out.getEvent().getEventId());
                if (sel.matches(out)) {
                  // a candidate from the window on; an event seen there stays one while it still
                  // misses
                  if (sel.inWindow(rec.timestamp()) || latest.contains(id)) {
                    latest.matched(id, rec.partition(), rec.offset());
                  }
                } else if (latest.contains(id)) {
                  latest.cleared(id);
                }
              }),
          counts);
      long matched = latest.candidates();
      if (dryRun || matched == 0) {
        return new Result(counts.read, counts.undecodable, matched, 0, 0, 0, counts.lost);
      }

      // pass 2: each candidate once, from its latest output (what the event last was), reading
      // only between the first and the last of those outputs and decoding only them. The input
      // must exist: a producer would have a mistyped topic auto-created
      String raw = cfg.get(ConfigKeys.TOPIC_RAW);
      partitions(consumer, raw);
      Map<Integer, long[]> wanted = latest.offsetsByPartition();
      Window w2 = Window.of(parts, wanted);
      long[] tooLarge = new long[1];
      PacedSends[] sends = new PacedSends[1];
      int maxEventBytes = cfg.getInt(ConfigKeys.MAX_EVENT_BYTES);
      Counts counts2 = new Counts(); // its losses show as matched events not written
      try (KafkaProducer<byte[], byte[]> producer = producer()) {
        sends[0] = new PacedSends(producer, pacer);
        scan(
            consumer,
            w2.start(),
            w2.end(),
            w2.total(),
            "writing",
            rec -> {
              if (java.util.Arrays.binarySearch(wanted.get(rec.partition()), rec.offset()) < 0) {
                return;
              }
              SymbolicatedEvent out;
              try {
                out = outputs.decode(rec.value());
              } catch (Exception e) {
                return; // decoded in pass 1; shows as not written
              }
              CrashEvent e = out.getEvent();
              Map<String, String> attributes = new HashMap<>(e.getAttributes());
              attributes.put(REPROCESSED_ATTRIBUTE, "true");
              e.setAttributes(attributes);
              byte[] value = events.encode(e);
              if (value.length > maxEventBytes) {
                // the app would dead-letter it as too_large, and every run would send it again
                tooLarge[0]++;
                return;
              }
              sends[0].send(
                  raw, rec.timestamp(), e.getEventId().getBytes(StandardCharsets.UTF_8), value);
            },
            counts2);
        producer.flush();
      } catch (ReprocessException | KafkaException e) {
        throw new ReprocessException(
            (e instanceof KafkaException k ? failed(k) : e).getMessage()
                + "; "
                + writtenSoFar(sends[0])
                + " of "
                + matched
                + " event(s) were written before it stopped");
      }
      if (sends[0].firstFailure() != null) {
        progress.accept("first failure: " + sends[0].firstFailure());
      }
      return new Result(
          counts.read,
          counts.undecodable,
          matched,
          sends[0].written(),
          sends[0].failed(),
          tooLarge[0],
          counts.lost);
    } catch (KafkaException e) {
      throw failed(e);
    }
  }

  /**
   * What a signatures-only run found and did: output records read, undecodable ones, events
   * considered (their latest output in the window), those whose signature changed, written,
   * failed to write, too large for the output topic, and records lost to retention.
   */
  public record SignatureRun(
      long scanned,
      long undecodable,
      long events,
      long changed,
      long written,
      long failed,
      long tooLarge,
      long lost) {

    /** Every changed event was written (but those too large), and no record was lost to retention. */
    public boolean complete(boolean dryRun) {
      return lost == 0 && (dryRun || written + tooLarge == changed);
    }
  }

  /**
   * {@code reprocess --signatures-only}: signs again, with {@code signer}'s lists, the latest
   * output of every event timestamped in [{@code from}, {@code to}] (null: open), without any
   * symbol lookup, and writes those whose signature, proto signature or notes changed back to
   * {@code topic.symbolicated}, keyed by event id, with their output's timestamp. Consumers keep
   * the latest output of an event, so the new one replaces the old.
   */
  public SignatureRun resign(
      EventSigner signer, Instant from, Instant to, boolean dryRun, double maxPerSecond) {
    if (from != null && to != null && from.isAfter(to)) {
      throw new IllegalArgumentException("the time window ends before it starts");
    }
    Pacer pacer =
        new Pacer(maxPerSecond, System::nanoTime, java.util.concurrent.TimeUnit.NANOSECONDS::sleep);
    String topic = cfg.get(ConfigKeys.TOPIC_SYMBOLICATED);
    java.util.function.LongPredicate inWindow =
        ts ->
            (from == null || ts >= from.toEpochMilli()) && (to == null || ts <= to.toEpochMilli());
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      List<TopicPartition> parts = partitions(consumer, topic);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      Map<TopicPartition, Long> start = consumer.beginningOffsets(parts);
      long total = 0;
      for (TopicPartition tp : parts) {
        total += Math.max(0, end.get(tp) - start.get(tp));
      }
      // pass 1: where each event's latest output is (the whole topic: a later output outside the
      // window still makes an earlier one stale)
      LatestOutputs latest = new LatestOutputs();
      Counts counts = new Counts();
      scan(
          consumer,
          start,
          end,
          total,
          "finding",
          decoded(
              counts,
              (rec, out) -> {
                long id = idHash(out.getEvent().getEventId());
                if (inWindow.test(rec.timestamp())) {
                  latest.matched(id, rec.partition(), rec.offset());
                } else {
                  latest.cleared(id);
                }
              }),
          counts);
      long events = latest.candidates();
      if (events == 0) {
        return new SignatureRun(counts.read, counts.undecodable, 0, 0, 0, 0, 0, counts.lost);
      }

      // pass 2: each event's latest output, signed again; written only when that changed it
      Map<Integer, long[]> wanted = latest.offsetsByPartition();
      Window w2 = Window.of(parts, wanted);
      long[] changed = new long[1];
      long[] tooLarge = new long[1];
      PacedSends[] sends = new PacedSends[1];
      int maxOutputBytes =
          io.symbolicate.topology.config.TopologyConfig.outputLimit(
              cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES));
      Counts counts2 = new Counts();
      try (KafkaProducer<byte[], byte[]> producer =
          dryRun ? null : producer(cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES))) {
        sends[0] = producer == null ? null : new PacedSends(producer, pacer);
        scan(
            consumer,
            w2.start(),
            w2.end(),
            w2.total(),
            "signing",
            rec -> {
              if (java.util.Arrays.binarySearch(wanted.get(rec.partition()), rec.offset()) < 0) {
                return;
              }
              SymbolicatedEvent out;
              try {
                out = outputs.decode(rec.value());
              } catch (Exception e) {
                return; // decoded in pass 1
              }
              String signature = out.getSignature();
              String proto = out.getProtoSignature();
              List<String> notes = List.copyOf(out.getSignatureNotes());
              signer.sign(out);
              if (java.util.Objects.equals(signature, out.getSignature())
                  && java.util.Objects.equals(proto, out.getProtoSignature())
                  && notes.equals(out.getSignatureNotes())) {
                return;
              }
              changed[0]++;
              if (dryRun) {
                return;
              }
              byte[] value = outputs.encode(out);
              if (value.length > maxOutputBytes) {
                tooLarge[0]++;
                return;
              }
              sends[0].send(
                  topic,
                  rec.timestamp(),
                  out.getEvent().getEventId().getBytes(StandardCharsets.UTF_8),
                  value);
            },
            counts2);
        if (producer != null) {
          producer.flush();
        }
      } catch (ReprocessException | KafkaException e) {
        throw new ReprocessException(
            (e instanceof KafkaException k ? failed(k) : e).getMessage()
                + "; "
                + writtenSoFar(sends[0])
                + " event(s) were written before it stopped");
      }
      if (sends[0] != null && sends[0].firstFailure() != null) {
        progress.accept("first failure: " + sends[0].firstFailure());
      }
      return new SignatureRun(
          counts.read,
          counts.undecodable,
          events,
          changed[0],
          sends[0] == null ? 0 : sends[0].written(),
          sends[0] == null ? 0 : sends[0].failed(),
          tooLarge[0],
          counts.lost + counts2.lost);
    } catch (KafkaException e) {
      throw failed(e);
    }
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

  private static long writtenSoFar(PacedSends sends) {
    return sends == null ? 0 : sends.written();
  }

  private ReprocessException failed(KafkaException e) {
    return new ReprocessException(
        "reprocessing failed (Kafka at "
            + cfg.bootstrapServers()
            + "): "
            + e.getClass().getSimpleName()
            + ": "
            + e.getMessage());
  }

  /** The topic's partitions; refuses a topic that does not exist (never creating it). */
  private List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
    List<PartitionInfo> infos =
        consumer.partitionsFor(topic, Duration.ofMillis(cfg.getInt(ConfigKeys.STARTUP_TIMEOUT_MS)));
    if (infos == null || infos.isEmpty()) {
      throw new ReprocessException("topic " + topic + " does not exist");
    }
    return infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
  }

  /** What a scan read: records, those that could not be decoded, those retention deleted first. */
  private static final class Counts {
    long read;
    long undecodable;
    long lost;
  }

  /** Decodes each record as a symbolicated event for {@code each}; counts the undecodable. */
  private java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> decoded(
      Counts counts,
      java.util.function.BiConsumer<ConsumerRecord<byte[], byte[]>, SymbolicatedEvent> each) {
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
  private void scan(
      KafkaConsumer<byte[], byte[]> consumer,
      Map<TopicPartition, Long> start,
      Map<TopicPartition, Long> end,
      long total,
      String what,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each,
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
      org.apache.kafka.clients.consumer.ConsumerRecords<byte[], byte[]> records;
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

  private KafkaConsumer<byte[], byte[]> consumer() {
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

  private KafkaProducer<byte[], byte[]> producer() {
    // an event the app takes (max.event.bytes; larger ones are not sent), with room for the batch
    return producer(cfg.getInt(ConfigKeys.MAX_EVENT_BYTES) + (64 << 10));
  }

  private KafkaProducer<byte[], byte[]> producer(int maxRequestBytes) {
    Properties p =
        KafkaProperties.client(cfg, ProducerConfig.configNames(), StreamsConfig.PRODUCER_PREFIX);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 << 10);
    p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestBytes);
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** At most {@code perSecond} events a second (0 or less: no limit), on an injected clock. */
  static final class Pacer {
    private final double perSecond;
    private final java.util.function.LongSupplier nanoTime;
    private final io.symbolicate.connectors.loader.LoadPacer.Sleeper sleeper;
    private long start = Long.MIN_VALUE;
    private long count;

    Pacer(
        double perSecond,
        java.util.function.LongSupplier nanoTime,
        io.symbolicate.connectors.loader.LoadPacer.Sleeper sleeper) {
      this.perSecond = perSecond;
      this.nanoTime = nanoTime;
      this.sleeper = sleeper;
    }

    /** Waits until the next event is due: the n-th at (n - 1) / perSecond after the first. */
    void acquire() throws InterruptedException {
      if (perSecond <= 0) {
        return;
      }
      long now = nanoTime.getAsLong();
      if (start == Long.MIN_VALUE) {
        start = now;
      }
      long due = start + (long) (count++ * 1e9 / perSecond);
      if (due > now) {
        sleeper.sleepNanos(due - now);
      }
    }
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
      Map<Integer, java.util.stream.LongStream.Builder> by = new HashMap<>();
      for (int i = 0; i < partitions.length; i++) {
        if (partitions[i] > 0) {
          by.computeIfAbsent(partitions[i] - 1, p -> java.util.stream.LongStream.builder())
              .add(offsets[i]);
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
  private record Window(
      Map<TopicPartition, Long> start, Map<TopicPartition, Long> end, long total) {
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

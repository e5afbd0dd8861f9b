package io.symbolicate.app.reprocess;

import static io.symbolicate.app.reprocess.TopicScan.idHash;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.reprocess.PacedSends.Pacer;
import io.symbolicate.app.reprocess.TopicScan.Counts;
import io.symbolicate.app.reprocess.TopicScan.LatestOutputs;
import io.symbolicate.app.reprocess.TopicScan.Window;
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
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Reprocesses exactly the events that missed one module: after its symbols were uploaded late,
 * the events whose latest output says the module was {@code missing} (or another status an
 * upload can mend) are written to {@code topic.raw} again, marked {@code reprocessed}, and the
 * running app symbolicates them anew. Reads {@code topic.symbolicated} twice, between the same
 * offsets: first to learn which events' latest output still misses the module (an event already
 * reprocessed and found is not sent again) and where that output is, then to write each of
 * those events once, as its latest output embeds it ({@link TopicScan}). Memory grows
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
            case "dotnet", "D" -> "dotnet";
            default ->
                throw new IllegalArgumentException(
                    "unknown platform '" + parts[1] + "' (native, javascript, jvm or dotnet)");
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
            case "dotnet" -> Platform.dotnet;
            default -> Platform.jvm;
          };
      ModuleRef own = new ModuleRef(scope, ModuleRef.kindOf(p), module);
      return own.isGlobal()
          ? List.of(own)
          : List.of(own, own.inScope(DebugIdentifiers.GLOBAL_SCOPE));
    }

    /** The platform a selection names an event's modules by: .NET modules are in native events. */
    private String eventPlatform(CrashEvent e) {
      String p = Platforms.wireName(e.getPlatform());
      return platform.equals("dotnet") && p.equals("native") ? "dotnet" : p;
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
          || platform != null && !platform.equals(eventPlatform(e))) {
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

  /** Attribute set on a reprocessed event; the output's {@code reprocessed} field says so. */
  public static final String REPROCESSED_ATTRIBUTE = "reprocessed";

  private final AppConfig cfg;
  private final Consumer<String> progress;
  private final TopicScan reader;
  private final AvroSerde<SymbolicatedEvent> outputs = WireSerdes.symbolicatedEvent();
  private final AvroSerde<CrashEvent> events = WireSerdes.crashEvent();
  private final AvroSerde<ModuleState> states = WireSerdes.moduleState();

  /** {@code progress} receives a line now and then during long scans (e.g. stderr). */
  public ModuleReprocessing(AppConfig cfg, Consumer<String> progress) {
    requireAvroInput(cfg);
    this.cfg = cfg;
    this.progress = progress;
    this.reader = new TopicScan(cfg, progress);
  }

  /** Refuses an app whose input takes only JSON: reprocess writes Avro. */
  static void requireAvroInput(AppConfig cfg) {
    if ("json".equalsIgnoreCase(cfg.get(ConfigKeys.INPUT_FORMAT).trim())) {
      throw new IllegalArgumentException(
          "input.format=json: reprocess writes the events as Avro, which this app "
              + "would dead-letter; its input must take Avro (input.format=auto or avro)");
    }
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
    try (KafkaConsumer<byte[], byte[]> consumer = reader.consumer()) {
      List<TopicPartition> parts = reader.partitions(consumer, index);
      Map<TopicPartition, Long> start = consumer.beginningOffsets(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      reader.scan(
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
      throw reader.failed(e);
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
    Pacer pacer = new Pacer(maxPerSecond, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
    String topic = cfg.get(ConfigKeys.TOPIC_SYMBOLICATED);
    try (KafkaConsumer<byte[], byte[]> consumer = reader.consumer()) {
      List<TopicPartition> parts = reader.partitions(consumer, topic);
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
      reader.scan(
          consumer,
          start,
          end,
          total,
          "finding",
          reader.decoded(
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
      reader.partitions(consumer, raw);
      Map<Integer, long[]> wanted = latest.offsetsByPartition();
      Window w2 = Window.of(parts, wanted);
      long[] tooLarge = new long[1];
      PacedSends[] sends = new PacedSends[1];
      int maxEventBytes = cfg.getInt(ConfigKeys.MAX_EVENT_BYTES);
      Counts counts2 = new Counts(); // its losses show as matched events not written
      try (KafkaProducer<byte[], byte[]> producer = producer()) {
        sends[0] = new PacedSends(producer, pacer);
        reader.scan(
            consumer,
            w2.start(),
            w2.end(),
            w2.total(),
            "writing",
            rec -> {
              if (Arrays.binarySearch(wanted.get(rec.partition()), rec.offset()) < 0) {
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
            (e instanceof KafkaException k ? reader.failed(k) : e).getMessage()
                + "; "
                + PacedSends.writtenSoFar(sends[0])
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
      throw reader.failed(e);
    }
  }

  private KafkaProducer<byte[], byte[]> producer() {
    // an event the app takes (max.event.bytes; larger ones are not sent), with room for the batch
    return PacedSends.producer(cfg, cfg.getInt(ConfigKeys.MAX_EVENT_BYTES) + (64 << 10));
  }
}

package io.symbolicate.topology;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.serde.OutputTooLargeException;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.schema.topic.Topics;
import io.symbolicate.symbolication.apple.AppleReportEvents;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.signature.EventSigner;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.apple.AppleCrashReportException;
import io.symbolicate.topology.config.TopologyConfig;
import io.symbolicate.topology.deadletter.DeadLetters;
import io.symbolicate.topology.decode.EventValidator;
import io.symbolicate.topology.decode.InvalidEventException;
import io.symbolicate.topology.decode.RawEventDecoder;
import io.symbolicate.topology.flow.Emitted;
import io.symbolicate.topology.flow.Routed;
import io.symbolicate.topology.metrics.PipelineMetrics;
import io.symbolicate.topology.parking.ParkingProcessor;
import io.symbolicate.topology.store.StoreNames;
import io.symbolicate.topology.store.TablesStoreUpdater;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream topology, built by a pure function of its configuration and platform steps (no
 * I/O, no environment), so tests build exactly what production runs.
 *
 * <pre>
 * raw ─► decode+validate ─┬─ bad ─────────────────────────────────────────────► dlq
 *                         └─ split by platform ─┬─ native ─┐ park until     ┌─► sign ─► symbolicated
 *                                               ├─ js ─────┼─ symbols known ─┼─► dlq (step failed)
 *                                               └─ jvm ────┘ (global store)  ├─► symbols.requests
 *                                                                            └─► count ─► symbols.missing
 * symbols.tables ─► global store (RocksDB) ─► lookups
 * </pre>
 */
public final class SymbolicationTopology {
  private static final Logger log = LoggerFactory.getLogger(SymbolicationTopology.class);

  private SymbolicationTopology() {}

  /** The steps used until each platform's engine is wired in. */
  public static Map<Platform, PlatformSymbolicator> steps(List<PlatformSymbolicator> list) {
    Map<Platform, PlatformSymbolicator> m = new EnumMap<>(Platform.class);
    for (PlatformSymbolicator s : list) {
      m.put(s.platform(), s);
    }
    return m;
  }

  /** Default bound of the decoded-page cache when none is given. */
  public static final long DEFAULT_PAGE_CACHE_BYTES = 256L << 20;

  public static Topology build(TopologyConfig cfg, Map<Platform, PlatformSymbolicator> steps) {
    return build(cfg, steps, new PageCache(DEFAULT_PAGE_CACHE_BYTES));
  }

  public static Topology build(
      TopologyConfig cfg, Map<Platform, PlatformSymbolicator> steps, PageCache cache) {
    return build(cfg, steps, cache, PipelineMetrics.NONE);
  }

  /** As above, reporting events, statuses, parking and cache lookups to {@code metrics}. */
  public static Topology build(
      TopologyConfig cfg,
      Map<Platform, PlatformSymbolicator> steps,
      PageCache cache,
      PipelineMetrics metrics) {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder, cfg, steps, cache, metrics);
    return builder.build();
  }

  public static void build(
      StreamsBuilder builder,
      TopologyConfig cfg,
      Map<Platform, PlatformSymbolicator> steps,
      PageCache cache) {
    build(builder, cfg, steps, cache, PipelineMetrics.NONE);
  }

  /**
   * Adds the pipeline to {@code builder}. {@code cache} holds decoded symbol pages; it is shared
   * by all stream threads of an instance (pass the same one to every build in a JVM).
   * {@code metrics} is told what flows (no new processors: counted where records are routed).
   */
  public static void build(
      StreamsBuilder builder,
      TopologyConfig cfg,
      Map<Platform, PlatformSymbolicator> steps,
      PageCache cache,
      PipelineMetrics metrics) {
    TopicNames topics = cfg.topics();
    var dlqProduced =
        Produced.with(Topics.DLQ.keys(), DeadLetters.fittingSerde(cfg.maxOutputBytes()));

    // the symbol store: every instance materialises symbols.tables into one RocksDB store
    builder.addGlobalStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(StoreNames.TABLES),
                Serdes.Bytes(),
                Serdes.ByteArray())
            .withLoggingDisabled(),
        topics.tables(),
        Consumed.with(Serdes.Bytes(), Topics.SYMBOL_TABLES.values()),
        () -> new TablesStoreUpdater(StoreNames.TABLES));

    KStream<byte[], Routed> decoded =
        builder.stream(topics.raw(), Consumed.with(Topics.RAW.keys(), Topics.RAW.values()))
            .processValues(() -> new DecodeProcessor(cfg, metrics), Named.as("decode-validate"));

    Map<String, KStream<byte[], Routed>> byOutcome =
        decoded
            .split(Named.as("decoded-"))
            .branch((k, v) -> v.isDead(), Branched.as("invalid"))
            .defaultBranch(Branched.as("valid"));
    byOutcome
        .get("decoded-invalid")
        .mapValues(Routed::deadLetter, Named.as("invalid-to-dead-letter"))
        .to(topics.dlq(), dlqProduced);

    var split = byOutcome.get("decoded-valid").split(Named.as("platform-"));
    List<KStream<String, Emitted>> symbolicated = new ArrayList<>();
    for (Platform p : Platform.values()) {
      PlatformSymbolicator step = steps.get(p);
      if (step == null) {
        continue;
      }
      String name = Platforms.wireName(p);
      String parkedStore = StoreNames.PARKED_PREFIX + name;
      builder.addStateStore(
          Stores.keyValueStoreBuilder(
              Stores.persistentKeyValueStore(parkedStore), Serdes.String(), Serdes.ByteArray()));
      split =
          split.branch(
              (k, v) -> v.event().getPlatform() == p,
              Branched.withConsumer(
                  s ->
                      symbolicated.add(
                          s.process(
                              () ->
                                  new ParkingProcessor(
                                      step,
                                      cfg.parking(),
                                      parkedStore,
                                      StoreNames.TABLES,
                                      cache,
                                      cfg.maxOutputBytes(),
                                      metrics),
                              Named.as("symbolicate-" + name),
                              parkedStore)),
                  name));
    }
    // platforms without a step fail loudly rather than vanish
    split.defaultBranch(
        Branched.withConsumer(
            s ->
                s.mapValues(
                        (Routed v) -> {
                          metrics.deadLettered(ErrorKind.unknown_platform);
                          return DeadLetters.of(
                              null,
                              v.raw(),
                              null,
                              ErrorKind.unknown_platform,
                              "no symbolication step for platform "
                                  + Platforms.wireName(v.event().getPlatform()),
                              v.event().getEventId(),
                              System.currentTimeMillis());
                        },
                        Named.as("no-step"))
                    .to(topics.dlq(), dlqProduced),
            "none"));

    KStream<String, Emitted> merged = symbolicated.get(0);
    for (int i = 1; i < symbolicated.size(); i++) {
      merged = merged.merge(symbolicated.get(i), Named.as("merge-" + i));
    }
    Map<String, KStream<String, Emitted>> out =
        merged
            .split(Named.as("emitted-"))
            .branch((k, v) -> v.result() != null, Branched.as("result"))
            .branch((k, v) -> v.deadLetter() != null, Branched.as("failed"))
            .branch((k, v) -> v.request() != null, Branched.as("request"))
            .branch((k, v) -> v.missing() != null, Branched.as("missing"))
            .noDefaultBranch();
    // the signature: a pure step after every platform's symbolication (docs/signatures.md)
    EventSigner signer = new EventSigner(cfg.signatureLists());
    out.get("emitted-result")
        .mapValues(Emitted::result, Named.as("result-value"))
        .mapValues(signer::sign, Named.as("sign"))
        .to(
            topics.symbolicated(),
            Produced.with(
                Topics.SYMBOLICATED.keys(),
                counted(
                    OutputTooLargeException.capped(
                        Topics.SYMBOLICATED.values(), cfg.maxOutputBytes()),
                    metrics)));
    out.get("emitted-failed")
        .map(
            (k, v) -> KeyValue.pair(k.getBytes(StandardCharsets.UTF_8), v.deadLetter()),
            Named.as("failed-value"))
        .to(topics.dlq(), dlqProduced);
    out.get("emitted-request")
        .mapValues(Emitted::request, Named.as("request-value"))
        .to(
            topics.requests(),
            Produced.with(Topics.SYMBOL_REQUESTS.keys(), Topics.SYMBOL_REQUESTS.values()));
    var missingSerde = Topics.SYMBOLS_MISSING.values();
    out.get("emitted-missing")
        .mapValues(Emitted::missing, Named.as("missing-value"))
        .groupByKey(Grouped.with("missing-by-module", Serdes.String(), missingSerde))
        .reduce(
            SymbolicationTopology::addMissing,
            Named.as("count-missing"),
            Materialized.<String, MissingSymbols, KeyValueStore<Bytes, byte[]>>as(
                    StoreNames.MISSING)
                .withKeySerde(Serdes.String())
                .withValueSerde(missingSerde))
        .toStream(Named.as("missing-changes"))
        .to(topics.missing(), Produced.with(Topics.SYMBOLS_MISSING.keys(), missingSerde));
  }

  /**
   * {@code serde} whose serializer counts each output it encodes (events, frames and modules by
   * status): an output too large for its topic fails in the serializer and becomes a dead letter,
   * counted as such by the production handler, never also as written.
   */
  static org.apache.kafka.common.serialization.Serde<io.symbolicate.schema.SymbolicatedEvent>
      counted(
          org.apache.kafka.common.serialization.Serde<io.symbolicate.schema.SymbolicatedEvent>
              serde,
          PipelineMetrics metrics) {
    var inner = serde.serializer();
    return Serdes.serdeFrom(
        (topic, out) -> {
          byte[] bytes = inner.serialize(topic, out);
          if (out != null) {
            metrics.symbolicated(out.getEvent().getPlatform(), out);
          }
          return bytes;
        },
        serde.deserializer());
  }

  static MissingSymbols addMissing(MissingSymbols agg, MissingSymbols one) {
    return MissingSymbols.newBuilder(agg)
        .setCount(agg.getCount() + one.getCount())
        .setFirstSeen(
            agg.getFirstSeen().isBefore(one.getFirstSeen())
                ? agg.getFirstSeen()
                : one.getFirstSeen())
        .setLastSeen(
            agg.getLastSeen().isAfter(one.getLastSeen()) ? agg.getLastSeen() : one.getLastSeen())
        .build();
  }

  /** Decodes and validates; anything unusable becomes a dead letter with a reason. */
  static final class DecodeProcessor implements FixedKeyProcessor<byte[], byte[], Routed> {
    private final RawEventDecoder decoder;
    private final EventValidator validator;
    private final PipelineMetrics metrics;
    private FixedKeyProcessorContext<byte[], Routed> ctx;

    DecodeProcessor(TopologyConfig cfg, PipelineMetrics metrics) {
      this.decoder = new RawEventDecoder(cfg.inputFormat(), cfg.maxEventBytes());
      this.validator = new EventValidator(cfg.maxFramesPerEvent());
      this.metrics = metrics;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], Routed> context) {
      this.ctx = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> rec) {
      byte[] raw = rec.value();
      metrics.eventIn();
      CrashEvent e;
      try {
        e = decoder.decode(raw);
        validator.validate(e);
        if (AppleReportEvents.hasInlineReport(e)) {
          e = appleReport(e);
          validator.validate(e); // its frames count against max.frames.per.event too
        }
      } catch (InvalidEventException ex) {
        deadLetter(rec, ex.kind(), ex.getMessage(), ex.eventId());
        return;
      } catch (RuntimeException ex) {
        // a decoder that fails in a way nobody foresaw fails this record only: thrown, it would
        // stop the partition (the replaced thread reads the same record again)
        log.warn("decoding a record failed unexpectedly; sending it to the DLQ", ex);
        deadLetter(rec, ErrorKind.processing_error, "the event could not be decoded: " + ex, null);
        return;
      }
      ctx.forward(rec.withValue(Routed.event(raw, e)));
    }

    /** An inline Apple crash report read into modules and threads (docs/apple-crash.md). */
    private static CrashEvent appleReport(CrashEvent e) throws InvalidEventException {
      try {
        return AppleReportEvents.expandInline(e);
      } catch (AppleCrashReportException ex) {
        throw new InvalidEventException(
            ErrorKind.unreadable_attachment,
            "native.apple_crash_report: " + ex.getMessage(),
            e.getEventId(),
            null);
      }
    }

    private void deadLetter(
        FixedKeyRecord<byte[], byte[]> rec, ErrorKind kind, String message, String eventId) {
      metrics.deadLettered(kind);
      ctx.forward(
          rec.withValue(
              new Routed(
                  rec.value(),
                  null,
                  null,
                  DeadLetters.of(
                      rec.key(),
                      rec.value(),
                      ctx.recordMetadata().orElse(null),
                      kind,
                      message,
                      eventId,
                      ctx.currentSystemTimeMs()))));
    }
  }
}

package io.symbolicate.topology;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.Platforms;
import io.symbolicate.topology.decode.EventValidator;
import io.symbolicate.topology.decode.InvalidEventException;
import io.symbolicate.topology.decode.RawEventDecoder;
import io.symbolicate.topology.js.JsSymbolicator;
import io.symbolicate.topology.jvm.JvmSymbolicator;
import io.symbolicate.topology.nativecode.NativeSymbolicator;
import io.symbolicate.topology.platform.PlatformSymbolicator;
import io.symbolicate.topology.serde.WireSerdes;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream topology, built by a pure function of its configuration and platform steps (no
 * I/O, no environment), so tests build exactly what production runs.
 *
 * <pre>
 * raw ─► decode+validate ─┬─ bad ──────────────────────────────────► dlq
 *                         └─ split by platform ─┬─ native ─┐
 *                                               ├─ js ─────┼─► merge ─┬─► symbolicated
 *                                               └─ jvm ────┘          └─ step failed ─► dlq
 * </pre>
 */
public final class SymbolicationTopology {
  private static final Logger log = LoggerFactory.getLogger(SymbolicationTopology.class);

  private SymbolicationTopology() {}

  /** The steps used until each platform's engine is wired in. */
  public static Map<Platform, PlatformSymbolicator> defaultSteps() {
    return steps(List.of(new NativeSymbolicator(), new JsSymbolicator(), new JvmSymbolicator()));
  }

  public static Map<Platform, PlatformSymbolicator> steps(List<PlatformSymbolicator> list) {
    Map<Platform, PlatformSymbolicator> m = new EnumMap<>(Platform.class);
    for (PlatformSymbolicator s : list) {
      m.put(s.platform(), s);
    }
    return m;
  }

  public static Topology build(TopologyConfig cfg) {
    return build(cfg, defaultSteps());
  }

  public static Topology build(TopologyConfig cfg, Map<Platform, PlatformSymbolicator> steps) {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder, cfg, steps);
    return builder.build();
  }

  public static void build(
      StreamsBuilder builder, TopologyConfig cfg, Map<Platform, PlatformSymbolicator> steps) {
    TopicNames topics = cfg.topics();
    var dlqProduced = Produced.with(Serdes.ByteArray(), WireSerdes.deadLetter());

    KStream<byte[], Routed> decoded =
        builder
            .stream(topics.raw(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
            .processValues(() -> new DecodeProcessor(cfg), Named.as("decode-validate"));

    Map<String, KStream<byte[], Routed>> byOutcome =
        decoded.split(Named.as("decoded-"))
            .branch((k, v) -> v.isDead(), Branched.as("invalid"))
            .defaultBranch(Branched.as("valid"));
    byOutcome.get("decoded-invalid")
        .mapValues(Routed::deadLetter, Named.as("invalid-to-dead-letter"))
        .to(topics.dlq(), dlqProduced);

    var split = byOutcome.get("decoded-valid").split(Named.as("platform-"));
    for (Platform p : Platform.values()) {
      PlatformSymbolicator step = steps.get(p);
      if (step != null) {
        split = split.branch((k, v) -> v.event().getPlatform() == p,
            Branched.withFunction(s -> s.processValues(() -> new StepProcessor(step),
                Named.as("symbolicate-" + Platforms.wireName(p))), Platforms.wireName(p)));
      }
    }
    // platforms without a step (none by default) fail loudly rather than vanish
    Map<String, KStream<byte[], Routed>> perPlatform = split.defaultBranch(Branched.withFunction(
        s -> s.processValues(() -> new StepProcessor(null), Named.as("no-step")), "none"));

    KStream<byte[], Routed> merged = null;
    for (Map.Entry<String, KStream<byte[], Routed>> e : new java.util.TreeMap<>(perPlatform).entrySet()) {
      merged = merged == null ? e.getValue() : merged.merge(e.getValue(), Named.as("merge-" + e.getKey()));
    }
    Map<String, KStream<byte[], Routed>> results =
        merged.split(Named.as("result-"))
            .branch((k, v) -> v.isDead(), Branched.as("failed"))
            .defaultBranch(Branched.as("ok"));
    results.get("result-failed")
        .mapValues(Routed::deadLetter, Named.as("failed-to-dead-letter"))
        .to(topics.dlq(), dlqProduced);
    results.get("result-ok")
        .map((k, v) -> org.apache.kafka.streams.KeyValue.pair(v.event().getEventId(), v.result()),
            Named.as("key-by-event-id"))
        .to(topics.symbolicated(), Produced.with(Serdes.String(), WireSerdes.symbolicatedEvent()));
  }

  /** Decodes and validates; anything unusable becomes a dead letter with a reason. */
  static final class DecodeProcessor implements FixedKeyProcessor<byte[], byte[], Routed> {
    private final RawEventDecoder decoder;
    private final EventValidator validator;
    private FixedKeyProcessorContext<byte[], Routed> ctx;

    DecodeProcessor(TopologyConfig cfg) {
      this.decoder = new RawEventDecoder(cfg.inputFormat(), cfg.maxEventBytes());
      this.validator = new EventValidator(cfg.maxFramesPerEvent());
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], Routed> context) {
      this.ctx = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> rec) {
      byte[] raw = rec.value();
      try {
        CrashEvent e = decoder.decode(raw);
        validator.validate(e);
        ctx.forward(rec.withValue(Routed.event(raw, e)));
      } catch (InvalidEventException ex) {
        ctx.forward(rec.withValue(new Routed(raw, null, null,
            DeadLetters.of(rec.key(), raw, ctx.recordMetadata().orElse(null), ex.kind(),
                ex.getMessage(), ex.eventId(), ctx.currentSystemTimeMs()))));
      }
    }
  }

  /** Runs one platform step; a step that throws sends the event to the DLQ, not the app down. */
  static final class StepProcessor implements FixedKeyProcessor<byte[], Routed, Routed> {
    private final PlatformSymbolicator step;
    private FixedKeyProcessorContext<byte[], Routed> ctx;

    StepProcessor(PlatformSymbolicator step) {
      this.step = step;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], Routed> context) {
      this.ctx = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], Routed> rec) {
      Routed r = rec.value();
      if (step == null) {
        ctx.forward(rec.withValue(r.dead(DeadLetters.of(rec.key(), r.raw(),
            ctx.recordMetadata().orElse(null), ErrorKind.unknown_platform,
            "no symbolication step for platform " + Platforms.wireName(r.event().getPlatform()),
            r.event().getEventId(), ctx.currentSystemTimeMs()))));
        return;
      }
      try {
        ctx.forward(rec.withValue(r.symbolicated(step.symbolicate(r.event(), ctx.currentSystemTimeMs()))));
      } catch (RuntimeException ex) {
        log.warn("symbolication of event {} failed; sending it to the DLQ", r.event().getEventId(), ex);
        ctx.forward(rec.withValue(r.dead(DeadLetters.of(rec.key(), r.raw(),
            ctx.recordMetadata().orElse(null), ErrorKind.processing_error,
            Platforms.wireName(step.platform()) + " step failed: " + ex, r.event().getEventId(), ctx.currentSystemTimeMs()))));
      }
    }
  }
}

package io.symbolicate.topology.parking;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.OutputTooLargeException;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.UnusableEventException;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.ScopeFirst;
import io.symbolicate.symbolication.store.StoreSymbolLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbolication.store.SymbolStore;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.topology.config.TopologyConfig;
import io.symbolicate.topology.deadletter.DeadLetters;
import io.symbolicate.topology.flow.DecodedInput;
import io.symbolicate.topology.flow.SymbolicationOutput;
import io.symbolicate.topology.metrics.PipelineMetrics;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Symbolicates events of one platform without ever waiting on S3. An event whose modules the
 * store does not know yet is parked in a changelogged store and its modules are requested from
 * the loader; a wall-clock punctuator releases it when every module has an answer or its
 * deadline passes (then with honest statuses). Missing modules are counted for
 * {@code symbols.missing}.
 */
public final class ParkingProcessor
    implements Processor<byte[], DecodedInput, String, SymbolicationOutput> {
  private static final Logger log = LoggerFactory.getLogger(ParkingProcessor.class);

  private final PlatformSymbolicator step;
  private final TopologyConfig.Parking cfg;
  private final String parkedStoreName;
  private final String tablesStoreName;
  private final PageCache cache;
  private final PipelineMetrics metrics;
  private final AvroSerde<CrashEvent> eventSerde = WireSerdes.crashEvent();
  // a released event's output is checked here: the production handler that dead-letters an
  // output too large for its topic has no source position in a punctuation (built on first use)
  private final int maxOutputBytes;
  private Serializer<SymbolicatedEvent> releasedOutput;

  private ProcessorContext<String, SymbolicationOutput> ctx;
  private KeyValueStore<String, byte[]> parked;
  private SymbolStore store;
  private SymbolLookup lookup;
  private ModuleReadiness readiness;
  private final Map<ModuleRef, Long> lastRequested = new HashMap<>();
  private int requestedBound = 10_000;

  /**
   * Heap the throttle map may take in one processor (a platform's, in one task), estimated from
   * the modules' names ({@link #refBytes}): about 20,000 native modules, 800 JS release modules
   * with long URLs. Events naming random module ids (up to max.modules.per.event each, up to
   * park.max.events of them) grew the map, and the symbol requests, without bound; past the
   * budget a module waits for room, which the requests older than park.request.retry.ms make at
   * the start of each pass.
   */
  static final long MAX_REQUESTED_BYTES = 4L << 20;

  /** The same budget for the verdicts one pass remembers. */
  static final long MAX_VERDICT_BYTES = 4L << 20;

  private long requestedBytes;
  // while a pass runs: the parked entry it looks at, and where the first module found no room,
  // the entry the next pass starts from, so that every parked event gets its turn
  private String passKey;
  private String resumeAt;
  private int touchedBound = 100_000;
  // scope -> module key -> last touch: looked up for every found module of every event, so
  // without building (and validating) a ModuleRef each time
  private final Map<String, Map<String, Long>> lastTouched = new HashMap<>();
  private int touchedCount;
  private long parkedCount = -1;
  // entries still waiting for their input whose deadline passed: put back with a new one after the
  // pass
  private final List<KeyValue<String, byte[]>> renewed = new ArrayList<>();
  private String owner;

  /**
   * {@code maxOutputBytes}: the output topic's limit ({@link TopologyConfig#maxOutputBytes()}),
   * which an event released from parking is checked against before it is forwarded.
   */
  public ParkingProcessor(
      PlatformSymbolicator step,
      TopologyConfig.Parking cfg,
      String parkedStoreName,
      String tablesStoreName,
      PageCache cache,
      int maxOutputBytes,
      PipelineMetrics metrics) {
    this.metrics = metrics;
    this.maxOutputBytes = maxOutputBytes;
    this.step = step;
    this.cfg = cfg;
    this.parkedStoreName = parkedStoreName;
    this.tablesStoreName = tablesStoreName;
    this.cache = cache;
  }

  @Override
  public void init(ProcessorContext<String, SymbolicationOutput> context) {
    this.ctx = context;
    this.parked = context.getStateStore(parkedStoreName);
    ReadOnlyKeyValueStore<Bytes, byte[]> tables = context.getStateStore(tablesStoreName);
    this.store =
        new SymbolStore(
            key -> tables.get(Bytes.wrap(key)), cache, context::currentSystemTimeMs, metrics);
    this.owner = context.taskId() + "/" + parkedStoreName;
    this.lookup = new StoreSymbolLookup(store);
    this.readiness = step.readiness(context.currentSystemTimeMs());
    context.schedule(cfg.checkInterval(), PunctuationType.WALL_CLOCK_TIME, this::releaseParked);
  }

  @Override
  public void process(Record<byte[], DecodedInput> rec) {
    CrashEvent event = rec.value().event();
    byte[] raw = rec.value().raw();
    long now = ctx.currentSystemTimeMs();
    List<ModuleRef> needs;
    try {
      if (step.awaitingInput(event, now)) {
        // its file is being fetched off this thread: parked whatever the bound (the entry is on
        // disk, and there is nothing to emit without the file)
        park(event, rec.timestamp(), now);
        return;
      }
      needs = step.modulesNeeded(event, lookup);
    } catch (UnusableEventException e) {
      deadLetter(event, rec.key(), raw, null, now, rec.timestamp(), e.kind(), e.getMessage(), null);
      step.done(event);
      return;
    } catch (RuntimeException e) {
      // a step that cannot even name the modules fails this event only, not the stream thread
      deadLetter(
          event,
          rec.key(),
          raw,
          null,
          now,
          rec.timestamp(),
          ErrorKind.processing_error,
          Platforms.wireName(step.platform()) + " step failed: " + e,
          e);
      return;
    }
    if (needs.size() > cfg.maxModules()) {
      int distinct = new HashSet<>(needs).size();
      if (distinct > cfg.maxModules()) {
        // each module would be a symbol request and a fetch from every source: one event must
        // not be able to send the loader thousands of them
        deadLetter(
            event,
            rec.key(),
            raw,
            null,
            now,
            rec.timestamp(),
            ErrorKind.too_large,
            "event needs "
                + distinct
                + " modules, more than max.modules.per.event="
                + cfg.maxModules(),
            null);
        return;
      }
    }
    if (needs.isEmpty() || allReady(event, needs, now, null)) {
      emit(event, now, rec.timestamp(), rec.key(), raw, null);
      return;
    }
    if (parkedCount < 0) {
      parkedCount = parked.approximateNumEntries();
    }
    if (parkedCount >= cfg.maxParked()) {
      // bounded: rather emit with honest statuses than grow without limit
      log.warn(
          "{} events parked (park.max.events); emitting {} without waiting",
          parkedCount,
          event.getEventId());
      emit(event, now, rec.timestamp(), rec.key(), raw, null);
      return;
    }
    park(event, rec.timestamp(), now);
  }

  private void park(CrashEvent event, long timestamp, long now) {
    if (parkedCount < 0) {
      parkedCount = parked.approximateNumEntries();
    }
    String key =
        ctx.recordMetadata()
            .map(m -> new SourcePosition(m.topic(), m.partition(), m.offset()).key())
            .orElse("event:" + event.getEventId() + ":" + now); // never parses as a position
    parked.put(
        key,
        ParkedEvent.encode(now + cfg.timeout().toMillis(), timestamp, eventSerde.encode(event)));
    parkedCount++;
    metrics.parked(owner, step.platform(), parkedCount);
  }

  /**
   * Whether every needed module has an answer; requests those that do not (throttled). The
   * memo, if any, keeps one verdict per module per pass.
   */
  private boolean allReady(CrashEvent event, List<ModuleRef> needs, long now, VerdictMemo memo) {
    boolean ready = true;
    for (ModuleRef ref : needs) {
      Boolean r = memo == null ? null : memo.verdicts.get(ref);
      if (r == null) {
        r = ready(ref, now);
        if (memo != null && memo.bytes < MAX_VERDICT_BYTES) {
          memo.verdicts.put(ref, r);
          memo.bytes += refBytes(ref);
        }
      }
      ready &= r;
    }
    return ready;
  }

  /** One verdict per module per pass, within {@link #MAX_VERDICT_BYTES}. */
  private static final class VerdictMemo {
    final Map<ModuleRef, Boolean> verdicts = new HashMap<>();
    long bytes;
  }

  /** Heap a map entry keyed by {@code ref} takes, about: the ref, its strings (two bytes a char at worst), the entry. */
  static long refBytes(ModuleRef ref) {
    return 96 + 2L * (ref.scope().length() + ref.key().length());
  }

  /** Scope first, then global ({@link ScopeFirst}). */
  private boolean ready(ModuleRef ref, long now) {
    return ScopeFirst.ready(store, ref, (r, state) -> verdict(r, state, now));
  }

  private boolean verdict(ModuleRef ref, ModuleState state, long now) {
    return switch (readiness.of(state, now)) {
      case READY -> true;
      case READY_REBUILD -> {
        request(ref, RequestReason.rebuild, now);
        yield true;
      }
      case REQUEST -> {
        request(ref, state == null ? RequestReason.missing : RequestReason.retry, now);
        yield false;
      }
      case WAIT -> false;
    };
  }

  private void request(ModuleRef ref, RequestReason reason, long now) {
    Long last = lastRequested.get(ref);
    if (last != null && now - last < cfg.requestRetry().toMillis()) {
      return;
    }
    if (last == null) {
      // a pass may fill half the budget: the rest is kept for the modules of events as they come
      long budget = passKey == null ? MAX_REQUESTED_BYTES : MAX_REQUESTED_BYTES / 2;
      if (requestedBytes >= budget) {
        if (passKey != null && resumeAt == null) {
          resumeAt = passKey;
        }
        return; // asked for once older requests have made room
      }
      requestedBytes += refBytes(ref);
    }
    lastRequested.put(ref, now);
    ctx.forward(
        new Record<>(
            ref.toString(),
            SymbolicationOutput.request(
                SymbolRequest.newBuilder()
                    .setScope(ref.scope())
                    .setPlatform(ref.platform())
                    .setModuleKey(ref.key())
                    .setReason(reason)
                    .setRequestedAt(Instant.ofEpochMilli(now))
                    .build()),
            now));
  }

  /**
   * Symbolicates and forwards the event; {@code key} and {@code raw} are the input record's key
   * and value (null once parked: the parked entry keeps the event re-encoded, not them),
   * {@code parkedAs} the parked entry's key.
   */
  private void emit(
      CrashEvent event, long now, long timestamp, byte[] key, byte[] raw, String parkedAs) {
    SymbolicatedEvent out;
    try {
      out = step.symbolicate(event, lookup, now);
    } catch (UnusableEventException e) {
      deadLetter(event, key, raw, parkedAs, now, timestamp, e.kind(), e.getMessage(), null);
      return;
    } catch (RuntimeException e) {
      deadLetter(
          event,
          key,
          raw,
          parkedAs,
          now,
          timestamp,
          ErrorKind.processing_error,
          Platforms.wireName(step.platform()) + " step failed: " + e,
          e);
      return;
    } finally {
      step.done(event);
    }
    if (parkedAs == null || !deadLetteredUnfit(event, out, parkedAs, now, timestamp)) {
      // counted by the output's serializer once it fits (SymbolicationTopology): one too large
      // for its topic is a dead letter, not an output
      ctx.forward(new Record<>(event.getEventId(), SymbolicationOutput.result(out), timestamp));
    }
    // the modules were needed either way: missing ones are counted, found ones kept in use. A
    // reprocessed event was counted when it first came: counted again, every reprocessing run
    // would inflate the count of the modules it still misses
    for (ModuleResult m : out.getModules()) {
      if (m.getKey() == null) {
        continue;
      }
      if (m.getStatus() == ModuleStatus.missing && !out.getReprocessed()) {
        Platform tables = step.tablePlatform(event, m);
        String scopeKey = event.getScope() + "|" + Platforms.wireName(tables) + "|" + m.getKey();
        ctx.forward(
            new Record<>(
                scopeKey,
                SymbolicationOutput.missing(
                    MissingSymbols.newBuilder()
                        .setScope(event.getScope())
                        .setPlatform(tables)
                        .setModule(m.getKey())
                        .setCount(1)
                        .setFirstSeen(Instant.ofEpochMilli(now))
                        .setLastSeen(Instant.ofEpochMilli(now))
                        .build()),
                timestamp));
      } else if (m.getStatus() == ModuleStatus.found) {
        touch(event, step.tablePlatform(event, m), m.getKey(), now);
      }
    }
  }

  /**
   * Dead-letters a released event whose output its topic would refuse (too large) or that cannot
   * be encoded, and says whether it did. Encodes the output once: an exception in the sink would
   * fail the punctuation, and the task, again at every restart.
   */
  private boolean deadLetteredUnfit(
      CrashEvent event, SymbolicatedEvent out, String parkedAs, long now, long timestamp) {
    if (releasedOutput == null) {
      releasedOutput =
          OutputTooLargeException.capped(WireSerdes.symbolicatedEvent(), maxOutputBytes)
              .serializer();
    }
    ErrorKind kind;
    String why;
    try {
      releasedOutput.serialize(null, out);
      return false;
    } catch (OutputTooLargeException e) {
      kind = ErrorKind.too_large;
      why = e.getMessage();
    } catch (RuntimeException e) {
      kind = ErrorKind.processing_error;
      why = "the symbolicated event cannot be encoded: " + e;
    }
    log.warn("event {}: {}; sending it to the DLQ", event.getEventId(), why);
    deadLetter(event, null, null, parkedAs, now, timestamp, kind, why, null);
    return true;
  }

  /**
   * Sends an event to the DLQ. On the input record's turn: with its key and raw bytes. For a
   * parked event released later: without a key, with the event as parked (re-encoded as Avro),
   * and with the input position its parked key names. A failure of the step ({@code cause} not
   * null) is logged with its stack.
   */
  private void deadLetter(
      CrashEvent event,
      byte[] key,
      byte[] raw,
      String parkedAs,
      long now,
      long timestamp,
      ErrorKind kind,
      String message,
      RuntimeException cause) {
    if (cause != null) {
      log.warn(
          "symbolication of event {} failed; sending it to the DLQ", event.getEventId(), cause);
    }
    metrics.deadLettered(kind);
    byte[] value = raw != null ? raw : eventSerde.encode(event);
    ctx.forward(
        new Record<>(
            event.getEventId(),
            SymbolicationOutput.dead(
                letter(key, value, parkedAs, kind, message, event.getEventId(), now)),
            timestamp));
  }

  /** A parked entry whose event cannot be read back: {@code bytes} as they are, from where its key says. */
  private void deadLetterEntry(
      String parkedAs, byte[] bytes, long now, long timestamp, String message) {
    metrics.deadLettered(ErrorKind.undecodable);
    ctx.forward(
        new Record<>(
            parkedAs,
            SymbolicationOutput.dead(
                letter(null, bytes, parkedAs, ErrorKind.undecodable, message, null, now)),
            timestamp));
  }

  /** A dead letter from where a parked key says the event came, else from the current record (if any). */
  private DeadLetter letter(
      byte[] key,
      byte[] value,
      String parkedAs,
      ErrorKind kind,
      String message,
      String eventId,
      long now) {
    SourcePosition at = parkedAs == null ? null : SourcePosition.parse(parkedAs);
    return at == null
        ? DeadLetters.of(key, value, ctx.recordMetadata().orElse(null), kind, message, eventId, now)
        : DeadLetters.of(
            key, value, at.topic(), at.partition(), at.offset(), kind, message, eventId, now);
  }

  /** Tells the loader, at most once per touch interval, that a module is in use (for eviction). */
  private void touch(CrashEvent event, Platform tables, String key, long now) {
    Map<String, Long> inScope = lastTouched.get(event.getScope());
    Long last = inScope == null ? null : inScope.get(key);
    if (last != null && now - last < cfg.touchInterval().toMillis()) {
      return;
    }
    ModuleRef ref;
    try {
      ref = new ModuleRef(event.getScope(), ModuleRef.kindOf(tables), key);
    } catch (IllegalArgumentException e) {
      return;
    }
    if (inScope == null) {
      inScope = new HashMap<>();
      lastTouched.put(event.getScope(), inScope);
    }
    if (inScope.put(key, now) == null) {
      touchedCount++;
    }
    ctx.forward(
        new Record<>(
            ref.toString(),
            SymbolicationOutput.request(
                SymbolRequest.newBuilder()
                    .setScope(ref.scope())
                    .setPlatform(ref.platform())
                    .setModuleKey(ref.key())
                    .setReason(RequestReason.used)
                    .setRequestedAt(Instant.ofEpochMilli(now))
                    .build()),
            now));
  }

  /** Releases parked events whose modules all have answers, or whose deadline passed. */
  private void releaseParked(long now) {
    // an idle task lets go of its page memos too once the cache evicted something
    store.dropStaleMemos();
    // forget the requests that no longer throttle (older than their interval) before this pass
    // asks again, so that modules that found no room are asked for in it. Cleared whole, a map
    // that refilled past the bound at every pass (more than 10,000 modules waiting, a cold start)
    // let every module be asked for again at every pass, 20 times the rate
    if (lastRequested.size() > requestedBound || requestedBytes >= MAX_REQUESTED_BYTES / 2) {
      long retry = cfg.requestRetry().toMillis();
      lastRequested
          .entrySet()
          .removeIf(
              e -> {
                boolean old = now - e.getValue() >= retry;
                if (old) {
                  requestedBytes -= refBytes(e.getKey());
                }
                return old;
              });
      requestedBound = Math.max(10_000, 2 * lastRequested.size());
    }
    VerdictMemo memo = new VerdictMemo();
    List<String> done = new ArrayList<>();
    long remaining = 0;
    // from where the last pass ran out of room for requests, round to the entry before it
    String start = resumeAt;
    resumeAt = null;
    try {
      try (KeyValueIterator<String, byte[]> it =
          start == null ? parked.all() : parked.range(start, null)) {
        remaining += visitAll(it, null, now, memo, done);
      }
      if (start != null) {
        try (KeyValueIterator<String, byte[]> it = parked.range(null, start)) {
          remaining += visitAll(it, start, now, memo, done);
        }
      }
    } finally {
      passKey = null;
    }
    for (String k : done) {
      parked.delete(k);
    }
    for (KeyValue<String, byte[]> r : renewed) {
      parked.put(r.key, r.value);
    }
    renewed.clear();
    parkedCount = remaining;
    metrics.parked(owner, step.platform(), remaining);
    // the same for the touches. The bounds follow what is left, so a map whose entries are all
    // recent is not scanned again at every pass
    if (touchedCount > touchedBound) {
      long interval = cfg.touchInterval().toMillis();
      touchedCount = 0;
      for (var it = lastTouched.values().iterator(); it.hasNext(); ) {
        Map<String, Long> inScope = it.next();
        inScope.values().removeIf(t -> now - t >= interval);
        touchedCount += inScope.size();
        if (inScope.isEmpty()) {
          it.remove();
        }
      }
      touchedBound = Math.max(100_000, 2 * touchedCount);
    }
  }

  /** Visits the parked entries up to {@code end} (exclusive; null: all); returns how many stay. */
  private long visitAll(
      KeyValueIterator<String, byte[]> it,
      String end,
      long now,
      VerdictMemo memo,
      List<String> done) {
    long remaining = 0;
    while (it.hasNext()) {
      KeyValue<String, byte[]> kv = it.next();
      if (kv.key.equals(end)) {
        break;
      }
      passKey = kv.key;
      if (visit(kv, now, memo, done)) {
        remaining++;
      }
    }
    return remaining;
  }

  /** Releases one parked entry if it is ready (or dead-letters it); returns whether it stays. */
  private boolean visit(
      KeyValue<String, byte[]> kv, long now, VerdictMemo memo, List<String> done) {
    // an exception out of a punctuation fails the task, and the restored store holds the same
    // entry for the next one: whatever is wrong with one entry goes to the DLQ with it
    ParkedEvent p;
    try {
      p = ParkedEvent.decode(kv.value);
    } catch (RuntimeException e) {
      log.error("parked entry {} cannot be decoded; sending its bytes to the DLQ", kv.key, e);
      deadLetterEntry(kv.key, kv.value, now, now, "parked entry cannot be decoded: " + e);
      done.add(kv.key);
      return false;
    }
    CrashEvent event;
    try {
      event = eventSerde.decode(p.event());
    } catch (Exception e) {
      // the event's bytes as parked (Avro), without the entry's deadline and timestamp
      log.error("parked event {} cannot be decoded; sending its bytes to the DLQ", kv.key, e);
      deadLetterEntry(
          kv.key, p.event(), now, p.timestamp(), "parked event cannot be decoded: " + e);
      done.add(kv.key);
      return false;
    }
    List<ModuleRef> needs;
    try {
      if (step.awaitingInput(event, now)) {
        if (now >= p.deadline()) {
          // the deadline is for the modules: it starts again once the input is there
          renewed.add(
              KeyValue.pair(
                  kv.key,
                  ParkedEvent.encode(now + cfg.timeout().toMillis(), p.timestamp(), p.event())));
        }
        return true;
      }
      needs = now >= p.deadline() ? null : step.modulesNeeded(event, lookup);
    } catch (UnusableEventException e) {
      deadLetter(event, null, null, kv.key, now, p.timestamp(), e.kind(), e.getMessage(), null);
      step.done(event);
      done.add(kv.key);
      return false;
    } catch (RuntimeException e) {
      deadLetter(
          event,
          null,
          null,
          kv.key,
          now,
          p.timestamp(),
          ErrorKind.processing_error,
          Platforms.wireName(step.platform()) + " step failed: " + e,
          e);
      done.add(kv.key);
      return false;
    }
    if (needs == null || allReady(event, needs, now, memo)) {
      emit(event, now, p.timestamp(), null, null, kv.key);
      done.add(kv.key);
      return false;
    }
    return true;
  }

  @Override
  public void close() {
    // the task moves away (or the app stops): its parked events are no longer this instance's
    if (owner != null) {
      metrics.parked(owner, step.platform(), 0);
    }
  }

  /** The input position a parked entry's key names ({@code topic-partition-offset}). */
  public record SourcePosition(String topic, int partition, long offset) {
    /** The parked key of an event from this position. */
    String key() {
      return topic + "-" + partition + "-" + offset;
    }

    /** The position a parked key names, or null for a key that names none. */
    public static SourcePosition parse(String parkedKey) {
      int o = parkedKey.lastIndexOf('-');
      int p = o <= 0 ? -1 : parkedKey.lastIndexOf('-', o - 1);
      if (p <= 0) {
        return null;
      }
      try {
        return new SourcePosition(
            parkedKey.substring(0, p),
            Integer.parseInt(parkedKey.substring(p + 1, o)),
            Long.parseLong(parkedKey.substring(o + 1)));
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  /** A parked event: deadline, original timestamp, Avro-encoded event. */
  record ParkedEvent(long deadline, long timestamp, byte[] event) {
    static byte[] encode(long deadline, long timestamp, byte[] event) {
      return ByteBuffer.allocate(16 + event.length)
          .putLong(deadline)
          .putLong(timestamp)
          .put(event)
          .array();
    }

    static ParkedEvent decode(byte[] b) {
      if (b == null || b.length < 16) {
        throw new IllegalArgumentException(
            "a parked entry of " + (b == null ? 0 : b.length) + " bytes");
      }
      ByteBuffer buf = ByteBuffer.wrap(b);
      long deadline = buf.getLong();
      long ts = buf.getLong();
      byte[] ev = new byte[buf.remaining()];
      buf.get(ev);
      return new ParkedEvent(deadline, ts, ev);
    }
  }
}

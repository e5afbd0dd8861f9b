package io.symbolicate.analytics.count;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.SymbolicatedEvent;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The symbolicated events as a table keyed by event id: remembers where each event is counted
 * and, when an event arrives again, sends the difference: nothing for a duplicate, a removal
 * from the old cell and an addition to the new one when reprocessing changed its signature.
 * Keyed by release for the counts downstream.
 */
public final class EventTableProcessor
    implements Processor<String, SymbolicatedEvent, String, Delta> {
  /** Remembered events one purge pass looks at, at most; the next pass goes on from there. */
  public static final int PURGE_KEYS_PER_PASS = 100_000;

  private final Retention cfg;
  private final String storeName;
  private ProcessorContext<String, Delta> context;
  private KeyValueStore<Bytes, byte[]> events;
  private Bytes purgeCursor;

  public EventTableProcessor(Retention cfg, String storeName) {
    this.cfg = cfg;
    this.storeName = storeName;
  }

  @Override
  public void init(ProcessorContext<String, Delta> context) {
    this.context = context;
    this.events = context.getStateStore(storeName);
    context.schedule(cfg.purgeInterval(), PunctuationType.WALL_CLOCK_TIME, this::purge);
  }

  @Override
  public void process(Record<String, SymbolicatedEvent> r) {
    SymbolicatedEvent value = r.value();
    String eventId =
        r.key() != null
            ? r.key()
            : value == null ? null : String.valueOf(value.getEvent().getEventId());
    if (eventId == null) {
      return;
    }
    Bytes key = Bytes.wrap(StoreBytes.utf8(eventId));
    byte[] oldBytes = events.get(key);
    CrashRef old = oldBytes == null ? null : CrashRef.decode(oldBytes);
    if (value == null) {
      // a tombstone: the event is gone
      if (old != null) {
        events.delete(key);
        send(r, false, eventId, old);
      }
      return;
    }
    CrashRef now = project(value, r.timestamp(), old);
    if (now.equals(old)) {
      return; // a duplicate changes nothing
    }
    if (now.hourMs() < cfg.firstCountedHour(context.currentSystemTimeMs())) {
      return; // older than the retention: not counted (an old entry, if any, is purged with its
      // hour)
    }
    if (old != null) {
      send(r, false, eventId, old);
    }
    events.put(key, now.encode());
    send(r, true, eventId, now);
  }

  private void send(
      Record<String, SymbolicatedEvent> r, boolean add, String eventId, CrashRef ref) {
    context.forward(
        new Record<>(ref.release(), new Delta(add, eventId, ref), r.timestamp(), r.headers()));
  }

  /**
   * Where {@code e} is counted. The crash time is the event's {@code received_at}; without one,
   * the time the event was first seen here (its record's timestamp), kept across reprocessing.
   */
  static CrashRef project(SymbolicatedEvent e, long recordTimestamp, CrashRef old) {
    CrashEvent ev = e.getEvent();
    Long received = ev.getReceivedAt() == null ? null : ev.getReceivedAt().toEpochMilli();
    long crashMs = received != null ? received : old != null ? old.crashMs() : recordTimestamp;
    CharSequence release = ev.getRelease();
    CharSequence sig = e.getSignature();
    return new CrashRef(
        release == null ? "" : release.toString(),
        Platforms.wireName(ev.getPlatform()),
        sig == null ? "" : sig.toString(),
        crashMs);
  }

  /** Forgets events of expired hours, at most {@link #PURGE_KEYS_PER_PASS} looked at per pass. */
  private void purge(long nowMs) {
    long first = cfg.firstCountedHour(nowMs);
    List<Bytes> expired = new ArrayList<>();
    int seen = 0;
    Bytes last = null;
    try (KeyValueIterator<Bytes, byte[]> it = events.range(purgeCursor, null)) {
      while (it.hasNext() && seen < PURGE_KEYS_PER_PASS) {
        KeyValue<Bytes, byte[]> kv = it.next();
        seen++;
        last = kv.key;
        if (CrashRef.decode(kv.value).hourMs() < first) {
          expired.add(kv.key);
        }
      }
      // go on after the last key next time, or start over once the end was reached
      purgeCursor = it.hasNext() && last != null ? Bytes.wrap(StoreBytes.after(last.get())) : null;
    }
    expired.forEach(events::delete);
  }
}

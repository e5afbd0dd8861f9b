package io.symbolicate.analytics.count;

import java.nio.ByteBuffer;
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
 * Applies the deltas of one release's partition to its counts: the cell's count, its events
 * (for exact first/last seen, example and recent ids), and the signature's hours. An addition
 * already counted or a removal of an event not counted changes nothing, so a delta seen twice
 * cannot skew a count.
 */
public final class CellCountProcessor implements Processor<String, Delta, Void, Void> {
  private static final byte[] PRESENT = new byte[0];

  private final Retention cfg;
  private final String cellsName;
  private final String cellEventsName;
  private final String signatureHoursName;
  private ProcessorContext<Void, Void> context;
  private KeyValueStore<Bytes, byte[]> cells;
  private KeyValueStore<Bytes, byte[]> cellEvents;
  private KeyValueStore<Bytes, byte[]> signatureHours;

  public CellCountProcessor(
      Retention cfg, String cellsName, String cellEventsName, String signatureHoursName) {
    this.cfg = cfg;
    this.cellsName = cellsName;
    this.cellEventsName = cellEventsName;
    this.signatureHoursName = signatureHoursName;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.context = context;
    cells = context.getStateStore(cellsName);
    cellEvents = context.getStateStore(cellEventsName);
    signatureHours = context.getStateStore(signatureHoursName);
    context.schedule(cfg.purgeInterval(), PunctuationType.WALL_CLOCK_TIME, this::purge);
  }

  @Override
  public void process(Record<String, Delta> r) {
    Delta d = r.value();
    if (d == null) {
      return;
    }
    CrashRef ref = d.ref();
    if (ref.hourMs() < cfg.firstCountedHour(context.currentSystemTimeMs())) {
      return; // expired: its cell goes with the next purge
    }
    byte[] cellKey = CellKeys.cell(ref);
    Bytes eventKey = Bytes.wrap(CellKeys.cellEvent(cellKey, ref.crashMs(), d.eventId()));
    Bytes cell = Bytes.wrap(cellKey);
    Bytes sigKey =
        Bytes.wrap(
            CellKeys.signatureHour(ref.signature(), ref.hourMs(), ref.release(), ref.platform()));
    byte[] old = cells.get(cell);
    CellValue v = old == null ? null : CellValue.decode(old);
    if (d.add()) {
      if (cellEvents.get(eventKey) != null) {
        return;
      }
      cellEvents.put(eventKey, PRESENT);
      CellValue next;
      if (v == null) {
        next = new CellValue(1, ref.crashMs(), ref.crashMs(), d.eventId());
      } else {
        boolean later = v.laterThanExample(ref.crashMs(), d.eventId());
        next =
            new CellValue(
                v.count() + 1,
                Math.min(v.firstMs(), ref.crashMs()),
                Math.max(v.lastMs(), ref.crashMs()),
                later ? d.eventId() : v.exampleEventId());
      }
      cells.put(cell, next.encode());
      addToSignature(sigKey, 1);
    } else {
      if (cellEvents.get(eventKey) == null) {
        return;
      }
      cellEvents.delete(eventKey);
      if (v == null || v.count() <= 1) {
        cells.delete(cell);
      } else if (ref.crashMs() == v.firstMs()
          || ref.crashMs() == v.lastMs()
          || d.eventId().equals(v.exampleEventId())) {
        cells.put(cell, recount(cellKey, v.count() - 1).encode());
      } else {
        cells.put(
            cell,
            new CellValue(v.count() - 1, v.firstMs(), v.lastMs(), v.exampleEventId()).encode());
      }
      addToSignature(sigKey, -1);
    }
  }

  /** First, last and example of a cell, read back from its events (they sort by crash time). */
  private CellValue recount(byte[] cellKey, long count) {
    Bytes from = Bytes.wrap(cellKey);
    Bytes to = Bytes.wrap(CellKeys.after(cellKey));
    long first;
    long last;
    String example;
    try (KeyValueIterator<Bytes, byte[]> it = cellEvents.range(from, to)) {
      first = CellKeys.crashOf(it.next().key.get(), cellKey.length);
    }
    try (KeyValueIterator<Bytes, byte[]> it = cellEvents.reverseRange(from, to)) {
      byte[] k = it.next().key.get();
      last = CellKeys.crashOf(k, cellKey.length);
      example = CellKeys.eventOf(k, cellKey.length);
    }
    return new CellValue(count, first, last, example);
  }

  private void addToSignature(Bytes key, long delta) {
    byte[] old = signatureHours.get(key);
    long n = (old == null ? 0 : CellValue.decodeCount(old)) + delta;
    if (n <= 0) {
      signatureHours.delete(key);
    } else {
      signatureHours.put(key, CellValue.encodeCount(n));
    }
  }

  /** Deletes every key of an expired hour: one range per release (or signature), hour first. */
  private void purge(long nowMs) {
    long first = cfg.firstCountedHour(nowMs);
    purgeByPrefix(cells, first);
    purgeByPrefix(cellEvents, first);
    purgeByPrefix(signatureHours, first);
  }

  /** For stores whose keys are a length-prefixed string, then the hour. */
  static void purgeByPrefix(KeyValueStore<Bytes, byte[]> store, long firstHour) {
    Bytes cursor = null;
    while (true) {
      byte[] prefix;
      try (KeyValueIterator<Bytes, byte[]> it = store.range(cursor, null)) {
        if (!it.hasNext()) {
          return;
        }
        prefix = CellKeys.release(CellKeys.releaseOf(it.peekNextKey().get()));
      }
      List<Bytes> expired = new ArrayList<>();
      try (KeyValueIterator<Bytes, byte[]> it =
          store.range(
              Bytes.wrap(prefix),
              Bytes.wrap(
                  ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(firstHour).array()))) {
        while (it.hasNext()) {
          KeyValue<Bytes, byte[]> kv = it.next();
          if (CellKeys.hourOf(kv.key.get()) < firstHour) {
            expired.add(kv.key);
          }
        }
      }
      expired.forEach(store::delete);
      cursor = Bytes.wrap(CellKeys.after(prefix));
    }
  }
}

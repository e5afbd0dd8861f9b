package io.symbolicate.analytics.query;

import io.symbolicate.analytics.count.CellKeys;
import io.symbolicate.analytics.count.CellValue;
import io.symbolicate.analytics.count.CrashRef;
import io.symbolicate.analytics.query.SignatureHistory.HourCount;
import io.symbolicate.analytics.query.SignatureHistory.RecentEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** Answers from the count stores of this instance's partitions. */
public final class LocalCounts {
  private LocalCounts() {}

  /** Per signature, the crashes of the query's cells in these partitions. */
  public static List<CrasherTotal> crashers(List<PartitionStores> partitions, CrasherQuery q) {
    Map<String, CrasherTotal> out = new HashMap<>();
    for (PartitionStores p : partitions) {
      if (q.release() != null) {
        addRelease(p.cells(), q.release(), q, out);
      } else {
        // one range per release: seek to the next release's prefix instead of reading every hour
        Bytes cursor = null;
        while (true) {
          String release;
          try (KeyValueIterator<Bytes, byte[]> it = p.cells().range(cursor, null)) {
            if (!it.hasNext()) {
              break;
            }
            release = CellKeys.releaseOf(it.peekNextKey().get());
          }
          addRelease(p.cells(), release, q, out);
          cursor = Bytes.wrap(CellKeys.after(CellKeys.release(release)));
        }
      }
    }
    return new ArrayList<>(out.values());
  }

  private static void addRelease(
      ReadOnlyKeyValueStore<Bytes, byte[]> cells,
      String release,
      CrasherQuery q,
      Map<String, CrasherTotal> out) {
    if (q.untilHour() <= q.sinceHour()) {
      return;
    }
    // inclusive bounds: the key that is just (release, until) is a prefix, shorter than any cell of
    // that hour
    try (KeyValueIterator<Bytes, byte[]> it =
        cells.range(
            Bytes.wrap(CellKeys.releaseHour(release, q.sinceHour())),
            Bytes.wrap(CellKeys.releaseHour(release, q.untilHour())))) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        CellKeys.Cell c = CellKeys.parseCell(kv.key.get());
        if (c.hourMs() < q.sinceHour()
            || c.hourMs() >= q.untilHour()
            || q.platform() != null && !q.platform().equals(c.platform())) {
          continue;
        }
        out.merge(
            c.signature(),
            CrasherTotal.of(c.signature(), CellValue.decode(kv.value)),
            CrasherTotal::plus);
      }
    }
  }

  /** The signature's hours in these partitions and its {@code recentLimit} latest events. */
  public static SignatureHistory signature(
      List<PartitionStores> partitions, String signature, int recentLimit) {
    List<SignatureHistory> parts = new ArrayList<>();
    byte[] prefix = CellKeys.signature(signature);
    for (PartitionStores p : partitions) {
      List<HourCount> hours = new ArrayList<>();
      try (KeyValueIterator<Bytes, byte[]> it =
          p.signatureHours().range(Bytes.wrap(prefix), Bytes.wrap(CellKeys.after(prefix)))) {
        while (it.hasNext()) {
          KeyValue<Bytes, byte[]> kv = it.next();
          CellKeys.SignatureHour h = CellKeys.parseSignatureHour(kv.key.get());
          hours.add(
              new HourCount(h.hourMs(), h.release(), h.platform(), CellValue.count(kv.value)));
        }
      }
      parts.add(new SignatureHistory(hours, recent(p, signature, hours, recentLimit)));
    }
    return SignatureHistory.merge(parts, recentLimit);
  }

  /** The latest events, from the latest hours back: an hour's events are all later than an earlier hour's. */
  private static List<RecentEvent> recent(
      PartitionStores p, String signature, List<HourCount> hours, int limit) {
    List<HourCount> latestFirst = new ArrayList<>(hours);
    latestFirst.sort(Comparator.comparingLong(HourCount::hourMs).reversed());
    List<RecentEvent> out = new ArrayList<>();
    for (int i = 0; i < latestFirst.size(); i++) {
      HourCount h = latestFirst.get(i);
      byte[] cell = CellKeys.cell(h.release(), h.hourMs(), h.platform(), signature);
      int taken = 0;
      try (KeyValueIterator<Bytes, byte[]> it =
          p.cellEvents().reverseRange(Bytes.wrap(cell), Bytes.wrap(CellKeys.after(cell)))) {
        while (it.hasNext() && taken < limit) {
          byte[] k = it.next().key.get();
          out.add(
              new RecentEvent(CellKeys.eventOf(k, cell.length), CellKeys.crashOf(k, cell.length)));
          taken++;
        }
      }
      boolean hourDone =
          i + 1 == latestFirst.size() || latestFirst.get(i + 1).hourMs() != h.hourMs();
      if (hourDone && out.size() >= limit) {
        break;
      }
    }
    return out;
  }

  /** The hour of {@code ms}, for callers that round a time range. */
  public static long hourOf(long ms) {
    return CrashRef.hourOf(ms);
  }
}

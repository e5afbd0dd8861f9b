package io.symbolicate.analytics.count;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The count of one cell (release, hour, platform, signature), with the earliest and latest
 * crash times of the events it counts and the latest of them (ties: the greatest event id), so
 * that all three stay exact when reprocessing moves an event away.
 */
public record CellValue(long count, long firstMs, long lastMs, String exampleEventId) {

  public byte[] encode() {
    byte[] e = StoreBytes.utf8(exampleEventId);
    ByteBuffer b = ByteBuffer.allocate(24 + StoreBytes.size(e));
    b.putLong(count).putLong(firstMs).putLong(lastMs);
    StoreBytes.put(b, e);
    return b.array();
  }

  public static CellValue decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    CellValue v =
        new CellValue(
            StoreBytes.getLong(b),
            StoreBytes.getLong(b),
            StoreBytes.getLong(b),
            StoreBytes.string(b));
    if (b.hasRemaining()) {
      throw new SerializationException(b.remaining() + " bytes after a cell value");
    }
    return v;
  }

  /** True when (crashMs, eventId) is later than this cell's example, by crash time then id. */
  public boolean laterThanExample(long crashMs, String eventId) {
    return crashMs > lastMs || crashMs == lastMs && compareIds(eventId, exampleEventId) > 0;
  }

  /** Event ids compared as their UTF-8 bytes are (the order of the cell-event keys). */
  public static int compareIds(String a, String b) {
    return Arrays.compareUnsigned(StoreBytes.utf8(a), StoreBytes.utf8(b));
  }

  static long decodeCount(byte[] bytes) {
    if (bytes.length != 8) {
      throw new SerializationException("a count of " + bytes.length + " bytes, not 8");
    }
    return ByteBuffer.wrap(bytes).getLong();
  }

  static byte[] encodeCount(long n) {
    return ByteBuffer.allocate(8).putLong(n).array();
  }

  /** A signature-hours value: the count. */
  public static long count(byte[] bytes) {
    return decodeCount(bytes);
  }
}

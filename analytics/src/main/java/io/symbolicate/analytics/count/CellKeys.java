package io.symbolicate.analytics.count;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keys of the count stores, each field length-prefixed so a key's leading fields are a prefix
 * of it:
 * <ul>
 *   <li>a cell, in {@code topcrashers-cells}: release, hour, platform, signature;</li>
 *   <li>an event of a cell, in {@code topcrashers-cell-events}: the cell's key, crash time, event id
 *       (so a cell's events sort by crash time);</li>
 *   <li>a signature's cell, in {@code topcrashers-signature-hours}: signature, hour, release, platform.</li>
 * </ul>
 */
public final class CellKeys {
  private CellKeys() {}

  /** The fields of a cell key. */
  public record Cell(String release, long hourMs, String platform, String signature) {}

  /** The fields of a signature-hours key. */
  public record SignatureHour(String signature, long hourMs, String release, String platform) {}

  public static byte[] cell(String release, long hourMs, String platform, String signature) {
    byte[] r = StoreBytes.utf8(release);
    byte[] p = StoreBytes.utf8(platform);
    byte[] s = StoreBytes.utf8(signature);
    ByteBuffer b =
        ByteBuffer.allocate(StoreBytes.size(r) + 8 + StoreBytes.size(p) + StoreBytes.size(s));
    StoreBytes.put(b, r);
    b.putLong(hourMs);
    StoreBytes.put(b, p);
    StoreBytes.put(b, s);
    return b.array();
  }

  public static byte[] cell(CrashRef ref) {
    return cell(ref.release(), ref.hourMs(), ref.platform(), ref.signature());
  }

  /** The prefix of every key (cell or cell event) of one release. */
  public static byte[] release(String release) {
    byte[] r = StoreBytes.utf8(release);
    ByteBuffer b = ByteBuffer.allocate(StoreBytes.size(r));
    StoreBytes.put(b, r);
    return b.array();
  }

  /** The prefix of every key of one release and hour; also the first key of that hour. */
  public static byte[] releaseHour(String release, long hourMs) {
    byte[] r = StoreBytes.utf8(release);
    ByteBuffer b = ByteBuffer.allocate(StoreBytes.size(r) + 8);
    StoreBytes.put(b, r);
    return b.putLong(hourMs).array();
  }

  public static Cell parseCell(byte[] key) {
    ByteBuffer b = ByteBuffer.wrap(key);
    return new Cell(
        StoreBytes.string(b), StoreBytes.getLong(b), StoreBytes.string(b), StoreBytes.string(b));
  }

  /** The release of a cell or cell-event key. */
  public static String releaseOf(byte[] key) {
    return StoreBytes.string(ByteBuffer.wrap(key));
  }

  /** The hour of a cell or cell-event key. */
  public static long hourOf(byte[] key) {
    ByteBuffer b = ByteBuffer.wrap(key);
    StoreBytes.string(b);
    return StoreBytes.getLong(b);
  }

  public static byte[] cellEvent(byte[] cellKey, long crashMs, String eventId) {
    byte[] id = StoreBytes.utf8(eventId);
    return ByteBuffer.allocate(cellKey.length + 8 + id.length)
        .put(cellKey)
        .putLong(crashMs)
        .put(id)
        .array();
  }

  /** The crash time of a cell-event key whose cell key is {@code cellKeyLength} bytes long. */
  public static long crashOf(byte[] cellEventKey, int cellKeyLength) {
    return ByteBuffer.wrap(cellEventKey, cellKeyLength, 8).getLong();
  }

  /** The event id of a cell-event key whose cell key is {@code cellKeyLength} bytes long. */
  public static String eventOf(byte[] cellEventKey, int cellKeyLength) {
    return new String(
        Arrays.copyOfRange(cellEventKey, cellKeyLength + 8, cellEventKey.length),
        StandardCharsets.UTF_8);
  }

  public static byte[] signatureHour(
      String signature, long hourMs, String release, String platform) {
    byte[] s = StoreBytes.utf8(signature);
    byte[] r = StoreBytes.utf8(release);
    byte[] p = StoreBytes.utf8(platform);
    ByteBuffer b =
        ByteBuffer.allocate(StoreBytes.size(s) + 8 + StoreBytes.size(r) + StoreBytes.size(p));
    StoreBytes.put(b, s);
    b.putLong(hourMs);
    StoreBytes.put(b, r);
    StoreBytes.put(b, p);
    return b.array();
  }

  /** The prefix of every signature-hours key of one signature (and of the release prefix's layout). */
  public static byte[] signature(String signature) {
    return release(signature);
  }

  public static SignatureHour parseSignatureHour(byte[] key) {
    ByteBuffer b = ByteBuffer.wrap(key);
    return new SignatureHour(
        StoreBytes.string(b), StoreBytes.getLong(b), StoreBytes.string(b), StoreBytes.string(b));
  }

  /** The smallest key after every key starting with {@code prefix}. */
  public static byte[] after(byte[] prefix) {
    return StoreBytes.after(prefix);
  }
}

package io.symbolicate.analytics.count;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * What the aggregation remembers of one event: where it is counted.
 *
 * @param release the event's release, {@code ""} for none
 * @param platform the platform's wire name
 * @param signature the crash signature, {@code ""} for none (events written before v2)
 * @param crashMs the crash time (epoch ms); its hour is the counting bucket
 */
public record CrashRef(String release, String platform, String signature, long crashMs) {
  public static final long HOUR_MS = 3_600_000L;

  public CrashRef {
    if (release == null || platform == null || signature == null) {
      throw new IllegalArgumentException("release, platform and signature must not be null");
    }
  }

  public long hourMs() {
    return hourOf(crashMs);
  }

  public static long hourOf(long ms) {
    return Math.floorDiv(ms, HOUR_MS) * HOUR_MS;
  }

  byte[] encode() {
    byte[] r = StoreBytes.utf8(release);
    byte[] p = StoreBytes.utf8(platform);
    byte[] s = StoreBytes.utf8(signature);
    ByteBuffer b =
        ByteBuffer.allocate(StoreBytes.size(r) + StoreBytes.size(p) + StoreBytes.size(s) + 8);
    StoreBytes.put(b, r);
    StoreBytes.put(b, p);
    StoreBytes.put(b, s);
    return b.putLong(crashMs).array();
  }

  static CrashRef decode(ByteBuffer b) {
    return new CrashRef(
        StoreBytes.string(b), StoreBytes.string(b), StoreBytes.string(b), StoreBytes.getLong(b));
  }

  static CrashRef decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    CrashRef ref = decode(b);
    if (b.hasRemaining()) {
      throw new SerializationException(b.remaining() + " bytes after an event reference");
    }
    return ref;
  }
}

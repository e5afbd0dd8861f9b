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
    byte[] r = Bin.utf8(release);
    byte[] p = Bin.utf8(platform);
    byte[] s = Bin.utf8(signature);
    ByteBuffer b = ByteBuffer.allocate(Bin.size(r) + Bin.size(p) + Bin.size(s) + 8);
    Bin.put(b, r);
    Bin.put(b, p);
    Bin.put(b, s);
    return b.putLong(crashMs).array();
  }

  static CrashRef decode(ByteBuffer b) {
    return new CrashRef(Bin.string(b), Bin.string(b), Bin.string(b), Bin.getLong(b));
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

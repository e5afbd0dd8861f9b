package io.symbolicate.analytics.count;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * One event entering (+1) or leaving (-1) a count, sent from the event table (partitioned by
 * event id) to the counts (partitioned by release).
 */
public record Delta(boolean add, String eventId, CrashRef ref) {

  public static Serde<Delta> serde() {
    Serializer<Delta> ser =
        (topic, d) -> {
          if (d == null) {
            return null;
          }
          byte[] id = StoreBytes.utf8(d.eventId);
          byte[] ref = d.ref.encode();
          return ByteBuffer.allocate(1 + StoreBytes.size(id) + ref.length)
              .put((byte) (d.add ? 1 : 0))
              .putInt(id.length)
              .put(id)
              .put(ref)
              .array();
        };
    Deserializer<Delta> de =
        (topic, bytes) -> {
          if (bytes == null) {
            return null;
          }
          if (bytes.length < 1) {
            throw new SerializationException("empty delta");
          }
          ByteBuffer b = ByteBuffer.wrap(bytes);
          byte sign = b.get();
          if (sign != 0 && sign != 1) {
            throw new SerializationException("delta sign " + sign + " is neither 0 nor 1");
          }
          String id = StoreBytes.string(b);
          CrashRef ref = CrashRef.decode(b);
          if (b.hasRemaining()) {
            throw new SerializationException(b.remaining() + " bytes after a delta");
          }
          return new Delta(sign == 1, id, ref);
        };
    return Serdes.serdeFrom(ser, de);
  }
}

package io.symbolicate.schema.serde;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A record that encodes to more bytes than its topic takes. Thrown by the serializer, before the
 * producer sees the record: a record the producer or the broker refuses would doom the whole
 * exactly-once transaction, and the task would read the same input again and fail again for good.
 * A serialization error instead reaches the production exception handler, which dead-letters it
 * ({@link io.symbolicate.topology.deadletter.OversizedOutputHandler}).
 */
public final class OutputTooLargeException extends SerializationException {
  public OutputTooLargeException(int size, int limit) {
    super(
        "the symbolicated event is "
            + size
            + " bytes encoded, more than the output's limit of "
            + limit
            + " bytes (dlq.max.message.bytes less room for the batch; the output topic's max.message.bytes must be as large)");
  }

  /** {@code serde} whose serializer refuses values that encode to more than {@code maxBytes}. */
  public static <T> Serde<T> capped(Serde<T> serde, int maxBytes) {
    Serializer<T> inner = serde.serializer();
    Serializer<T> capped =
        (topic, value) -> {
          byte[] bytes = inner.serialize(topic, value);
          if (bytes != null && bytes.length > maxBytes) {
            throw new OutputTooLargeException(bytes.length, maxBytes);
          }
          return bytes;
        };
    return Serdes.serdeFrom(capped, serde.deserializer());
  }
}

package io.symbolicate.topology;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Builds dead letters that keep the original bytes and where they came from. */
public final class DeadLetters {
  /** Messages can quote input; keep them readable and bounded. */
  private static final int MAX_MESSAGE = 2000;

  private DeadLetters() {}

  /** A dead letter of the record at {@code meta} (null: not known, e.g. a punctuation). */
  public static DeadLetter of(byte[] key, byte[] value, RecordMetadata meta, ErrorKind kind, String message,
      String eventId, long nowMillis) {
    return meta == null
        ? of(key, value, null, -1, -1, kind, message, eventId, nowMillis)
        : of(key, value, meta.topic(), meta.partition(), meta.offset(), kind, message, eventId, nowMillis);
  }

  /** A dead letter of the record at {@code topic}/{@code partition}/{@code offset}. */
  public static DeadLetter of(byte[] key, byte[] value, String topic, int partition, long offset, ErrorKind kind,
      String message, String eventId, long nowMillis) {
    String msg = message == null ? kind.name() : message;
    if (msg.length() > MAX_MESSAGE) {
      msg = msg.substring(0, MAX_MESSAGE) + "...";
    }
    return DeadLetter.newBuilder()
        .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
        .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
        .setOriginalSize(value == null ? 0 : value.length)
        .setSourceTopic(topic)
        .setSourcePartition(partition)
        .setSourceOffset(offset)
        .setErrorKind(kind)
        .setMessage(msg)
        .setEventId(eventId)
        .setFailedAt(Instant.ofEpochMilli(nowMillis))
        .build();
  }
}

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
  /**
   * An invalid event's id can be anything, 900 KB included; the original bytes keep it whole.
   * As long as a valid one may be.
   */
  static final int MAX_EVENT_ID = io.symbolicate.topology.decode.EventValidator.MAX_EVENT_ID;

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
    String msg = abbreviate(message == null ? kind.name() : message, MAX_MESSAGE);
    return DeadLetter.newBuilder()
        .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
        .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
        .setOriginalSize(value == null ? 0 : value.length)
        .setSourceTopic(topic)
        .setSourcePartition(partition)
        .setSourceOffset(offset)
        .setErrorKind(kind)
        .setMessage(msg)
        .setEventId(eventId == null ? null : abbreviate(eventId, MAX_EVENT_ID))
        .setFailedAt(Instant.ofEpochMilli(nowMillis))
        .build();
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "...";
  }
}

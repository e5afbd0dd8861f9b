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

  /** A dead letter's message, cut to {@link #MAX_MESSAGE} characters. */
  public static String message(String message) {
    return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
  }

  static DeadLetter of(byte[] key, byte[] value, RecordMetadata meta, ErrorKind kind, String message,
      String eventId, long nowMillis) {
    String msg = message(message == null ? kind.name() : message);
    return DeadLetter.newBuilder()
        .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
        .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
        .setOriginalSize(value == null ? 0 : value.length)
        .setSourceTopic(meta == null ? null : meta.topic())
        .setSourcePartition(meta == null ? -1 : meta.partition())
        .setSourceOffset(meta == null ? -1 : meta.offset())
        .setErrorKind(kind)
        .setMessage(msg)
        .setEventId(eventId)
        .setFailedAt(Instant.ofEpochMilli(nowMillis))
        .build();
  }
}

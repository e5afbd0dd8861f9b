package io.symbolicate.topology.deadletter;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.topology.decode.EventValidator;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Builds dead letters that keep the original bytes and where they came from. */
public final class DeadLetters {
  /** Messages can quote input; keep them readable and bounded. */
  private static final int MAX_MESSAGE = 2000;

  /**
   * An invalid event's id can be anything, 900 KB included; the original bytes keep it whole.
   * As long as a valid one may be.
   */
  static final int MAX_EVENT_ID = EventValidator.MAX_EVENT_ID;

  private DeadLetters() {}

  /** A dead letter of the record at {@code meta} (null: not known, e.g. a punctuation). */
  public static DeadLetter of(
      byte[] key,
      byte[] value,
      RecordMetadata meta,
      ErrorKind kind,
      String message,
      String eventId,
      long nowMillis) {
    return meta == null
        ? of(key, value, null, -1, -1, kind, message, eventId, nowMillis)
        : of(
            key,
            value,
            meta.topic(),
            meta.partition(),
            meta.offset(),
            kind,
            message,
            eventId,
            nowMillis);
  }

  /** A dead letter of the record at {@code topic}/{@code partition}/{@code offset}. */
  public static DeadLetter of(
      byte[] key,
      byte[] value,
      String topic,
      int partition,
      long offset,
      ErrorKind kind,
      String message,
      String eventId,
      long nowMillis) {
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

  /**
   * {@code d}, encoded, in at most {@code maxBytes}: the original value (then the key) cut as
   * far as needed, the message saying so; {@code original_size} keeps the whole size. A dead
   * letter the producer refuses fails its transaction, and the task reads the same record again
   * for good: an input topic may take a compressed batch whose record is larger than the
   * dead-letter topic takes (the broker checks the compressed size).
   */
  public static byte[] encodeFitting(DeadLetter d, int maxBytes, AvroSerde<DeadLetter> serde) {
    byte[] bytes = serde.encode(d);
    if (bytes.length <= maxBytes) {
      return bytes;
    }
    int value = d.getOriginalValue() == null ? 0 : d.getOriginalValue().remaining();
    int key = d.getOriginalKey() == null ? 0 : d.getOriginalKey().remaining();
    // room for the fields besides key and value, and for the note (varint lengths shrink only)
    int room = Math.max(0, maxBytes - (bytes.length - value - key) - 256);
    int keptKey = Math.min(key, room / 2);
    int keptValue = Math.min(value, room - keptKey);
    DeadLetter cut =
        DeadLetter.newBuilder(d)
            .setOriginalKey(d.getOriginalKey() == null ? null : slice(d.getOriginalKey(), keptKey))
            .setOriginalValue(
                d.getOriginalValue() == null ? null : slice(d.getOriginalValue(), keptValue))
            .setMessage(
                abbreviate(d.getMessage(), MAX_MESSAGE)
                    + " (original value cut to "
                    + keptValue
                    + " of "
                    + value
                    + " bytes"
                    + (keptKey < key ? ", key to " + keptKey + " of " + key : "")
                    + ", to fit the dead-letter topic)")
            .build();
    return serde.encode(cut);
  }

  private static ByteBuffer slice(ByteBuffer b, int n) {
    ByteBuffer d = b.duplicate();
    d.limit(d.position() + n);
    return d.slice();
  }

  /** The dead-letter serde whose records always fit {@code maxBytes} ({@link #encodeFitting}). */
  public static Serde<DeadLetter> fittingSerde(int maxBytes) {
    var serde = WireSerdes.deadLetter();
    return Serdes.serdeFrom(
        (topic, d) -> d == null ? null : encodeFitting(d, maxBytes, serde), serde.deserializer());
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "...";
  }
}

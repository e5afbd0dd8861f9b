package io.symbolicate.topology.serde;

import io.symbolicate.schema.AvroSetup;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Avro single-object encoding ({@code C3 01} + schema fingerprint + binary body): no schema
 * registry needed, and readers resolve older writer schemas by fingerprint.
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {
  private final BinaryMessageDecoder<T> decoder;
  // encoding: the single-object header, then the body through the record's writer into a
  // per-thread reusable array (the serializer is shared by all stream threads)
  private final byte[] header;
  private final DatumWriter<T> writer;
  private final ThreadLocal<ArrayBinaryEncoder> encoders = ThreadLocal.withInitial(ArrayBinaryEncoder::new);

  public AvroSerde(Class<T> type) {
    AvroSetup.ensure();
    SpecificData model = SpecificData.getForClass(type);
    // the generated per-record encoders/decoders skip Avro's reflective datum walk (hot path)
    model.setCustomCoders(true);
    org.apache.avro.Schema schema = model.getSchema(type);
    this.header = singleObjectHeader(schema);
    @SuppressWarnings("unchecked")
    DatumWriter<T> w = (DatumWriter<T>) model.createDatumWriter(schema);
    this.writer = w;
    this.decoder = new BinaryMessageDecoder<>(model, schema);
  }

  /** Lets this serde read records written with an older schema version. */
  public AvroSerde<T> withHistoricalSchema(org.apache.avro.Schema writerSchema) {
    decoder.addSchema(writerSchema);
    return this;
  }

  public byte[] encode(T value) {
    ArrayBinaryEncoder out = encoders.get();
    out.reset();
    try {
      out.writeFixed(header, 0, header.length);
      writer.write(value, out);
      return out.toByteArray();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException("cannot encode " + value.getClass().getSimpleName() + ": " + e, e);
    }
  }

  /** {@code C3 01} and the schema's CRC-64-AVRO parsing fingerprint, little-endian (as Avro writes it). */
  static byte[] singleObjectHeader(org.apache.avro.Schema schema) {
    long fp = SchemaNormalization.parsingFingerprint64(schema);
    return ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN)
        .put((byte) 0xC3).put((byte) 0x01).putLong(fp).array();
  }

  /** Decodes or throws {@link IOException} / {@link RuntimeException} with Avro's reason. */
  public T decode(byte[] bytes) throws IOException {
    return decoder.decode(bytes);
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, value) -> value == null ? null : encode(value);
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      try {
        return decode(bytes);
      } catch (IOException | RuntimeException e) {
        throw new SerializationException("cannot decode record from " + topic + ": " + e, e);
      }
    };
  }
}

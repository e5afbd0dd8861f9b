package io.symbolicate.topology.serde;

import io.symbolicate.schema.AvroSetup;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
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
  private final BinaryMessageEncoder<T> encoder;
  private final BinaryMessageDecoder<T> decoder;

  public AvroSerde(Class<T> type) {
    AvroSetup.ensure();
    SpecificData model = SpecificData.getForClass(type);
    org.apache.avro.Schema schema = model.getSchema(type);
    this.encoder = new BinaryMessageEncoder<>(model, schema);
    this.decoder = new BinaryMessageDecoder<>(model, schema);
  }

  /** Lets this serde read records written with an older schema version. */
  public AvroSerde<T> withHistoricalSchema(org.apache.avro.Schema writerSchema) {
    decoder.addSchema(writerSchema);
    return this;
  }

  public byte[] encode(T value) {
    try {
      ByteBuffer buf = encoder.encode(value);
      byte[] out = new byte[buf.remaining()];
      buf.get(out);
      return out;
    } catch (IOException e) {
      throw new SerializationException("cannot encode " + value.getClass().getSimpleName(), e);
    }
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

package io.symbolicate.schema.serde;

import io.symbolicate.schema.AvroSetup;
import io.symbolicate.schema.SchemaHistory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
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
  private final SpecificData model;
  private final Schema schema;
  private final long fingerprint;
  private final DatumReader<T> reader;
  // readers of older writer schemas, by fingerprint (withHistoricalSchema)
  private final Map<Long, DatumReader<T>> historical = new ConcurrentHashMap<>();
  // decoding reads the body straight from the array. (Avro's message decoder reads it through a
  // ByteArrayInputStream, one synchronized call per varint byte: a third of the decode time.)
  private final ThreadLocal<BinaryDecoder> decoders = new ThreadLocal<>();
  // encoding: the single-object header, then the body through the record's writer into a
  // per-thread reusable array (the serializer is shared by all stream threads)
  private final byte[] header;
  private final DatumWriter<T> writer;
  private final ThreadLocal<ArrayBinaryEncoder> encoders =
      ThreadLocal.withInitial(ArrayBinaryEncoder::new);

  public AvroSerde(Class<T> type) {
    AvroSetup.ensure();
    this.model = SpecificData.getForClass(type);
    // the generated per-record encoders/decoders skip Avro's reflective datum walk (hot path)
    model.setCustomCoders(true);
    this.schema = model.getSchema(type);
    this.fingerprint = SchemaNormalization.parsingFingerprint64(schema);
    this.header = singleObjectHeader(fingerprint);
    @SuppressWarnings("unchecked")
    DatumWriter<T> w = (DatumWriter<T>) model.createDatumWriter(schema);
    this.writer = w;
    this.reader = new SpecificDatumReader<>(schema, schema, model);
    // records written with any released version stay readable (docs/schemas.md)
    for (Schema released : SchemaHistory.releasedSchemasOf(schema.getFullName())) {
      withHistoricalSchema(released);
    }
  }

  /** Whether this serde reads records written with the schema of this parsing fingerprint. */
  public boolean readsFingerprint(long fingerprint) {
    return fingerprint == this.fingerprint || historical.containsKey(fingerprint);
  }

  /** Lets this serde read records written with an older schema version. */
  public AvroSerde<T> withHistoricalSchema(Schema writerSchema) {
    long fp = SchemaNormalization.parsingFingerprint64(writerSchema);
    if (fp != fingerprint) {
      historical.put(fp, new SpecificDatumReader<>(writerSchema, schema, model));
    }
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
      throw new SerializationException(
          "cannot encode " + value.getClass().getSimpleName() + ": " + e, e);
    }
  }

  /** {@code C3 01} and the schema's CRC-64-AVRO parsing fingerprint, little-endian (as Avro writes it). */
  static byte[] singleObjectHeader(Schema schema) {
    return singleObjectHeader(SchemaNormalization.parsingFingerprint64(schema));
  }

  private static byte[] singleObjectHeader(long fingerprint) {
    return ByteBuffer.allocate(HEADER_BYTES)
        .order(ByteOrder.LITTLE_ENDIAN)
        .put((byte) 0xC3)
        .put((byte) 0x01)
        .putLong(fingerprint)
        .array();
  }

  /**
   * Decodes or throws {@link IOException} / {@link RuntimeException} with Avro's reason: {@link
   * BadHeaderException} without the single-object header, {@link MissingSchemaException} for a
   * writer schema this serde does not know, {@link java.io.EOFException} when truncated.
   */
  public T decode(byte[] bytes) throws IOException {
    if (bytes.length < HEADER_BYTES) {
      throw new BadHeaderException("Not enough header bytes");
    }
    if (bytes[0] != (byte) 0xC3 || bytes[1] != (byte) 0x01) {
      throw new BadHeaderException(
          String.format("Unrecognized header bytes: 0x%02X 0x%02X", bytes[0], bytes[1]));
    }
    long fp = ByteBuffer.wrap(bytes, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    DatumReader<T> r = fp == fingerprint ? reader : historical.get(fp);
    if (r == null) {
      throw new MissingSchemaException("Cannot resolve schema for fingerprint: " + fp);
    }
    BinaryDecoder in =
        DecoderFactory.get()
            .binaryDecoder(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES, decoders.get());
    decoders.set(in);
    T value = r.read(null, in);
    if (!in.isEnd()) {
      // a second record or junk after this one would otherwise be dropped without a word
      throw new IOException("trailing bytes after the record");
    }
    return value;
  }

  /** {@code C3 01} and an 8-byte fingerprint. */
  private static final int HEADER_BYTES = 10;

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

package io.symbolicate.schema.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * Writes our Avro records as the JSON events are written in on the input side (docs/schemas.md,
 * "JSON input"): one object with the Avro field names, every field present in schema order
 * ({@code null} when unset), unions unwrapped to their value, enums as their symbol, 64-bit
 * values as JSON numbers (signed: an unsigned address above 2^63 prints negative, which the
 * input reads back as its two's complement), timestamps as ISO-8601 instants and bytes as
 * base64. A {@code CrashEvent} written this way reads back equal with the JSON input's reader.
 */
public final class RecordJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private RecordJson() {}

  /** The record as JSON; indented with two spaces when {@code pretty}. */
  public static String write(IndexedRecord record, boolean pretty) {
    StringWriter out = new StringWriter(4096);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      if (pretty) {
        g.useDefaultPrettyPrinter();
      }
      value(g, record.getSchema(), record);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string failed", e);
    }
    return out.toString();
  }

  /** The branch of a non-null value: the other one of our nullable unions, else Avro's choice. */
  private static Schema branch(Schema union, Object v) {
    var types = union.getTypes();
    if (types.size() == 2 && types.get(0).getType() == Schema.Type.NULL) {
      return types.get(1);
    }
    if (types.size() == 2 && types.get(1).getType() == Schema.Type.NULL) {
      return types.get(0);
    }
    return types.get(GenericData.get().resolveUnion(union, v));
  }

  private static void value(JsonGenerator g, Schema s, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
      return;
    }
    switch (s.getType()) {
      case UNION -> value(g, branch(s, v), v);
      case RECORD -> {
        IndexedRecord r = (IndexedRecord) v;
        g.writeStartObject();
        for (Schema.Field f : s.getFields()) {
          g.writeFieldName(f.name());
          value(g, f.schema(), r.get(f.pos()));
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (Object item : (Collection<?>) v) {
          value(g, s.getElementType(), item);
        }
        g.writeEndArray();
      }
      case MAP -> {
        g.writeStartObject();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          g.writeFieldName(e.getKey().toString());
          value(g, s.getValueType(), e.getValue());
        }
        g.writeEndObject();
      }
      case STRING -> g.writeString(v.toString());
      // by ordinal: a generated constant may carry a '$' the symbol has not (Platform.native$)
      case ENUM ->
          g.writeString(
              v instanceof Enum<?> e ? s.getEnumSymbols().get(e.ordinal()) : v.toString());
      case INT -> g.writeNumber(((Number) v).intValue());
      case LONG -> {
        if (v instanceof Instant i) {
          g.writeString(i.toString());
        } else {
          g.writeNumber(((Number) v).longValue());
        }
      }
      case FLOAT -> g.writeNumber(((Number) v).floatValue());
      case DOUBLE -> g.writeNumber(((Number) v).doubleValue());
      case BOOLEAN -> g.writeBoolean((Boolean) v);
      case BYTES -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        g.writeString(Base64.getEncoder().encodeToString(a));
      }
      case FIXED ->
          g.writeString(Base64.getEncoder().encodeToString(((GenericData.Fixed) v).bytes()));
      case NULL -> g.writeNull();
      default ->
          throw new IllegalArgumentException(
              "no JSON form for "
                  + s.getType()
                  + (v instanceof GenericContainer c ? " in " + c.getSchema().getFullName() : ""));
    }
  }
}

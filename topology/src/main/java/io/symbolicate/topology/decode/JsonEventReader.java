package io.symbolicate.topology.decode;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.symbolicate.schema.AvroSetup;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;

/**
 * Reads crash events written as plain JSON with the Avro field names (what most crash collectors
 * emit), driven by the Avro schema: nullable fields may be absent or null, defaults apply, and
 * 64-bit addresses may be JSON numbers (a negative one is its two's complement) or unsigned
 * {@code "0x..."} strings. Unknown keys are ignored so collectors can add their own; a key given
 * twice is refused. docs/schemas.md, "JSON input".
 */
public final class JsonEventReader {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(64).build())
                  .build())
          // "event_id" twice: which one the collector meant is unknowable, so refuse it (checked
          // while the tree is built, free without duplicates; the parser's own duplicate
          // detection costs a set per object)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          // a second record or junk after the object is an error, not silently dropped
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final Pattern HEX_DIGITS = Pattern.compile("[0-9a-fA-F]+");
  private static final Pattern DECIMAL_DIGITS = Pattern.compile("[0-9]+");

  public JsonEventReader() {
    AvroSetup.ensure();
  }

  public CrashEvent read(byte[] json) throws InvalidEventException {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidEventException(
          ErrorKind.invalid_json, "invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InvalidEventException(ErrorKind.invalid_json, "invalid JSON: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new InvalidEventException(
          ErrorKind.invalid_json, "a crash event must be a JSON object");
    }
    String eventId = root.path("event_id").isTextual() ? root.path("event_id").asText() : null;
    try {
      Schema schema = CrashEvent.getClassSchema();
      Object generic = convert(root, schema, "$");
      return (CrashEvent) SpecificData.getForClass(CrashEvent.class).deepCopy(schema, generic);
    } catch (InvalidEventException e) {
      throw e.withEventId(eventId);
    }
  }

  private Object convert(JsonNode node, Schema schema, String path) throws InvalidEventException {
    switch (schema.getType()) {
      case RECORD:
        return record(node, schema, path);
      case UNION:
        if (node == null || node.isNull()) {
          if (schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL)) {
            return null;
          }
          throw invalid(path, "must not be null");
        }
        for (Schema branch : schema.getTypes()) {
          if (branch.getType() != Schema.Type.NULL) {
            return convert(node, branch, path);
          }
        }
        throw invalid(path, "has no non-null type");
      case STRING:
        if (!node.isTextual()) {
          throw invalid(path, "expected a string, got " + describe(node));
        }
        return node.textValue();
      case BYTES:
        // Avro's JSON encoding of bytes (one character per byte) is unusable in practice: base64
        if (!node.isTextual()) {
          throw invalid(path, "expected base64 text, got " + describe(node));
        }
        try {
          return ByteBuffer.wrap(Base64.getDecoder().decode(node.textValue()));
        } catch (IllegalArgumentException e) {
          throw invalid(path, "is not base64: " + e.getMessage());
        }
      case BOOLEAN:
        if (!node.isBoolean()) {
          throw invalid(path, "expected true or false, got " + describe(node));
        }
        return node.booleanValue();
      case INT:
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
          throw invalid(path, "expected a 32-bit integer, got " + describe(node));
        }
        return node.intValue();
      case LONG:
        {
          long v = longValue(node, schema, path);
          // generated classes hold timestamp-millis as Instant
          return schema.getLogicalType() instanceof LogicalTypes.TimestampMillis
              ? Instant.ofEpochMilli(v)
              : v;
        }
      case ENUM:
        if (!node.isTextual() || !schema.hasEnumSymbol(node.textValue())) {
          ErrorKind kind =
              "Platform".equals(schema.getName())
                  ? ErrorKind.unknown_platform
                  : ErrorKind.invalid_event;
          throw new InvalidEventException(
              kind,
              path
                  + ": unknown value "
                  + describe(node)
                  + " (expected one of "
                  + schema.getEnumSymbols().stream()
                      .filter(sym -> !sym.equals(schema.getEnumDefault()))
                      .toList()
                  + ")");
        }
        return new GenericData.EnumSymbol(schema, node.textValue());
      case ARRAY:
        {
          if (!node.isArray()) {
            throw invalid(path, "expected an array, got " + describe(node));
          }
          List<Object> out = new ArrayList<>(node.size());
          for (int i = 0; i < node.size(); i++) {
            out.add(convert(node.get(i), schema.getElementType(), path + "[" + i + "]"));
          }
          return out;
        }
      case MAP:
        {
          if (!node.isObject()) {
            throw invalid(path, "expected an object, got " + describe(node));
          }
          Map<String, Object> out = new HashMap<>();
          for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(
                e.getKey(), convert(e.getValue(), schema.getValueType(), path + "." + e.getKey()));
          }
          return out;
        }
      default:
        throw invalid(path, "unsupported schema type " + schema.getType());
    }
  }

  private GenericData.Record record(JsonNode node, Schema schema, String path)
      throws InvalidEventException {
    if (!node.isObject()) {
      throw invalid(path, "expected an object, got " + describe(node));
    }
    GenericData.Record rec = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      JsonNode v = node.get(f.name());
      String fieldPath = path + "." + f.name();
      if (v == null || (v.isNull() && !isNullable(f.schema()))) {
        if (!f.hasDefaultValue()) {
          throw invalid(fieldPath, "is required");
        }
        rec.put(f.pos(), GenericData.get().getDefaultValue(f));
      } else {
        rec.put(f.pos(), convert(v, f.schema(), fieldPath));
      }
    }
    return rec;
  }

  private static long longValue(JsonNode node, Schema schema, String path)
      throws InvalidEventException {
    boolean instant = schema.getLogicalType() instanceof LogicalTypes.TimestampMillis;
    if (node.isIntegralNumber()) {
      if (node.canConvertToLong()) {
        return node.longValue();
      }
      if (instant) {
        throw invalid(path, "epoch milliseconds out of the 64-bit signed range");
      }
      // unsigned 64-bit addresses above Long.MAX_VALUE
      BigInteger bi = node.bigIntegerValue();
      if (bi.signum() >= 0 && bi.bitLength() <= 64) {
        return bi.longValue();
      }
      throw invalid(path, "integer out of 64-bit range");
    }
    if (node.isTextual()) {
      String s = node.textValue().trim();
      if (instant) {
        try {
          return Instant.parse(s).toEpochMilli();
        } catch (DateTimeParseException e) {
          throw invalid(
              path,
              "expected epoch milliseconds or an ISO-8601 instant, got \"" + abbreviate(s) + "\"");
        } catch (ArithmeticException e) {
          throw invalid(
              path, "instant out of the epoch-milliseconds range: \"" + abbreviate(s) + "\"");
        }
      }
      try {
        boolean hex = s.startsWith("0x") || s.startsWith("0X");
        String digits = hex ? s.substring(2) : s;
        // parseUnsignedLong also takes a leading '+' and non-ASCII digits ("0x+10", "0x١٠")
        if (!(hex ? HEX_DIGITS : DECIMAL_DIGITS).matcher(digits).matches()) {
          throw new NumberFormatException(s);
        }
        return Long.parseUnsignedLong(digits, hex ? 16 : 10);
      } catch (NumberFormatException e) {
        throw invalid(
            path, "expected an integer or a 0x-prefixed hex string, got \"" + abbreviate(s) + "\"");
      }
    }
    throw invalid(path, "expected an integer, got " + describe(node));
  }

  private static boolean isNullable(Schema s) {
    return s.getType() == Schema.Type.NULL
        || (s.getType() == Schema.Type.UNION
            && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL));
  }

  private static InvalidEventException invalid(String path, String what) {
    return new InvalidEventException(ErrorKind.invalid_event, path + ": " + what);
  }

  private static String describe(JsonNode node) {
    if (node == null) {
      return "nothing";
    }
    if (node.isTextual()) {
      return "\"" + abbreviate(node.textValue()) + "\"";
    }
    return node.getNodeType().name().toLowerCase()
        + (node.isValueNode() ? " " + abbreviate(node.toString()) : "");
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}

package io.symbolicate.topology.decode;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.topology.config.InputFormat;
import java.io.EOFException;
import java.io.IOException;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.MissingSchemaException;

/** Turns raw input bytes into a {@link CrashEvent}, or says precisely why it cannot. */
public final class RawEventDecoder {
  private final InputFormat format;
  private final int maxBytes;
  private final AvroSerde<CrashEvent> avro = WireSerdes.crashEvent();
  private final JsonEventReader json = new JsonEventReader();

  public RawEventDecoder(InputFormat format, int maxBytes) {
    this.format = format;
    this.maxBytes = maxBytes;
  }

  public CrashEvent decode(byte[] bytes) throws InvalidEventException {
    if (bytes == null || bytes.length == 0) {
      throw new InvalidEventException(ErrorKind.undecodable, "empty record value");
    }
    if (bytes.length > maxBytes) {
      throw new InvalidEventException(
          ErrorKind.too_large,
          "event of " + bytes.length + " bytes exceeds max.event.bytes=" + maxBytes);
    }
    boolean looksAvro = bytes.length >= 2 && (bytes[0] & 0xff) == 0xC3 && bytes[1] == 0x01;
    return switch (format) {
      case AVRO -> decodeAvro(bytes);
      case JSON -> json.read(bytes);
      case AUTO -> looksAvro ? decodeAvro(bytes) : decodeJsonOrExplain(bytes);
    };
  }

  private CrashEvent decodeJsonOrExplain(byte[] bytes) throws InvalidEventException {
    int first = firstNonWhitespace(bytes);
    if (first == -1) {
      throw new InvalidEventException(ErrorKind.undecodable, "record value is only whitespace");
    }
    if (first != '{' && first != '[') {
      throw new InvalidEventException(
          ErrorKind.undecodable,
          "neither Avro single-object encoding (C3 01 header) nor JSON (first byte 0x"
              + Integer.toHexString(first)
              + ")");
    }
    return json.read(bytes);
  }

  private CrashEvent decodeAvro(byte[] bytes) throws InvalidEventException {
    try {
      return avro.decode(bytes);
    } catch (MissingSchemaException e) {
      throw new InvalidEventException(
          ErrorKind.undecodable,
          "Avro record written with an unknown schema (fingerprint not among known versions)");
    } catch (BadHeaderException e) {
      throw new InvalidEventException(
          ErrorKind.undecodable, "not Avro single-object encoding: " + e.getMessage());
    } catch (EOFException e) {
      throw new InvalidEventException(ErrorKind.undecodable, "truncated Avro record");
    } catch (IOException | RuntimeException e) {
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof EOFException) {
          throw new InvalidEventException(ErrorKind.undecodable, "truncated Avro record");
        }
      }
      // Avro reports corrupt input as AvroRuntimeException, SystemLimitException, etc.
      throw new InvalidEventException(
          ErrorKind.undecodable,
          "corrupt Avro record: "
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }
  }

  private static int firstNonWhitespace(byte[] b) {
    int i = 0;
    // skip a UTF-8 byte order mark
    if (b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
      i = 3;
    }
    for (; i < b.length; i++) {
      if (b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t') {
        return b[i] & 0xff; // 0xff is a byte, not the -1 of "none"
      }
    }
    return -1;
  }
}

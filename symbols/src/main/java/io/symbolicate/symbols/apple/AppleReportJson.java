package io.symbolicate.symbols.apple;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes a parse as apple-crash-report-parser serialises its {@code AppleCrashReport}: the same
 * field names and order, absent optional fields left out (never null), addresses and registers
 * as {@code 0x} lower-case hex, sizes and ids as unsigned decimals, UUIDs lower-case hyphenated,
 * the timestamp in UTC RFC 3339. Pretty-printed with two spaces.
 */
public final class AppleReportJson {
  private static final JsonFactory JSON = new JsonFactory();

  private AppleReportJson() {}

  public static String toJson(AppleCrashReport report) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(w)) {
      write(report, g);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return w.toString();
  }

  /** UTF-8 to {@code out}, followed by a newline; {@code out} is flushed, not closed. */
  public static void write(AppleCrashReport report, OutputStream out) throws IOException {
    try (JsonGenerator g =
        JSON.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
      write(report, g);
      g.writeRaw('\n');
    }
    out.flush();
  }

  private static void write(AppleCrashReport r, JsonGenerator g) throws IOException {
    DefaultIndenter indent = new DefaultIndenter("  ", "\n");
    g.setPrettyPrinter(
        new DefaultPrettyPrinter()
            .withSeparators(
                Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(indent)
            .withArrayIndenter(indent));
    g.writeStartObject();
    g.writeStringField("incident_identifier", r.incidentIdentifier());
    if (r.timestamp() != null) {
      g.writeStringField("timestamp", CrashTimestamps.format(r.timestamp()));
    }
    optional(g, "code_type", r.codeType());
    optional(g, "path", r.path());
    optional(g, "application_specific_information", r.applicationSpecificInformation());
    optional(g, "filtered_syslog", r.filteredSyslog());
    g.writeNumberField("report_version", r.reportVersion());
    g.writeObjectFieldStart("metadata");
    for (Map.Entry<String, String> e : r.metadata().entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeArrayFieldStart("threads");
    for (AppleThread t : r.threads()) {
      g.writeStartObject();
      g.writeFieldName("id");
      g.writeNumber(Long.toUnsignedString(t.id()));
      optional(g, "name", t.name());
      optional(g, "dispatch_queue", t.dispatchQueue());
      g.writeBooleanField("crashed", t.crashed());
      g.writeArrayFieldStart("frames");
      for (AppleFrame f : t.frames()) {
        g.writeStartObject();
        optional(g, "module", f.module());
        optional(g, "symbol", f.symbol());
        optional(g, "filename", f.filename());
        if (f.lineno() != null) {
          g.writeNumberField("lineno", f.lineno());
        }
        g.writeStringField("instruction_addr", hex(f.instructionAddr()));
        g.writeEndObject();
      }
      g.writeEndArray();
      if (t.registers() != null) {
        g.writeObjectFieldStart("registers");
        for (Map.Entry<String, Long> e : t.registers().entrySet()) {
          g.writeStringField(e.getKey(), hex(e.getValue()));
        }
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("binary_images");
    for (BinaryImage i : r.binaryImages()) {
      g.writeStartObject();
      g.writeStringField("addr", hex(i.addr()));
      g.writeFieldName("size");
      g.writeNumber(Long.toUnsignedString(i.reportedSize()));
      g.writeStringField("uuid", i.uuid());
      g.writeStringField("arch", i.arch());
      optional(g, "version", i.version());
      g.writeStringField("name", i.name());
      g.writeStringField("path", i.path());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void optional(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }
}

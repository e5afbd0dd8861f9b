package io.symbolicate.symbols.apple;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads an {@code .ips} report: a one-line JSON header ({@code bug_type}, {@code incident_id},
 * ...) followed either by a JSON body (bug_type 309: {@code threads[]} whose frames name an
 * image by {@code imageIndex} and {@code imageOffset}, {@code usedImages[]}, the crashed thread's
 * {@code threadState}) or, in older files, by a text report. The JSON body becomes the same
 * model as the text report Apple renders from it: threads numbered by position, frame addresses
 * {@code base + imageOffset}, images ending at {@code base + size - 1}, and the header lines that
 * rendering shows as {@code metadata} (see docs/apple-crash.md for the mapping). The parser
 * streams the JSON and skips what it does not use, under {@link AppleLimits}.
 */
final class IpsReportParser {
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(AppleLimits.MAX_JSON_DEPTH)
                  .maxStringLength(AppleLimits.MAX_JSON_STRING_CHARS)
                  .maxNameLength(AppleLimits.MAX_JSON_STRING_CHARS)
                  .maxNumberLength(AppleLimits.MAX_JSON_NUMBER_CHARS)
                  .maxDocumentLength(AppleLimits.MAX_REPORT_BYTES)
                  .build())
          .build();

  /**
   * The {@code Report Version} Apple's text rendering of a JSON-bodied .ips states (the body has
   * no such field; its {@code version} is the JSON layout's).
   */
  static final long RENDERED_REPORT_VERSION = 104;

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private record RawFrame(
      int imageIndex, long imageOffset, String symbol, String file, Long line) {}

  private record RawThread(
      String name,
      String queue,
      boolean triggered,
      List<RawFrame> frames,
      TreeMap<String, Long> registers) {}

  private record RawImage(
      long base,
      long size,
      String uuid,
      String arch,
      String name,
      String path,
      String shortVersion,
      String bundleVersion) {}

  private final ReportBuilder out = new ReportBuilder();
  private final Map<String, String> top = new HashMap<>();
  private final Map<String, Map<String, String>> objects = new HashMap<>();
  private final List<RawThread> threads = new ArrayList<>();
  private final List<RawImage> images = new ArrayList<>();
  private int frameCount;
  private boolean sawThreadsOrImages;

  private IpsReportParser() {}

  /** {@code text} starts with '{' (after white space). */
  static AppleCrashReport parse(String text) throws AppleCrashReportException {
    Map<String, String> header = new HashMap<>();
    boolean headerIsBody;
    int end;
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new AppleCrashReportException("ips: the report does not start with a JSON object");
      }
      headerIsBody = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        p.nextToken();
        headerIsBody |= name.equals("threads") || name.equals("usedImages");
        String v = scalarText(p);
        if (v != null && header.size() < AppleLimits.MAX_METADATA_ENTRIES) {
          header.put(name, v);
        }
      }
      end = (int) p.currentLocation().getCharOffset();
    } catch (IOException e) {
      throw jsonFailure("header", e);
    }
    int b = Chars.skipSpace(text, end, text.length());
    if (b == text.length()) {
      if (!headerIsBody) {
        throw new AppleCrashReportException(
            "ips: only a header line (bug_type " + header.get("bug_type") + "), no report body");
      }
      return new IpsReportParser().body(text, header);
    }
    String rest = text.substring(b);
    if (rest.charAt(0) == '{') {
      return new IpsReportParser().body(rest, header);
    }
    return TextReportParser.parse(rest, AppleCrashReport.ReportFormat.IPS_TEXT);
  }

  private AppleCrashReport body(String json, Map<String, String> header)
      throws AppleCrashReportException {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new AppleCrashReportException("ips: the report body is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "threads" -> {
            sawThreadsOrImages = true;
            readThreads(p);
          }
          case "usedImages" -> {
            sawThreadsOrImages = true;
            readImages(p);
          }
          case "osVersion", "bundleInfo", "exception", "termination" ->
              objects.put(name, flatObject(p, name));
          default -> {
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
              p.skipChildren();
            } else if (top.size() < AppleLimits.MAX_METADATA_ENTRIES) {
              String v = scalarText(p);
              if (v != null) {
                top.put(name, v);
              }
            }
          }
        }
      }
      if (p.nextToken() != null) {
        throw new AppleCrashReportException("ips: data after the report body's closing brace");
      }
    } catch (IOException e) {
      throw jsonFailure("body", e);
    }
    if (!sawThreadsOrImages) {
      throw new AppleCrashReportException(
          "ips: the body has no threads and no usedImages: not a crash report"
              + " (bug_type "
              + header.getOrDefault("bug_type", top.get("bug_type"))
              + ")");
    }
    assemble(header);
    return out.build(AppleCrashReport.ReportFormat.IPS_JSON);
  }

  private void readThreads(JsonParser p) throws IOException, AppleCrashReportException {
    expect(p, JsonToken.START_ARRAY, "threads");
    while (p.nextToken() != JsonToken.END_ARRAY) {
      String where = "threads[" + threads.size() + "]";
      if (threads.size() >= AppleLimits.MAX_THREADS) {
        throw new AppleCrashReportException(
            "ips: more than " + AppleLimits.MAX_THREADS + " threads");
      }
      expect(p, JsonToken.START_OBJECT, where);
      String name = null;
      String queue = null;
      boolean triggered = false;
      List<RawFrame> frames = new ArrayList<>();
      TreeMap<String, Long> registers = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "name" -> name = string(p, where + ".name");
          case "queue" -> queue = string(p, where + ".queue");
          case "triggered" -> triggered = p.currentToken() == JsonToken.VALUE_TRUE;
          case "frames" -> readFrames(p, where, frames);
          case "threadState" -> registers = readThreadState(p, where + ".threadState");
          default -> p.skipChildren();
        }
      }
      threads.add(new RawThread(name, queue, triggered, frames, registers));
    }
  }

  private void readFrames(JsonParser p, String where, List<RawFrame> frames)
      throws IOException, AppleCrashReportException {
    expect(p, JsonToken.START_ARRAY, where + ".frames");
    while (p.nextToken() != JsonToken.END_ARRAY) {
      String at = where + ".frames[" + frames.size() + "]";
      if (frames.size() >= AppleLimits.MAX_FRAMES_PER_THREAD) {
        throw new AppleCrashReportException(
            "ips: " + where + " has more than " + AppleLimits.MAX_FRAMES_PER_THREAD + " frames");
      }
      if (++frameCount > AppleLimits.MAX_FRAMES) {
        throw new AppleCrashReportException(
            "ips: more than " + AppleLimits.MAX_FRAMES + " frames in all");
      }
      expect(p, JsonToken.START_OBJECT, at);
      long index = -1;
      Long offset = null;
      String symbol = null;
      String file = null;
      Long line = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "imageIndex" -> index = u64(p, at + ".imageIndex");
          case "imageOffset" -> offset = u64(p, at + ".imageOffset");
          case "symbol" -> symbol = string(p, at + ".symbol");
          case "sourceFile" -> file = string(p, at + ".sourceFile");
          case "sourceLine" -> {
            long v = u64(p, at + ".sourceLine");
            if (Long.compareUnsigned(v, 0xffff_ffffL) > 0) {
              throw new AppleCrashReportException("ips: " + at + ".sourceLine is above 2^32 - 1");
            }
            line = v;
          }
          default -> p.skipChildren();
        }
      }
      if (index < 0 || index >= AppleLimits.MAX_IMAGES || offset == null) {
        throw new AppleCrashReportException(
            "ips: "
                + at
                + " needs imageIndex (below "
                + AppleLimits.MAX_IMAGES
                + ") and imageOffset");
      }
      frames.add(new RawFrame((int) index, offset, symbol, file, line));
    }
  }

  /** {@code x: [{value}, ...]} as x0..xN, and every other {@code name: {value}} by its name. */
  private TreeMap<String, Long> readThreadState(JsonParser p, String where)
      throws IOException, AppleCrashReportException {
    expect(p, JsonToken.START_OBJECT, where);
    TreeMap<String, Long> registers = new TreeMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      if (field.equals("x") && t == JsonToken.START_ARRAY) {
        int i = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          Long v = registerValue(p, where + ".x[" + i + "]");
          if (v != null) {
            putRegister(registers, "x" + i, v);
          }
          i++;
        }
      } else if (t == JsonToken.START_OBJECT) {
        Long v = registerValue(p, where + "." + field);
        if (v != null) {
          putRegister(registers, field, v);
        }
      } else {
        p.skipChildren(); // "flavor" and the like
      }
    }
    return registers;
  }

  private static void putRegister(TreeMap<String, Long> registers, String name, long value)
      throws AppleCrashReportException {
    if (registers.size() >= AppleLimits.MAX_REGISTERS && !registers.containsKey(name)) {
      throw new AppleCrashReportException(
          "ips: more than " + AppleLimits.MAX_REGISTERS + " registers");
    }
    registers.put(name, value);
  }

  /** {@code {"value": n, ...}} at the current START_OBJECT: n, or null without a value. */
  private static Long registerValue(JsonParser p, String where)
      throws IOException, AppleCrashReportException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return null;
    }
    Long value = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      if (field.equals("value")) {
        value = u64(p, where + ".value");
      } else {
        p.skipChildren();
      }
    }
    return value;
  }

  private void readImages(JsonParser p) throws IOException, AppleCrashReportException {
    expect(p, JsonToken.START_ARRAY, "usedImages");
    while (p.nextToken() != JsonToken.END_ARRAY) {
      String at = "usedImages[" + images.size() + "]";
      if (images.size() >= AppleLimits.MAX_IMAGES) {
        throw new AppleCrashReportException(
            "ips: more than " + AppleLimits.MAX_IMAGES + " usedImages");
      }
      expect(p, JsonToken.START_OBJECT, at);
      long base = 0;
      long size = 0;
      String uuid = Uuids.NIL;
      Map<String, String> s = new HashMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "base" -> base = u64(p, at + ".base");
          case "size" -> size = u64(p, at + ".size");
          case "uuid" -> {
            String raw = string(p, at + ".uuid");
            uuid = raw == null ? Uuids.NIL : Uuids.canonical(raw);
            if (uuid == null) {
              throw new AppleCrashReportException(
                  "ips: " + at + ".uuid is not a UUID: " + Chars.excerpt(raw));
            }
          }
          case "arch", "name", "path", "CFBundleShortVersionString", "CFBundleVersion" ->
              s.put(field, string(p, at + "." + field));
          default -> p.skipChildren();
        }
      }
      images.add(
          new RawImage(
              base,
              size,
              uuid,
              s.get("arch"),
              s.get("name"),
              s.get("path"),
              s.get("CFBundleShortVersionString"),
              s.get("CFBundleVersion")));
    }
  }

  /** The report as Apple's text rendering of it shows it. */
  private void assemble(Map<String, String> header) throws AppleCrashReportException {
    String incident = first(top.get("incident"), header.get("incident_id"));
    if (incident != null) {
      out.incidentIdentifier = Uuids.canonical(incident);
      if (out.incidentIdentifier == null) {
        throw new AppleCrashReportException(
            "ips: invalid incident identifier " + Chars.excerpt(incident));
      }
    }
    String time = first(top.get("captureTime"), header.get("timestamp"));
    if (time != null) {
      Instant t = CrashTimestamps.parse(time);
      if (t == null) {
        throw new AppleCrashReportException("ips: invalid captureTime " + Chars.excerpt(time));
      }
      out.timestamp = t;
    }
    String cpu = top.get("cpuType");
    if (cpu != null) {
      out.codeType = cpu + ("true".equals(top.get("translated")) ? " (Translated)" : " (Native)");
    }
    out.path = top.get("procPath");
    out.reportVersion = RENDERED_REPORT_VERSION;
    metadata();

    for (RawImage i : images) {
      String version =
          i.shortVersion() == null && i.bundleVersion() == null
              ? null
              : i.shortVersion() == null
                  ? i.bundleVersion()
                  : i.bundleVersion() == null
                      ? i.shortVersion()
                      : i.shortVersion() + " - " + i.bundleVersion();
      out.addImage(
          new BinaryImage(
              i.base(),
              i.base() + i.size() - 1,
              i.uuid(),
              orUnknown(i.arch()),
              version,
              orUnknown(i.name()),
              orUnknown(i.path())));
    }
    for (int t = 0; t < threads.size(); t++) {
      RawThread raw = threads.get(t);
      List<AppleFrame> frames = new ArrayList<>(raw.frames().size());
      for (int f = 0; f < raw.frames().size(); f++) {
        RawFrame rf = raw.frames().get(f);
        if (rf.imageIndex() >= images.size()) {
          throw new AppleCrashReportException(
              "ips: threads["
                  + t
                  + "].frames["
                  + f
                  + "].imageIndex "
                  + rf.imageIndex()
                  + " is past the "
                  + images.size()
                  + " usedImages");
        }
        RawImage image = images.get(rf.imageIndex());
        frames.add(
            new AppleFrame(
                image.name(),
                rf.symbol(),
                rf.file(),
                rf.line(),
                image.base() + rf.imageOffset(),
                rf.imageIndex(),
                rf.imageOffset()));
      }
      out.threads.add(
          new AppleThread(
              t,
              raw.name(),
              raw.queue(),
              raw.triggered(),
              List.copyOf(frames),
              raw.registers() == null || raw.registers().isEmpty()
                  ? null
                  : ReportBuilder.registers(raw.registers())));
    }
  }

  /** The header lines of Apple's rendering that are not fields of their own. */
  private void metadata() throws AppleCrashReportException {
    Map<String, String> bundle = objects.getOrDefault("bundleInfo", Map.of());
    Map<String, String> os = objects.getOrDefault("osVersion", Map.of());
    Map<String, String> exception = objects.getOrDefault("exception", Map.of());
    Map<String, String> termination = objects.getOrDefault("termination", Map.of());
    put("CrashReporter Key", top.get("crashReporterKey"));
    put("Hardware Model", top.get("modelCode"));
    put("Process", withBracket(top.get("procName"), top.get("pid")));
    put("Identifier", bundle.get("CFBundleIdentifier"));
    put(
        "Version",
        withParen(bundle.get("CFBundleShortVersionString"), bundle.get("CFBundleVersion")));
    put("Role", top.get("procRole"));
    put("Parent Process", withBracket(top.get("parentProc"), top.get("parentPid")));
    put("Coalition", withBracket(top.get("coalitionName"), top.get("coalitionID")));
    put("Launch Time", top.get("procLaunch"));
    put("OS Version", withParen(os.get("train"), os.get("build")));
    put("Release Type", os.get("releaseType"));
    put("Baseband Version", top.get("basebandVersion"));
    put("Exception Type", withParen(exception.get("type"), exception.get("signal")));
    put("Exception Codes", exception.get("codes"));
    put("Exception Subtype", exception.get("subtype"));
    if ("1".equals(top.get("isCorpse")) || "true".equals(top.get("isCorpse"))) {
      put("Exception Note", "EXC_CORPSE_NOTIFY");
    }
    String namespace = termination.get("namespace");
    if (namespace != null) {
      put(
          "Termination Reason",
          termination.get("code") == null ? namespace : namespace + " " + termination.get("code"));
    }
    put("Triggered by Thread", top.get("faultingThread"));
  }

  private void put(String key, String value) throws AppleCrashReportException {
    if (value != null) {
      out.putMetadata(key, Chars.trim(value));
    }
  }

  private static String withBracket(String name, String number) {
    return name == null ? null : number == null ? name : name + " [" + number + "]";
  }

  private static String withParen(String name, String detail) {
    return name == null ? null : detail == null ? name : name + " (" + detail + ")";
  }

  private static String first(String a, String b) {
    return a != null ? a : b;
  }

  private static String orUnknown(String s) {
    return s == null ? "???" : s;
  }

  // JSON helpers

  private static void expect(JsonParser p, JsonToken token, String where)
      throws AppleCrashReportException {
    if (p.currentToken() != token) {
      throw new AppleCrashReportException(
          "ips: "
              + where
              + " must be "
              + (token == JsonToken.START_ARRAY ? "an array" : "an object")
              + ", not "
              + describe(p.currentToken()));
    }
  }

  private static String string(JsonParser p, String where)
      throws IOException, AppleCrashReportException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_STRING) {
      throw new AppleCrashReportException(
          "ips: " + where + " must be a string, not " + describe(t));
    }
    return p.getText();
  }

  /** A scalar as text; objects and arrays are skipped (null). */
  private static String scalarText(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
      p.skipChildren();
      return null;
    }
    return t == JsonToken.VALUE_NULL ? null : p.getText();
  }

  private static Map<String, String> flatObject(JsonParser p, String where)
      throws IOException, AppleCrashReportException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new AppleCrashReportException(
          "ips: " + where + " must be an object, not " + describe(p.currentToken()));
    }
    Map<String, String> m = new HashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      String v = scalarText(p);
      if (v != null && m.size() < AppleLimits.MAX_METADATA_ENTRIES) {
        m.put(field, v);
      }
    }
    return m;
  }

  /** A JSON integer in [0, 2^64 - 1] as an unsigned long. */
  private static long u64(JsonParser p, String where)
      throws IOException, AppleCrashReportException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw new AppleCrashReportException(
          "ips: " + where + " must be an unsigned integer, not " + describe(p.currentToken()));
    }
    if (p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
      long v = p.getLongValue();
      if (v < 0) {
        throw new AppleCrashReportException("ips: " + where + " is negative: " + v);
      }
      return v;
    }
    BigInteger v = p.getBigIntegerValue();
    if (v.signum() < 0 || v.compareTo(U64_MAX) > 0) {
      throw new AppleCrashReportException(
          "ips: " + where + " is outside [0, 2^64 - 1]: " + Chars.excerpt(v.toString()));
    }
    return v.longValue();
  }

  private static String describe(JsonToken t) {
    if (t == null) {
      return "the end of input";
    }
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.asString();
    };
  }

  private static AppleCrashReportException jsonFailure(String part, IOException e) {
    if (e instanceof JsonEOFException) {
      return new AppleCrashReportException(
          "ips: the "
              + part
              + " is truncated (JSON ends early, "
              + location((JsonProcessingException) e)
              + ")",
          e);
    }
    if (e instanceof StreamConstraintsException) {
      return new AppleCrashReportException(
          "ips: the " + part + " exceeds a limit: " + e.getMessage(), e);
    }
    if (e instanceof JsonProcessingException jpe) {
      return new AppleCrashReportException(
          "ips: the "
              + part
              + " is not valid JSON: "
              + jpe.getOriginalMessage()
              + " ("
              + location(jpe)
              + ")",
          e);
    }
    return new AppleCrashReportException("ips: cannot read the " + part + ": " + e.getMessage(), e);
  }

  private static String location(JsonProcessingException e) {
    var loc = e.getLocation();
    return loc == null
        ? "location unknown"
        : "line " + loc.getLineNr() + ", column " + loc.getColumnNr();
  }
}

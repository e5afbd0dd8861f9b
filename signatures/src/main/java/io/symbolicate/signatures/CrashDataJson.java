package io.symbolicate.signatures;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads crash data in siggen's JSON schema (plus our {@code js_exception}) with Jackson's
 * streaming parser. Unknown keys are skipped; missing keys and nulls are None. Threads keep only
 * the frames a signature can use, so a stack of a million frames costs a skip, not memory.
 * Input beyond the bounds below, malformed JSON, or a known field of the wrong JSON type is
 * refused with a {@link SignatureInputException} saying where.
 */
public final class CrashDataJson {
  /** Larger documents are refused. */
  public static final int MAX_INPUT_BYTES = 32 << 20;

  /** Deeper nesting is refused (siggen's schema needs about 8 levels). */
  public static final int MAX_NESTING_DEPTH = 64;

  /** Longer strings are refused. */
  public static final int MAX_STRING_CHARS = 4 << 20;

  /** Longer numbers are refused. */
  public static final int MAX_NUMBER_CHARS = 1000;

  /** More threads are refused. */
  public static final int MAX_THREADS = 10_000;

  /** Frames (and inlines per frame) kept per thread; later ones cannot reach a signature. */
  public static final int MAX_FRAMES_KEPT = NativeSignatureTool.MAXIMUM_FRAMES_TO_CONSIDER;

  /** Values read whole (java_exception, js_exception, ...) may hold at most this many nodes. */
  public static final int MAX_VALUE_NODES = 100_000;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_NESTING_DEPTH)
                  .maxStringLength(MAX_STRING_CHARS)
                  .maxNumberLength(MAX_NUMBER_CHARS)
                  .maxNameLength(MAX_STRING_CHARS)
                  .maxDocumentLength(MAX_INPUT_BYTES)
                  .build())
          .build();

  private CrashDataJson() {}

  /** Reads at most {@link #MAX_INPUT_BYTES} (+1 to tell a larger input) from {@code in}. */
  public static CrashData parse(InputStream in) throws IOException, SignatureInputException {
    byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
    if (bytes.length > MAX_INPUT_BYTES) {
      throw new SignatureInputException("crash data larger than " + MAX_INPUT_BYTES + " bytes");
    }
    return parse(bytes);
  }

  public static CrashData parse(String json) throws SignatureInputException {
    return parse(json.getBytes(StandardCharsets.UTF_8));
  }

  public static CrashData parse(byte[] json) throws SignatureInputException {
    if (json.length > MAX_INPUT_BYTES) {
      throw new SignatureInputException("crash data larger than " + MAX_INPUT_BYTES + " bytes");
    }
    try (JsonParser p = FACTORY.createParser(json)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new SignatureInputException("crash data is empty");
      }
      if (first != JsonToken.START_OBJECT) {
        throw new SignatureInputException("crash data must be a JSON object");
      }
      CrashData data = new Reader(p).crashData();
      if (p.nextToken() != null) {
        throw new SignatureInputException(
            "extra data after the crash data object at "
                + p.currentTokenLocation().offsetDescription());
      }
      return data;
    } catch (StreamConstraintsException e) {
      throw new SignatureInputException("crash data beyond a bound: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new SignatureInputException("crash data is not valid JSON: " + e.getMessage(), e);
    }
  }

  /** One pass over the document; {@code where} names the field in error messages. */
  private static final class Reader {
    private final JsonParser p;
    private int valueNodes;

    Reader(JsonParser p) {
      this.p = p;
    }

    CrashData crashData() throws IOException, SignatureInputException {
      CrashData.Builder b = CrashData.builder();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        switch (key) {
          case "crashing_thread" -> b.crashingThreadResolved(crashingThread(value(key)));
          case "threads" -> threads(b);
          case "java_stack_trace" -> b.javaStackTraceValue(value(key));
          case "java_exception" -> b.javaException(javaException(value(key)));
          case "js_exception" -> b.jsException(jsException(value(key)));
          case "oom_allocation_size" -> b.oomAllocationSizeValue(scalar(key));
          case "abort_message" -> b.abortMessage(string(key));
          case "hang" -> b.hangValue(scalar(key));
          case "async_shutdown_timeout" -> b.asyncShutdownTimeout(string(key));
          case "ipc_channel_error" -> b.ipcChannelError(string(key));
          case "ipc_message_name" -> b.ipcMessageName(string(key));
          case "additional_minidumps" -> additionalMinidumps(b);
          case "mdsw_status_string" -> b.mdswStatusString(string(key));
          case "reason" -> b.reason(string(key));
          case "os" -> b.os(string(key));
          case "js_large_allocation_failure" -> b.jsLargeAllocationFailure(string(key));
          case "json_dump" ->
              throw new SignatureInputException(
                  "this is a Socorro processed crash (json_dump); give crash data in siggen's schema");
          default -> p.skipChildren();
        }
      }
      return b.build();
    }

    /** siggen's get_crashing_thread: int(value), or 0 where int() raises. */
    private static BigInteger crashingThread(Object v) {
      try {
        BigInteger i = PythonBuiltins.toIntOrNull(v);
        return i == null ? BigInteger.ZERO : i;
      } catch (RuleFailure e) {
        return BigInteger.ZERO;
      }
    }

    private void threads(CrashData.Builder b) throws IOException, SignatureInputException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return;
      }
      expect(JsonToken.START_ARRAY, "threads", "an array or null");
      int count = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        String where = "threads[" + count + "]";
        if (++count > MAX_THREADS) {
          throw new SignatureInputException("threads: more than " + MAX_THREADS + " threads");
        }
        expect(JsonToken.START_OBJECT, where, "an object");
        b.addThread(thread(where));
      }
    }

    private CrashThread thread(String where) throws IOException, SignatureInputException {
      List<CrashFrame> frames = new ArrayList<>();
      String lastError = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals("frames")) {
          frames = frames(where + ".frames", true);
        } else if (key.equals("last_error_value")) {
          Object v = scalar(where + ".last_error_value");
          lastError = v instanceof String s ? s : null;
        } else {
          p.skipChildren();
        }
      }
      return new CrashThread(frames, lastError);
    }

    /** The first {@link #MAX_FRAMES_KEPT} frames; the rest are skipped unread. */
    private List<CrashFrame> frames(String where, boolean allowInlines)
        throws IOException, SignatureInputException {
      List<CrashFrame> frames = new ArrayList<>();
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return frames;
      }
      expect(JsonToken.START_ARRAY, where, "an array or null");
      int index = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (frames.size() >= MAX_FRAMES_KEPT) {
          p.skipChildren();
          continue;
        }
        String at = where + "[" + index++ + "]";
        expect(JsonToken.START_OBJECT, at, "an object");
        frames.add(frame(at, allowInlines));
      }
      return frames;
    }

    private CrashFrame frame(String where, boolean allowInlines)
        throws IOException, SignatureInputException {
      CrashFrame.Builder f = CrashFrame.builder();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        String at = where + "." + key;
        switch (key) {
          case "function" -> f.function(string(at));
          case "module" -> f.module(string(at));
          case "file" -> f.file(string(at));
          case "line" -> f.lineValue(scalar(at));
          case "module_offset" -> f.moduleOffsetValue(scalar(at));
          case "offset" -> f.offsetValue(scalar(at));
          case "inlines" -> {
            if (allowInlines) {
              for (CrashFrame inline : frames(at, false)) {
                f.addInline(inline);
              }
            } else {
              p.skipChildren();
            }
          }
          case "unloaded_modules" -> unloadedModules(f, at);
          default -> p.skipChildren();
        }
      }
      return f.build();
    }

    private void unloadedModules(CrashFrame.Builder f, String where)
        throws IOException, SignatureInputException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return;
      }
      expect(JsonToken.START_ARRAY, where, "an array or null");
      boolean first = true;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (!first) {
          p.skipChildren();
          continue;
        }
        first = false;
        expect(JsonToken.START_OBJECT, where + "[0]", "an object");
        String module = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          p.nextToken();
          if (key.equals("module")) {
            module = PythonBuiltins.str(scalar(where + "[0].module"));
          } else {
            p.skipChildren();
          }
        }
        f.addUnloadedModule(module);
      }
    }

    private void additionalMinidumps(CrashData.Builder b)
        throws IOException, SignatureInputException {
      Object v = value("additional_minidumps");
      if (v instanceof String s) {
        // the schema's comma-delimited form
        for (String name : s.split(",", -1)) {
          b.addAdditionalMinidump(name);
        }
      } else if (v instanceof List<?> list) {
        for (Object item : list) {
          if (!(item instanceof String s)) {
            throw new SignatureInputException(
                "additional_minidumps: expected strings, got " + PythonBuiltins.typeName(item));
          }
          b.addAdditionalMinidump(s);
        }
      } else if (v != null) {
        throw new SignatureInputException(
            "additional_minidumps: expected an array of strings, a string or null");
      }
    }

    /** siggen's JavaExceptionSignatureTool input checks, done once here. */
    private JavaException javaException(Object v) throws SignatureInputException {
      if (!PythonBuiltins.truthy(v)) {
        return null;
      }
      Object st = null;
      if (v instanceof Map<?, ?> m
          && m.get("exception") instanceof Map<?, ?> exc
          && exc.get("values") instanceof List<?> values
          && !values.isEmpty()
          && values.get(0) instanceof Map<?, ?> first) {
        st = first.get("stacktrace");
      }
      if (!PythonBuiltins.truthy(st)) {
        return JavaException.notInExpectedFormat();
      }
      if (!(st instanceof Map<?, ?> stack)) {
        return JavaException.ruleFails(
            "'" + PythonBuiltins.typeName(st) + "' object has no attribute 'get'");
      }
      String where = "java_exception.exception.values[0].stacktrace";
      String type =
          stack.containsKey("type") ? asString(stack.get("type"), where + ".type") : "Unknown";
      String module = asString(stack.get("module"), where + ".module");
      String value = stack.get("value") instanceof String s ? s : null;
      Object framesValue = stack.get("frames");
      List<JavaFrame> frames = new ArrayList<>();
      if (PythonBuiltins.truthy(framesValue)) {
        if (!(framesValue instanceof List<?> list)) {
          return JavaException.ruleFails(
              framesValue instanceof Map || framesValue instanceof String
                  ? "'str' object has no attribute 'get'"
                  : "'" + PythonBuiltins.typeName(framesValue) + "' object is not iterable");
        }
        for (int i = 0; i < list.size(); i++) {
          if (!(list.get(i) instanceof Map<?, ?> frame)) {
            return JavaException.ruleFails(
                "'" + PythonBuiltins.typeName(list.get(i)) + "' object has no attribute 'get'");
          }
          String at = where + ".frames[" + i + "]";
          frames.add(
              new JavaFrame(
                  asString(frame.get("module"), at + ".module"),
                  asString(frame.get("function"), at + ".function"),
                  asString(frame.get("filename"), at + ".filename")));
        }
      }
      return JavaException.of(new JavaStackTrace(type, module, value, frames));
    }

    /** Our js_exception: {type, value, frames: [{function, file|abs_path|filename, line|lineno, column|colno, in_app}]}. */
    private JsException jsException(Object v) throws SignatureInputException {
      if (v == null) {
        return null;
      }
      if (!(v instanceof Map<?, ?> m)) {
        throw new SignatureInputException("js_exception: expected an object or null");
      }
      List<JsFrame> frames = new ArrayList<>();
      Object fv = m.get("frames");
      if (fv != null && !(fv instanceof List)) {
        throw new SignatureInputException("js_exception.frames: expected an array or null");
      }
      if (fv instanceof List<?> list) {
        for (int i = 0;
            i < list.size() && frames.size() < JsSignatureTool.MAXIMUM_FRAMES_TO_CONSIDER;
            i++) {
          String at = "js_exception.frames[" + i + "]";
          if (!(list.get(i) instanceof Map<?, ?> f)) {
            throw new SignatureInputException(at + ": expected an object");
          }
          Object file =
              f.get("file") != null
                  ? f.get("file")
                  : f.get("abs_path") != null ? f.get("abs_path") : f.get("filename");
          Object inApp = f.get("in_app");
          if (inApp != null && !(inApp instanceof Boolean)) {
            throw new SignatureInputException(at + ".in_app: expected a boolean or null");
          }
          frames.add(
              new JsFrame(
                  asString(f.get("function"), at + ".function"),
                  asString(file, at + ".file"),
                  asInt(f.get("line") != null ? f.get("line") : f.get("lineno"), at + ".line"),
                  asInt(f.get("column") != null ? f.get("column") : f.get("colno"), at + ".column"),
                  (Boolean) inApp));
        }
      }
      return new JsException(
          asString(m.get("type"), "js_exception.type"),
          asString(m.get("value"), "js_exception.value"),
          frames);
    }

    private static String asString(Object v, String where) throws SignatureInputException {
      if (v == null || v instanceof String) {
        return (String) v;
      }
      throw new SignatureInputException(
          where + ": expected a string or null, got " + PythonBuiltins.typeName(v));
    }

    private static Integer asInt(Object v, String where) throws SignatureInputException {
      if (v == null) {
        return null;
      }
      if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
        return l.intValue();
      }
      throw new SignatureInputException(where + ": expected an integer or null");
    }

    private void expect(JsonToken token, String where, String what) throws SignatureInputException {
      if (p.currentToken() != token) {
        throw new SignatureInputException(
            where + ": expected " + what + ", got " + describe(p.currentToken()));
      }
    }

    private String string(String where) throws IOException, SignatureInputException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_NULL) {
        return null;
      }
      if (t != JsonToken.VALUE_STRING) {
        throw new SignatureInputException(
            where + ": expected a string or null, got " + describe(t));
      }
      return p.getText();
    }

    /** A string, number, boolean or null; containers are refused. */
    private Object scalar(String where) throws IOException, SignatureInputException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        throw new SignatureInputException(
            where + ": expected a string, number, boolean or null, got " + describe(t));
      }
      return value(where);
    }

    /** The current value read whole, within {@link #MAX_VALUE_NODES}. */
    private Object value(String where) throws IOException, SignatureInputException {
      if (++valueNodes > MAX_VALUE_NODES) {
        throw new SignatureInputException(where + ": more than " + MAX_VALUE_NODES + " values");
      }
      JsonToken t = p.currentToken();
      switch (t) {
        case VALUE_NULL:
          return null;
        case VALUE_TRUE:
          return Boolean.TRUE;
        case VALUE_FALSE:
          return Boolean.FALSE;
        case VALUE_STRING:
          return p.getText();
        case VALUE_NUMBER_INT:
          return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
              ? p.getBigIntegerValue()
              : (Object) p.getLongValue();
        case VALUE_NUMBER_FLOAT:
          return p.getDoubleValue();
        case START_ARRAY:
          {
            List<Object> list = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
              list.add(value(where));
            }
            return list;
          }
        case START_OBJECT:
          {
            Map<String, Object> map = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String key = p.currentName();
              p.nextToken();
              map.put(key, value(where));
            }
            return map;
          }
        default:
          throw new SignatureInputException(where + ": unexpected " + describe(t));
      }
    }

    private static String describe(JsonToken t) {
      if (t == null) {
        return "end of input";
      }
      return switch (t) {
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        case VALUE_STRING -> "a string";
        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
        case VALUE_TRUE, VALUE_FALSE -> "a boolean";
        case VALUE_NULL -> "null";
        default -> t.toString();
      };
    }
  }
}

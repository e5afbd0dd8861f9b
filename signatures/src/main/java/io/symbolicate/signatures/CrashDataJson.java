package io.symbolicate.signatures;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
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

  /** Threads past this many are not read (with a note). */
  public static final int MAX_THREADS = 10_000;

  /** Frames (and inlines per frame) kept per thread; later ones cannot reach a signature. */
  public static final int MAX_FRAMES_KEPT = NativeSignatureTool.MAXIMUM_FRAMES_TO_CONSIDER;

  /**
   * Values read whole (java_exception, js_exception, line, ...) hold at most this many nodes in
   * all; a field past it is not read (with a note).
   */
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

  /** {@link #MAX_VALUE_NODES} passed: unwinds to the field being read. */
  private static final class ValuesCut extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final ValuesCut INSTANCE = new ValuesCut();

    private ValuesCut() {
      super("values cut", null, false, false);
    }
  }

  /** One pass over the document; {@code where} names the field in error messages. */
  private static final class Reader {
    private final JsonParser p;
    private int valueNodes;

    /** Where {@link #MAX_VALUE_NODES} was passed, or null. */
    private String valuesCut;

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
          case "js_exception" -> jsException(b, value(key));
          case "oom_allocation_size" -> b.oomAllocationSizeValue(value(key));
          case "abort_message" -> b.abortMessage(string(b, key));
          case "hang" -> b.hangValue(value(key));
          case "async_shutdown_timeout" -> b.asyncShutdownTimeout(string(b, key));
          case "ipc_channel_error" -> b.ipcChannelError(string(b, key));
          case "ipc_message_name" -> b.ipcMessageName(string(b, key));
          case "additional_minidumps" -> additionalMinidumps(b);
          case "mdsw_status_string" -> b.mdswStatusString(string(b, key));
          case "reason" -> b.reason(string(b, key));
          case "os" -> b.os(string(b, key));
          case "js_large_allocation_failure" -> b.jsLargeAllocationFailure(string(b, key));
          case "json_dump" ->
              throw new SignatureInputException(
                  "this is a Socorro processed crash (json_dump); give crash data in siggen's schema");
          default -> p.skipChildren();
        }
      }
      if (valuesCut != null) {
        b.inputNote(
            "more than "
                + MAX_VALUE_NODES
                + " values: the values read whole from "
                + valuesCut
                + " on were not read");
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
      if (p.currentToken() != JsonToken.START_ARRAY) {
        b.inputNote(
            "threads: expected an array or null, got "
                + describe(p.currentToken())
                + "; read as no threads");
        p.skipChildren();
        return;
      }
      int count = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (count++ >= MAX_THREADS) {
          p.skipChildren();
          continue;
        }
        String where = "threads[" + (count - 1) + "]";
        if (p.currentToken() == JsonToken.START_OBJECT) {
          b.addThread(thread(where));
        } else {
          // null, a number, ...: siggen's rules that read it fail, the others still run
          b.addThread(CrashThread.notAnObject(shape()));
        }
      }
      if (count > MAX_THREADS) {
        b.inputNote("threads: " + count + " threads, only the first " + MAX_THREADS + " were read");
      }
    }

    private CrashThread thread(String where) throws IOException, SignatureInputException {
      List<CrashFrame> frames = new ArrayList<>();
      RuleFailure framesFailure = null;
      String lastError = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals("frames")) {
          if (p.currentToken() == JsonToken.START_ARRAY) {
            frames = frames(where + ".frames", true);
            framesFailure = null;
          } else {
            frames = new ArrayList<>();
            framesFailure = notAList(shape());
          }
        } else if (key.equals("last_error_value")) {
          Object v = shape();
          lastError = v instanceof String s ? s : null;
        } else {
          p.skipChildren();
        }
      }
      return framesFailure == null
          ? new CrashThread(frames, lastError)
          : CrashThread.badFrames(lastError, framesFailure);
    }

    /**
     * What siggen raises iterating {@code v} as a list of objects ({@code for f in v: f.get(...)})
     * when it is not a list, or null when it yields nothing (an empty string or object).
     */
    private static RuleFailure notAList(Object v) {
      if (v instanceof String || v instanceof Map) {
        // iterating yields strings (characters, keys)
        return PythonBuiltins.truthy(v)
            ? new RuleFailure("AttributeError", "'str' object has no attribute 'get'")
            : null;
      }
      return new RuleFailure(
          "TypeError", "'" + PythonBuiltins.typeName(v) + "' object is not iterable");
    }

    private static RuleFailure notAnObject(Object v) {
      return new RuleFailure(
          "AttributeError", "'" + PythonBuiltins.typeName(v) + "' object has no attribute 'get'");
    }

    /**
     * The first {@link #MAX_FRAMES_KEPT} frames; the rest are skipped unread. An entry that is
     * not an object fails siggen's walk when the walk reaches it.
     */
    private List<CrashFrame> frames(String where, boolean allowInlines)
        throws IOException, SignatureInputException {
      List<CrashFrame> frames = new ArrayList<>();
      int index = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (frames.size() >= MAX_FRAMES_KEPT) {
          p.skipChildren();
          continue;
        }
        String at = where + "[" + index++ + "]";
        if (p.currentToken() == JsonToken.START_OBJECT) {
          frames.add(frame(at, allowInlines));
        } else {
          frames.add(CrashFrame.failing(notAnObject(shape())));
        }
      }
      return frames;
    }

    private CrashFrame frame(String where, boolean allowInlines)
        throws IOException, SignatureInputException {
      CrashFrame.Builder f = CrashFrame.builder();
      List<CrashFrame> inlines = List.of();
      RuleFailure inlinesFailure = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        String at = where + "." + key;
        switch (key) {
          case "function" -> {
            Object v = shape();
            f.function(v instanceof String s ? s : null).badFunction(badString(v));
          }
          case "module" -> {
            Object v = shape();
            f.module(v instanceof String s ? s : null).badModule(badString(v));
          }
          case "file" -> {
            Object v = shape();
            f.file(v instanceof String s ? s : null).badFile(badString(v));
          }
          case "line" -> f.lineValue(value(at));
          case "module_offset" -> f.moduleOffsetValue(value(at));
          case "offset" -> f.offsetValue(value(at));
          case "inlines" -> {
            if (!allowInlines) {
              p.skipChildren();
            } else if (p.currentToken() == JsonToken.START_ARRAY) {
              inlines = frames(at, false);
              inlinesFailure = null;
            } else {
              // siggen: `frame.get("inlines") or []`, then iterated
              Object v = shape();
              inlines = List.of();
              inlinesFailure = PythonBuiltins.truthy(v) ? notAList(v) : null;
            }
          }
          case "unloaded_modules" -> unloadedModules(f, at);
          default -> p.skipChildren();
        }
      }
      for (CrashFrame inline : inlines) {
        f.addInline(inline);
      }
      return f.failure(inlinesFailure).build();
    }

    /** A value that is neither a string nor null, else null. */
    private static Object badString(Object v) {
      return v == null || v instanceof String ? null : v;
    }

    private void unloadedModules(CrashFrame.Builder f, String where)
        throws IOException, SignatureInputException {
      if (p.currentToken() != JsonToken.START_ARRAY) {
        f.badUnloaded(shape());
        return;
      }
      boolean first = true;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (!first) {
          p.skipChildren();
          continue;
        }
        first = false;
        if (p.currentToken() != JsonToken.START_OBJECT) {
          // unloaded_modules[0].get("module") fails on it
          f.badUnloaded(List.of(shape()));
          continue;
        }
        Object module = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          p.nextToken();
          if (key.equals("module")) {
            module = value(where + "[0].module");
          } else {
            p.skipChildren();
          }
        }
        f.addUnloadedModule(PythonBuiltins.str(module));
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
        // other items can never equal a process name: siggen's `in` skips them too
        for (Object item : list) {
          if (item instanceof String s) {
            b.addAdditionalMinidump(s);
          }
        }
      } else if (v != null) {
        b.inputNote(
            "additional_minidumps: expected an array of strings, a string or null, got "
                + PythonBuiltins.typeName(v)
                + "; not read");
      }
    }

    /**
     * siggen's JavaExceptionSignatureTool input checks, done once here; a field of the wrong type
     * makes the rule fail with where and why.
     */
    private JavaException javaException(Object v) {
      try {
        return checkedJavaException(v);
      } catch (SignatureInputException e) {
        return JavaException.ruleFails(e.getMessage());
      }
    }

    private JavaException checkedJavaException(Object v) throws SignatureInputException {
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

    /** Our js_exception; when malformed, the stack rule fails saying where and why. */
    private static void jsException(CrashData.Builder b, Object v) {
      try {
        b.jsException(checkedJsException(v));
      } catch (SignatureInputException e) {
        b.jsExceptionFailure(e.getMessage());
      }
    }

    /** Our js_exception: {type, value, frames: [{function, file|abs_path|filename, line|lineno, column|colno, in_app}]}. */
    private static JsException checkedJsException(Object v) throws SignatureInputException {
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

    /** A string or null; another type is noted and read as null (siggen's rule would fail). */
    private String string(CrashData.Builder b, String where) throws IOException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_STRING) {
        return p.getText();
      }
      if (t != JsonToken.VALUE_NULL) {
        b.inputNote(where + ": expected a string or null, got " + describe(t) + "; not read");
        p.skipChildren();
      }
      return null;
    }

    /**
     * The current value, of any JSON type, read whole within {@link #MAX_VALUE_NODES} for the
     * whole document; past that it is skipped and read as null (noted once, in {@link
     * #crashData}).
     */
    private Object value(String where) throws IOException, SignatureInputException {
      JsonToken t = p.currentToken();
      JsonStreamContext enclosing =
          t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT
              ? p.getParsingContext().getParent()
              : p.getParsingContext();
      try {
        return readValue(where);
      } catch (ValuesCut cut) {
        if (valuesCut == null) {
          valuesCut = where;
        }
        while (p.getParsingContext() != enclosing) {
          if (p.nextToken() == null) {
            throw new SignatureInputException("crash data ends inside " + where);
          }
        }
        return null;
      }
    }

    /**
     * Enough of the current value for Python's type, truthiness and first item: scalars whole, a
     * container as empty or holding the shape of its first item; the rest is skipped unread.
     */
    private Object shape() throws IOException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.START_ARRAY) {
        if (p.nextToken() == JsonToken.END_ARRAY) {
          return List.of();
        }
        Object first = shape();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          p.skipChildren();
        }
        return Collections.singletonList(first);
      }
      if (t == JsonToken.START_OBJECT) {
        if (p.nextToken() != JsonToken.FIELD_NAME) {
          return Map.of();
        }
        String key = p.currentName();
        p.nextToken();
        Object first = shape();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          p.nextToken();
          p.skipChildren();
        }
        return Collections.singletonMap(key, first);
      }
      return switch (t) {
        case VALUE_TRUE -> Boolean.TRUE;
        case VALUE_FALSE -> Boolean.FALSE;
        case VALUE_STRING -> p.getText();
        case VALUE_NUMBER_INT ->
            p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                ? p.getBigIntegerValue()
                : (Object) p.getLongValue();
        case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
        default -> null;
      };
    }

    private Object readValue(String where) throws IOException, SignatureInputException {
      if (++valueNodes > MAX_VALUE_NODES) {
        throw ValuesCut.INSTANCE;
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
              list.add(readValue(where));
            }
            return list;
          }
        case START_OBJECT:
          {
            Map<String, Object> map = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String key = p.currentName();
              p.nextToken();
              map.put(key, readValue(where));
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

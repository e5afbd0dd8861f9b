package io.symbolicate.api.sentry;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * Typed reads of Symbolicator-shaped request JSON. Every failure is an {@link ApiException} 400
 * whose reason names the field by its path ({@code stacktraces[0].frames[3].lineno}) and says
 * what was expected, so a client can fix its request without reading our code. JSON {@code null}
 * counts as absent, as serde treats it for optional fields.
 */
public final class SentryJson {
  private SentryJson() {}

  public static ApiException bad(String path, String problem) {
    return ApiException.badRequest(path + ": " + problem);
  }

  /** The request body, which must be a JSON object. */
  public static JsonNode requireObject(JsonNode node, String what) {
    if (node == null || !node.isObject()) {
      throw ApiException.badRequest(what + " must be a JSON object, got " + kind(node));
    }
    return node;
  }

  static String kind(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    return n.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  private static boolean absent(JsonNode n) {
    return n == null || n.isNull() || n.isMissingNode();
  }

  private static String at(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  /** An optional array field (absent: empty); items are checked by the caller. */
  public static List<JsonNode> array(JsonNode parent, String field, String path, int maxItems) {
    JsonNode n = parent.get(field);
    if (absent(n)) {
      return List.of();
    }
    if (!n.isArray()) {
      throw bad(at(path, field), "must be an array, got " + kind(n));
    }
    if (n.size() > maxItems) {
      throw ApiException.tooLarge(
          at(path, field) + ": has " + n.size() + " entries, at most " + maxItems + " are allowed");
    }
    List<JsonNode> out = new ArrayList<>(n.size());
    n.forEach(out::add);
    return out;
  }

  /**
   * Sentry's {@code stacktraces}: each an object with {@code frames}, read by {@code frame}
   * (the JSON node and its path); more than {@code maxFrames} frames in all is 413.
   */
  public static <F> List<List<F>> stacktraces(
      JsonNode body, int maxFrames, BiFunction<JsonNode, String, F> frame) {
    return stacktraces(body, maxFrames, frame, (trace, path, frames) -> frames);
  }

  /** Makes one stack trace of its JSON object, its path and its frames already read. */
  public interface TraceReader<F, T> {
    T read(JsonNode trace, String path, List<F> frames);
  }

  /** As above, each trace made by {@code trace} (for the fields a trace has beside its frames). */
  public static <F, T> List<T> stacktraces(
      JsonNode body,
      int maxFrames,
      BiFunction<JsonNode, String, F> frame,
      TraceReader<F, T> trace) {
    List<JsonNode> rawTraces = array(body, "stacktraces", "", maxFrames);
    List<T> traces = new ArrayList<>(rawTraces.size());
    long total = 0;
    for (int s = 0; s < rawTraces.size(); s++) {
      String path = "stacktraces[" + s + "]";
      JsonNode t = object(rawTraces.get(s), path);
      List<JsonNode> rawFrames = array(t, "frames", path, maxFrames);
      total += rawFrames.size();
      if (total > maxFrames) {
        throw ApiException.tooLarge("stacktraces: more than " + maxFrames + " frames in total");
      }
      List<F> frames = new ArrayList<>(rawFrames.size());
      for (int f = 0; f < rawFrames.size(); f++) {
        frames.add(frame.apply(rawFrames.get(f), path + ".frames[" + f + "]"));
      }
      traces.add(trace.read(t, path, frames));
    }
    return traces;
  }

  public static JsonNode object(JsonNode item, String path) {
    if (item == null || !item.isObject()) {
      throw bad(path, "must be an object, got " + kind(item));
    }
    return item;
  }

  /** An optional object field, or null. */
  public static JsonNode optObject(JsonNode parent, String field, String path) {
    JsonNode n = parent.get(field);
    if (absent(n)) {
      return null;
    }
    return object(n, at(path, field));
  }

  public static String optString(JsonNode parent, String field, String path) {
    JsonNode n = parent.get(field);
    if (absent(n)) {
      return null;
    }
    if (!n.isTextual()) {
      throw bad(at(path, field), "must be a string, got " + kind(n));
    }
    return n.textValue();
  }

  public static String string(JsonNode parent, String field, String path) {
    String s = optString(parent, field, path);
    if (s == null) {
      throw bad(at(path, field), "is required");
    }
    return s;
  }

  public static Boolean optBoolean(JsonNode parent, String field, String path) {
    JsonNode n = parent.get(field);
    if (absent(n)) {
      return null;
    }
    if (!n.isBoolean()) {
      throw bad(at(path, field), "must be true or false, got " + kind(n));
    }
    return n.booleanValue();
  }

  /** An optional non-negative integer that fits an int (Symbolicator's u32 / usize fields). */
  public static Integer optCount(JsonNode parent, String field, String path) {
    JsonNode n = parent.get(field);
    if (absent(n)) {
      return null;
    }
    String p = at(path, field);
    if (!n.isIntegralNumber()) {
      throw bad(p, "must be a non-negative integer, got " + (n.isNumber() ? n.asText() : kind(n)));
    }
    if (n.canConvertToLong() && n.longValue() < 0) {
      throw bad(p, "must be a non-negative integer, got " + n.asText());
    }
    if (!n.canConvertToInt()) {
      throw bad(p, "is too large: " + n.asText() + " (at most " + Integer.MAX_VALUE + ")");
    }
    return n.intValue();
  }

  public static int count(JsonNode parent, String field, String path) {
    Integer v = optCount(parent, field, path);
    if (v == null) {
      throw bad(at(path, field), "is required");
    }
    return v;
  }

  /** An optional array of strings (absent: empty). */
  public static List<String> strings(JsonNode parent, String field, String path, int maxItems) {
    List<JsonNode> items = array(parent, field, path, maxItems);
    List<String> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      JsonNode s = items.get(i);
      if (!s.isTextual()) {
        throw bad(at(path, field) + "[" + i + "]", "must be a string, got " + kind(s));
      }
      out.add(s.textValue());
    }
    return out;
  }
}

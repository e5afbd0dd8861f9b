package io.symbolicate.api.jvm;

import static io.symbolicate.api.sentry.SentryJson.array;
import static io.symbolicate.api.sentry.SentryJson.bad;
import static io.symbolicate.api.sentry.SentryJson.count;
import static io.symbolicate.api.sentry.SentryJson.object;
import static io.symbolicate.api.sentry.SentryJson.optBoolean;
import static io.symbolicate.api.sentry.SentryJson.optObject;
import static io.symbolicate.api.sentry.SentryJson.optString;
import static io.symbolicate.api.sentry.SentryJson.string;
import static io.symbolicate.api.sentry.SentryJson.strings;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.sentry.SentryJson;
import io.symbolicate.symbols.jvm.MappingLocator;
import java.util.ArrayList;
import java.util.List;

/** Reads and validates a {@code /symbolicate-jvm} body into a {@link JvmRequest}. */
final class JvmRequestReader {
  static final int MAX_CONTEXT_LINES = 1000;

  private final int maxFrames;
  private final int maxModules;

  JvmRequestReader(int maxFrames, int maxModules) {
    this.maxFrames = maxFrames;
    this.maxModules = maxModules;
  }

  JvmRequest read(JsonNode body) {
    SentryJson.requireObject(body, "the request body");
    List<JsonNode> rawExceptions = array(body, "exceptions", "", maxFrames);
    List<JvmRequest.ExceptionType> exceptions = new ArrayList<>(rawExceptions.size());
    for (int i = 0; i < rawExceptions.size(); i++) {
      String path = "exceptions[" + i + "]";
      JsonNode x = object(rawExceptions.get(i), path);
      exceptions.add(
          new JvmRequest.ExceptionType(string(x, "type", path), string(x, "module", path)));
    }

    List<JvmRequest.Stacktrace> traces =
        SentryJson.stacktraces(body, maxFrames, JvmRequestReader::frame).stream()
            .map(JvmRequest.Stacktrace::new)
            .toList();

    List<JsonNode> rawModules = array(body, "modules", "", maxModules);
    List<JvmRequest.Module> modules = new ArrayList<>(rawModules.size());
    List<String> bundles = new ArrayList<>();
    for (int m = 0; m < rawModules.size(); m++) {
      String path = "modules[" + m + "]";
      JsonNode mod = object(rawModules.get(m), path);
      String type = string(mod, "type", path);
      if (!"proguard".equals(type) && !"source".equals(type)) {
        throw bad(path + ".type", "must be \"proguard\" or \"source\", got \"" + clip(type) + "\"");
      }
      String raw = string(mod, "uuid", path);
      String uuid;
      try {
        uuid = MappingLocator.normaliseUuid(raw);
      } catch (IllegalArgumentException e) {
        throw bad(path + ".uuid", "not a UUID: \"" + clip(raw) + "\"");
      }
      if ("proguard".equals(type)) {
        modules.add(new JvmRequest.Module(uuid));
      } else {
        bundles.add(uuid);
      }
    }
    List<String> classes = strings(body, "classes", "", maxFrames);
    JsonNode options = optObject(body, "options", "");
    Boolean context =
        options == null ? null : optBoolean(options, "apply_source_context", "options");
    return new JvmRequest(
        exceptions,
        traces,
        modules,
        bundles,
        classes,
        optString(body, "release", ""),
        optString(body, "release_package", ""),
        context == null || context);
  }

  private static JvmRequest.Frame frame(JsonNode item, String path) {
    JsonNode f = object(item, path);
    return new JvmRequest.Frame(
        string(f, "function", path),
        optString(f, "filename", path),
        string(f, "module", path),
        optString(f, "abs_path", path),
        count(f, "lineno", path),
        strings(f, "pre_context", path, MAX_CONTEXT_LINES),
        optString(f, "context_line", path),
        strings(f, "post_context", path, MAX_CONTEXT_LINES),
        optBoolean(f, "in_app", path),
        count(f, "index", path));
  }

  static String clip(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}

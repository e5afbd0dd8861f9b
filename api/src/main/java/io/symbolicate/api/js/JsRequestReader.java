package io.symbolicate.api.js;

import static io.symbolicate.api.sentry.SentryJson.array;
import static io.symbolicate.api.sentry.SentryJson.bad;
import static io.symbolicate.api.sentry.SentryJson.count;
import static io.symbolicate.api.sentry.SentryJson.object;
import static io.symbolicate.api.sentry.SentryJson.optBoolean;
import static io.symbolicate.api.sentry.SentryJson.optCount;
import static io.symbolicate.api.sentry.SentryJson.optObject;
import static io.symbolicate.api.sentry.SentryJson.optString;
import static io.symbolicate.api.sentry.SentryJson.string;
import static io.symbolicate.api.sentry.SentryJson.strings;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.sentry.SentryJson;
import io.symbolicate.symbols.js.JsSymbolKeys;
import java.util.ArrayList;
import java.util.List;

/** Reads and validates a {@code /symbolicate-js} body into a {@link JsRequest}. */
final class JsRequestReader {
  /** Context lines a client may send per side (Sentry sends at most 5). */
  static final int MAX_CONTEXT_LINES = 1000;

  private final int maxFrames;
  private final int maxModules;

  JsRequestReader(int maxFrames, int maxModules) {
    this.maxFrames = maxFrames;
    this.maxModules = maxModules;
  }

  JsRequest read(JsonNode body) {
    SentryJson.requireObject(body, "the request body");
    List<JsRequest.Stacktrace> traces =
        SentryJson.stacktraces(body, maxFrames, JsRequestReader::frame).stream()
            .map(JsRequest.Stacktrace::new)
            .toList();

    List<JsonNode> rawModules = array(body, "modules", "", maxModules);
    List<JsRequest.Module> modules = new ArrayList<>(rawModules.size());
    for (int m = 0; m < rawModules.size(); m++) {
      modules.add(module(rawModules.get(m), "modules[" + m + "]"));
    }

    JsonNode scraping = optObject(body, "scraping", "");
    Boolean scrapingEnabled = scraping == null ? null : optBoolean(scraping, "enabled", "scraping");
    JsonNode options = optObject(body, "options", "");
    Boolean context =
        options == null ? null : optBoolean(options, "apply_source_context", "options");
    if (context == null) {
      context = optBoolean(body, "apply_source_context", "");
    }
    return new JsRequest(
        traces,
        modules,
        optString(body, "release", ""),
        optString(body, "dist", ""),
        scrapingEnabled == null || scrapingEnabled,
        context == null || context);
  }

  private static JsRequest.Module module(JsonNode item, String path) {
    JsonNode m = object(item, path);
    String type = string(m, "type", path);
    if (!"sourcemap".equals(type)) {
      throw bad(path + ".type", "must be \"sourcemap\", got \"" + type + "\"");
    }
    String codeFile = string(m, "code_file", path);
    String raw = string(m, "debug_id", path);
    String id = JsSymbolKeys.normalizeDebugId(raw);
    if (id == null) {
      throw bad(path + ".debug_id", "not a debug id (a UUID): \"" + clip(raw) + "\"");
    }
    return new JsRequest.Module(codeFile, id);
  }

  private static JsRequest.Frame frame(JsonNode item, String path) {
    JsonNode f = object(item, path);
    String absPath = string(f, "abs_path", path);
    if (absPath.startsWith("async ")) {
      absPath = absPath.substring("async ".length());
    }
    int lineno = count(f, "lineno", path);
    Integer colno = optCount(f, "colno", path);
    return new JsRequest.Frame(
        optString(f, "function", path),
        optString(f, "filename", path),
        optString(f, "module", path),
        absPath,
        lineno,
        colno,
        strings(f, "pre_context", path, MAX_CONTEXT_LINES),
        optString(f, "context_line", path),
        strings(f, "post_context", path, MAX_CONTEXT_LINES),
        optBoolean(f, "in_app", path),
        optString(f, "platform", path));
  }

  /** Keeps echoed client input short in error messages. */
  static String clip(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}

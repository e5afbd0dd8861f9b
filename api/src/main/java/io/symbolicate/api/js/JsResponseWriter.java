package io.symbolicate.api.js;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbols.js.JsFramePosition;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Turns the symbolicated event back into Symbolicator's completed JavaScript response. A
 * symbolicated frame starts as a copy of the raw frame and gets the original position, names
 * and source context; any other frame comes back as sent, with an entry in {@code errors}.
 */
final class JsResponseWriter {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final JsRequest request;
  private final SymbolicatedEvent event;
  private final Map<String, String> debugIdByUrl = new HashMap<>();
  private final TreeSet<JsError> errors = new TreeSet<>();
  private final Map<String, ObjectNode> attempts = new LinkedHashMap<>();

  JsResponseWriter(JsRequest request, SymbolicatedEvent event) {
    this.request = request;
    this.event = event;
    for (JsRequest.Module m : request.modules()) {
      debugIdByUrl.putIfAbsent(m.codeFile(), m.debugId());
    }
  }

  ObjectNode write() {
    Map<Integer, SymbolicatedStack> stacks = new HashMap<>();
    for (SymbolicatedStack s : event.getStacks()) {
      if (s.getKind() == StackKind.exception) {
        stacks.put(s.getIndex(), s);
      }
    }
    ArrayNode out = JSON.arrayNode();
    ArrayNode raw = JSON.arrayNode();
    for (int s = 0; s < request.stacktraces().size(); s++) {
      List<JsRequest.Frame> frames = request.stacktraces().get(s).frames();
      Map<Integer, SymbolicatedFrame> results = new HashMap<>();
      SymbolicatedStack stack = stacks.get(s);
      if (stack != null) {
        for (SymbolicatedFrame f : stack.getFrames()) {
          results.putIfAbsent(f.getOriginalIndex(), f);
        }
      }
      ArrayNode outFrames = out.addObject().putArray("frames");
      ArrayNode rawFrames = raw.addObject().putArray("frames");
      for (int i = 0; i < frames.size(); i++) {
        JsRequest.Frame f = frames.get(i);
        rawFrames.add(rawFrame(f));
        outFrames.add(frame(f, results.get(i)));
      }
    }
    ObjectNode response = JSON.objectNode();
    response.put("status", "completed");
    response.set("stacktraces", out);
    response.set("raw_stacktraces", raw);
    if (!errors.isEmpty()) {
      ArrayNode e = response.putArray("errors");
      errors.forEach(x -> e.add(x.toJson()));
    }
    if (!attempts.isEmpty()) {
      response.putArray("scraping_attempts").addAll(attempts.values());
    }
    return response;
  }

  /** The frame as sent (Symbolicator's field order), {@code data.symbolicated} false. */
  static ObjectNode rawFrame(JsRequest.Frame f) {
    ObjectNode n = JSON.objectNode();
    putIf(n, "function", f.function());
    putIf(n, "filename", f.filename());
    putIf(n, "module", f.module());
    n.put("abs_path", f.absPath());
    n.put("lineno", f.lineno());
    if (f.colno() != null) {
      n.put("colno", f.colno());
    }
    if (!f.preContext().isEmpty()) {
      f.preContext().forEach(n.putArray("pre_context")::add);
    }
    putIf(n, "context_line", f.contextLine());
    if (!f.postContext().isEmpty()) {
      f.postContext().forEach(n.putArray("post_context")::add);
    }
    if (f.inApp() != null) {
      n.put("in_app", f.inApp());
    }
    putIf(n, "platform", f.platform());
    n.putObject("data").put("symbolicated", false);
    return n;
  }

  private static void putIf(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }

  private ObjectNode frame(JsRequest.Frame f, SymbolicatedFrame r) {
    FrameStatus status = r == null ? FrameStatus.unknown : r.getStatus();
    String debugId = debugIdByUrl.get(f.absPath());
    String sourcemap = debugId == null ? null : "debug-id://" + debugId;
    // no debug id for the file, yet a map: the stream found it by release + URL, without scraping
    boolean byRelease =
        debugId == null && (status == FrameStatus.symbolicated || status == FrameStatus.no_symbol);
    if (status != FrameStatus.invalid_frame) {
      attempt(f.absPath(), debugId != null || byRelease);
    }
    if (status != FrameStatus.symbolicated) {
      ObjectNode n = rawFrame(f);
      n.put("status", status.name());
      JsError e =
          switch (status) {
            case invalid_frame ->
                validPosition(f)
                    ? JsError.of(f.absPath(), JsError.Kind.INVALID_ABS_PATH)
                    : JsError.invalidLocation(f.absPath(), f.lineno(), f.colno());
            case no_symbol ->
                JsError.invalidLocation(f.absPath(), f.lineno(), f.colno() == null ? 0 : f.colno());
            case malformed_symbols -> JsError.malformedSourcemap(f.absPath(), sourcemap);
            // no debug id and nothing under the release for this URL: as Symbolicator, the minified
            // file itself could not be had (we never scrape)
            case unknown_module -> unfetchable(f);
            default ->
                debugId == null
                    ? unfetchable(f)
                    : JsError.of(f.absPath(), JsError.Kind.MISSING_SOURCEMAP);
          };
      errors.add(e);
      return n;
    }

    ObjectNode n = rawFrame(f);
    n.put("function", SentryJsNames.foldFunctionName(functionName(f, r)));
    String source = Objects.toString(r.getFile(), null);
    if (source != null) {
      String absPath = SentryJsNames.joinPaths(f.absPath(), source);
      String filename = source;
      if (source.startsWith("webpack:")) {
        filename = SentryJsNames.fixupWebpackFilename(source);
        n.put("module", SentryJsNames.generateModule(filename));
      }
      if (!n.has("module")
          && (absPath.startsWith("http:")
              || absPath.startsWith("https:")
              || absPath.startsWith("webpack:")
              || absPath.startsWith("app:"))) {
        n.put("module", SentryJsNames.generateModule(absPath));
      }
      n.put("filename", filename);
      n.put("abs_path", absPath);
      if (request.applySourceContext()) {
        if (r.getContextLine() != null) {
          n.remove(List.of("pre_context", "context_line", "post_context"));
          if (!r.getPreContext().isEmpty()) {
            ArrayNode pre = n.putArray("pre_context");
            r.getPreContext().forEach(l -> pre.add(l.toString()));
          }
          n.put("context_line", r.getContextLine().toString());
          if (!r.getPostContext().isEmpty()) {
            ArrayNode post = n.putArray("post_context");
            r.getPostContext().forEach(l -> post.add(l.toString()));
          }
        } else {
          errors.add(JsError.missingSourceContent(f.absPath(), absPath, sourcemap));
        }
      }
    }
    if (r.getLine() != null) {
      n.put("lineno", r.getLine());
    }
    if (r.getColumn() != null) {
      n.put("colno", r.getColumn());
    }
    // keep Symbolicator's field order: data last, then our status
    n.remove("data");
    ObjectNode data = n.putObject("data");
    if (sourcemap != null) {
      data.put(
          "sourcemap",
          sourcemap); // by release: which of the candidate URLs held the map is the loader's
    }
    data.put("resolved_with", byRelease ? "release" : "debug-id");
    data.put("symbolicated", true);
    n.put("status", status.name());
    return reorder(n);
  }

  /**
   * Sentry's choice of name: the enclosing scope's original name unless it says nothing
   * ({@code <anonymous>}, webpack's loader functions); otherwise the minified name sent, or
   * {@code <unknown>}. A sourcemap segment's own name (our {@code mapping} guess) is not used,
   * as Symbolicator does not use it for the frame's own function.
   */
  private static String functionName(JsRequest.Frame f, SymbolicatedFrame r) {
    String src = r.getNameSource();
    boolean scoped =
        "scope".equals(src) || "scope_minified".equals(src) || "function_map".equals(src);
    String function = Objects.toString(r.getFunction(), null);
    if (scoped && function != null && !SentryJsNames.USELESS_FUNCTION_NAMES.contains(function)) {
      return function;
    }
    if (f.function() != null) {
      return f.function();
    }
    return scoped && function != null ? function : "<unknown>";
  }

  /**
   * Whether the frame's position is one the step accepts. The step refuses a bad position first,
   * then an abs_path it will not make a release key of: an invalid frame with a good position had
   * a bad abs_path.
   */
  private static boolean validPosition(JsRequest.Frame f) {
    try {
      JsFramePosition.fromFrame(f.lineno(), f.colno());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private JsError unfetchable(JsRequest.Frame f) {
    return JsError.of(
        f.absPath(),
        request.scrapingEnabled() ? JsError.Kind.MISSING_SOURCE : JsError.Kind.SCRAPING_DISABLED);
  }

  /** One record per URL: found by debug id (not fetched), or not fetchable by us. */
  private void attempt(String url, boolean haveModule) {
    if (attempts.containsKey(url)) {
      return;
    }
    ObjectNode a = JSON.objectNode();
    a.put("url", url);
    if (haveModule) {
      a.put("status", "not_attempted");
    } else if (!request.scrapingEnabled()) {
      a.put("status", "failure");
      a.put("reason", "disabled");
    } else {
      a.put("status", "failure");
      a.put("reason", "other");
      a.put(
          "details",
          "fetching from the web is not supported; send the sourcemap's debug id in modules");
    }
    attempts.put(url, a);
  }

  private static final List<String> ORDER =
      List.of(
          "function",
          "filename",
          "module",
          "abs_path",
          "lineno",
          "colno",
          "pre_context",
          "context_line",
          "post_context",
          "in_app",
          "platform",
          "data",
          "status");

  private static ObjectNode reorder(ObjectNode n) {
    ObjectNode out = JSON.objectNode();
    for (String k : ORDER) {
      if (n.has(k)) {
        out.set(k, n.get(k));
      }
    }
    return out;
  }
}

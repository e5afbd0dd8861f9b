package io.symbolicate.api.jvm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.RemappedException;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns the symbolicated event back into Symbolicator's completed JVM response. A remapped
 * frame is a copy of the input frame with the original class, method and line; an input frame
 * that expands (inlining, ambiguity) gives several frames, caller first, sharing its
 * {@code index}. A frame that could not be remapped comes back as sent.
 */
final class JvmResponseWriter {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final JvmRequest request;
  private final SymbolicatedEvent event;

  JvmResponseWriter(JvmRequest request, SymbolicatedEvent event) {
    this.request = request;
    this.event = event;
  }

  ObjectNode write() {
    ObjectNode response = JSON.objectNode();
    response.put("status", "completed");

    Map<Integer, RemappedException> remapped = new HashMap<>();
    event.getExceptions().forEach(x -> remapped.putIfAbsent(x.getIndex(), x));
    ArrayNode exceptions = response.putArray("exceptions");
    for (int i = 0; i < request.exceptions().size(); i++) {
      JvmRequest.ExceptionType raw = request.exceptions().get(i);
      RemappedException r = remapped.get(i);
      exceptions
          .addObject()
          .put("type", r != null && r.getType() != null ? r.getType() : raw.type())
          .put("module", r != null && r.getModule() != null ? r.getModule() : raw.module());
    }

    Map<Integer, SymbolicatedStack> stacks = new HashMap<>();
    for (SymbolicatedStack s : event.getStacks()) {
      if (s.getKind() == StackKind.exception) {
        stacks.put(s.getIndex(), s);
      }
    }
    ArrayNode traces = response.putArray("stacktraces");
    int first = request.exceptions().size();
    for (int s = 0; s < request.stacktraces().size(); s++) {
      List<JvmRequest.Frame> frames = request.stacktraces().get(s).frames();
      Map<Integer, List<SymbolicatedFrame>> byIndex = new HashMap<>();
      SymbolicatedStack stack = stacks.get(first + s);
      if (stack != null) {
        for (SymbolicatedFrame f : stack.getFrames()) {
          byIndex.computeIfAbsent(f.getOriginalIndex(), k -> new ArrayList<>()).add(f);
        }
      }
      ArrayNode out = traces.addObject().putArray("frames");
      for (int i = 0; i < frames.size(); i++) {
        addFrames(out, frames.get(i), byIndex.getOrDefault(i, List.of()));
      }
    }

    ObjectNode classes = response.putObject("classes");
    event.getClasses().forEach(classes::put);

    ArrayNode errors = response.putArray("errors");
    for (ModuleResult m : event.getModules()) {
      if (m.getKey() != null && JvmSourceBundle.isModuleKey(m.getKey())) {
        continue; // Symbolicator reports no error for a source bundle it could not use
      }
      String kind =
          switch (m.getStatus()) {
            case found, unused -> null;
            case malformed -> "invalid";
            default -> "missing";
          };
      if (kind != null) {
        errors.addObject().put("uuid", m.getKey()).put("type", kind);
      }
    }
    return response;
  }

  private void addFrames(ArrayNode out, JvmRequest.Frame raw, List<SymbolicatedFrame> results) {
    if (results.isEmpty() || results.get(0).getStatus() != FrameStatus.symbolicated) {
      ObjectNode n =
          frame(
              raw,
              raw.function(),
              raw.module(),
              raw.filename(),
              raw.absPath(),
              raw.lineno(),
              raw.inApp(),
              results.isEmpty() ? null : results.get(0));
      n.put(
          "status",
          results.isEmpty() ? FrameStatus.unknown.name() : results.get(0).getStatus().name());
      out.add(n);
      return;
    }
    // results come innermost first; Sentry wants the caller first
    String outerClass = classOf(results.get(results.size() - 1), raw);
    for (int k = results.size() - 1; k >= 0; k--) {
      SymbolicatedFrame r = results.get(k);
      String cls = classOf(r, raw);
      boolean sameClass = cls.equals(outerClass);
      // the input's file stays with the frame's own class; other classes get the mapping's file
      String filename =
          sameClass && raw.filename() != null
              ? raw.filename()
              : Objects.toString(r.getFile(), null);
      String absPath = sameClass ? raw.absPath() : null;
      Boolean inApp = raw.inApp();
      if (inApp == null
          && request.releasePackage() != null
          && cls.startsWith(request.releasePackage())) {
        inApp = true;
      }
      ObjectNode n =
          frame(
              raw,
              Objects.toString(r.getFunction(), raw.function()),
              cls,
              filename,
              absPath,
              r.getLine() != null ? r.getLine() : 0,
              inApp,
              r);
      n.put("status", r.getStatus().name());
      out.add(n);
    }
  }

  private static String classOf(SymbolicatedFrame r, JvmRequest.Frame raw) {
    return r.getClassName() != null ? r.getClassName() : raw.module();
  }

  /**
   * A frame in Symbolicator's field order; context lines from a source bundle ({@code result}'s,
   * when it has them) replace those sent, else those sent are passed through.
   */
  private static ObjectNode frame(
      JvmRequest.Frame raw,
      String function,
      String module,
      String filename,
      String absPath,
      int lineno,
      Boolean inApp,
      SymbolicatedFrame result) {
    ObjectNode n = JSON.objectNode();
    n.put("function", function);
    if (filename != null) {
      n.put("filename", filename);
    }
    n.put("module", module);
    if (absPath != null) {
      n.put("abs_path", absPath);
    }
    n.put("lineno", lineno);
    boolean found = result != null && result.getContextLine() != null;
    List<? extends CharSequence> pre = found ? result.getPreContext() : raw.preContext();
    CharSequence line = found ? result.getContextLine() : raw.contextLine();
    List<? extends CharSequence> post = found ? result.getPostContext() : raw.postContext();
    if (!pre.isEmpty()) {
      ArrayNode a = n.putArray("pre_context");
      pre.forEach(l -> a.add(l.toString()));
    }
    if (line != null) {
      n.put("context_line", line.toString());
    }
    if (!post.isEmpty()) {
      ArrayNode a = n.putArray("post_context");
      post.forEach(l -> a.add(l.toString()));
    }
    if (inApp != null) {
      n.put("in_app", inApp);
    }
    n.put("index", raw.index());
    return n;
  }
}

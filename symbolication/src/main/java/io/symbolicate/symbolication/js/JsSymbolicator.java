package io.symbolicate.symbolication.js;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JsException;
import io.symbolicate.schema.JsFrame;
import io.symbolicate.schema.JsModule;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.js.JsContext;
import io.symbolicate.symbols.js.JsFramePosition;
import io.symbolicate.symbols.js.JsFunctionName;
import io.symbolicate.symbols.js.JsHeader;
import io.symbolicate.symbols.js.JsLocation;
import io.symbolicate.symbols.js.JsPage;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.js.JsSymbolizer;
import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JavaScript step. A frame's sourcemap is found by debug id when the event's modules name one
 * for the frame's minified file ({@code code_file} = the frame's {@code abs_path}); otherwise by
 * the event's release + dist + the frame's URL ({@link JsReleaseModule}; the loader then tries
 * the URL's {@code ~/} forms and the minified file's {@code sourceMappingURL}). Tables are looked
 * up scope first, then global. Frames come 1-based from crash reports and are converted once
 * here. Lookups are the greatest lower bound on the same line; context lines come from the map's
 * sourcesContent.
 */
public final class JsSymbolicator implements PlatformSymbolicator {

  @Override
  public Platform platform() {
    return Platform.javascript;
  }

  @Override
  public int tableFormatVersion() {
    return JsTable.FORMAT_VERSION;
  }

  /**
   * Which module each frame URL of an event uses: {@code keys} maps a URL to a debug id or a
   * release module key; {@code rejected} maps a URL whose release lookup was refused to the reason.
   */
  record Plan(Map<String, String> keys, Map<String, String> rejected) {}

  static Plan plan(CrashEvent event) {
    Map<String, String> byUrl = debugIdsByUrl(event.getJavascript().getModules());
    Map<String, String> keys = new LinkedHashMap<>();
    Map<String, String> rejected = new LinkedHashMap<>();
    for (JsException x : event.getJavascript().getExceptions()) {
      for (JsFrame f : x.getFrames()) {
        String url = f.getAbsPath();
        if (url == null || keys.containsKey(url) || rejected.containsKey(url)) {
          continue;
        }
        // Chrome's async frames: "async <url>" is the file of module code_file <url>
        String id = byUrl.get(JsSymbolKeys.withoutAsync(url));
        if (id != null) {
          keys.put(url, id);
          continue;
        }
        try {
          JsReleaseModule m = JsReleaseModule.ofFrame(event.getRelease(), event.getDist(), url);
          if (m != null) {
            keys.put(url, m.key());
          }
        } catch (DebugIdentifiers.InvalidIdentifierException e) {
          rejected.put(url, e.getMessage());
        }
      }
    }
    return new Plan(keys, rejected);
  }

  @Override
  public List<ModuleRef> modulesNeeded(CrashEvent event) {
    Set<ModuleRef> refs = new LinkedHashSet<>();
    for (String key : plan(event).keys().values()) {
      refs.add(new ModuleRef(event.getScope(), TableKind.JS, key));
    }
    return new ArrayList<>(refs);
  }

  private static Map<String, String> debugIdsByUrl(List<JsModule> modules) {
    Map<String, String> m = new HashMap<>();
    for (JsModule mod : modules) {
      String id = JsSymbolKeys.normalizeDebugId(mod.getDebugId());
      if (mod.getCodeFile() != null && id != null) {
        m.putIfAbsent(mod.getCodeFile(), id);
      }
    }
    return m;
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(event, nowMillis);
    List<JsModule> modules = event.getJavascript().getModules();
    Plan plan = plan(event);
    Set<String> used = new LinkedHashSet<>(plan.keys().values());
    Map<String, SymbolLookup.Resolution> resolutions = new HashMap<>();
    Map<String, JsSymbolizer> symbolizers = new HashMap<>();
    for (int m = 0; m < modules.size(); m++) {
      JsModule mod = modules.get(m);
      String id = JsSymbolKeys.normalizeDebugId(mod.getDebugId());
      if (id == null) {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    m, mod.getDebugId(), ModuleStatus.malformed_request, "debug_id is not a UUID"));
        continue;
      }
      if (!used.contains(id)) {
        out.getModules().add(SymbolicatedEvents.module(m, id, ModuleStatus.unused, null));
        continue;
      }
      resolve(m, id, event, lookup, out, resolutions, symbolizers);
    }
    // modules found by release + URL are not in the event's list: index -1
    for (String key : used) {
      if (JsReleaseModule.isReleaseKey(key) && !resolutions.containsKey(key)) {
        resolve(-1, key, event, lookup, out, resolutions, symbolizers);
      }
    }
    for (Map.Entry<String, String> r : plan.rejected().entrySet()) {
      out.getModules()
          .add(SymbolicatedEvents.module(-1, null, ModuleStatus.malformed_request, r.getValue()));
    }

    List<JsException> exceptions = event.getJavascript().getExceptions();
    ContextBudget context = new ContextBudget();
    for (int x = 0; x < exceptions.size(); x++) {
      List<JsFrame> frames = exceptions.get(x).getFrames();
      List<SymbolicatedFrame> result = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        result.add(frame(i, frames.get(i), plan, resolutions, symbolizers, context));
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.exception, x, result));
    }
    return out.build();
  }

  private static void resolve(
      int index,
      String key,
      CrashEvent event,
      SymbolLookup lookup,
      SymbolicatedEvent.Builder out,
      Map<String, SymbolLookup.Resolution> resolutions,
      Map<String, JsSymbolizer> symbolizers) {
    SymbolLookup.Resolution r =
        resolutions.computeIfAbsent(
            key, k -> lookup.resolve(new ModuleRef(event.getScope(), TableKind.JS, k)));
    if (r.found() && !symbolizers.containsKey(key)) {
      symbolizers.put(
          key,
          new JsSymbolizer(lookup.header(r, JsHeader::decode), lookup.pages(r, JsPage::decode)));
    }
    out.getModules()
        .add(
            SymbolicatedEvents.module(
                index, key, r.moduleStatus(), r.found() ? null : r.message()));
    if (!out.getModulesInStack().contains(key)) {
      out.getModulesInStack().add(key);
      if (r.moduleStatus() == ModuleStatus.missing) {
        out.getMissingSymbols().add(key);
      }
    }
  }

  /**
   * Source context chars an event's frames may carry in all. Every frame may add eleven lines of
   * up to ~150 chars, so an event of 20,000 frames (within max.frames.per.event) made an output of
   * 35 MB from 1 MB: dead-lettered as too large, after being built. Past the budget, frames come
   * without context and say so.
   */
  static final int MAX_CONTEXT_CHARS_PER_EVENT = 1 << 20;

  /** What is left of an event's context budget. */
  static final class ContextBudget {
    int chars = MAX_CONTEXT_CHARS_PER_EVENT;
  }

  private static SymbolicatedFrame frame(
      int i,
      JsFrame f,
      Plan plan,
      Map<String, SymbolLookup.Resolution> resolutions,
      Map<String, JsSymbolizer> symbolizers,
      ContextBudget budget) {
    JsFramePosition pos;
    try {
      pos = JsFramePosition.fromFrame(f.getLineno() == null ? 0 : f.getLineno(), f.getColno());
    } catch (IllegalArgumentException e) {
      return SymbolicatedEvents.frame(i, FrameStatus.invalid_frame, e.getMessage()).build();
    }
    String id = f.getAbsPath() == null ? null : plan.keys().get(f.getAbsPath());
    if (id == null) {
      String rejected = f.getAbsPath() == null ? null : plan.rejected().get(f.getAbsPath());
      if (rejected != null) {
        return SymbolicatedEvents.frame(i, FrameStatus.invalid_frame, rejected).build();
      }
      return SymbolicatedEvents.frame(
              i,
              FrameStatus.unknown_module,
              f.getAbsPath() == null
                  ? "frame has no abs_path"
                  : "no debug id for this file, and no release or no URL to look it up by")
          .build();
    }
    JsSymbolizer s = symbolizers.get(id);
    if (s == null) {
      SymbolLookup.Resolution r = resolutions.get(id);
      FrameStatus st =
          switch (r.moduleStatus()) {
            case malformed -> FrameStatus.malformed_symbols;
            case fetch_failed -> FrameStatus.fetch_failed;
            default -> FrameStatus.missing_symbols;
          };
      return SymbolicatedEvents.frame(i, st, r.message()).build();
    }
    JsLocation loc = s.lookup(pos.line(), pos.column());
    if (loc == null || !loc.mapped()) {
      return SymbolicatedEvents.frame(i, FrameStatus.no_symbol, "no mapping at this position")
          .build();
    }
    JsFunctionName fn = s.functionName(pos.line(), pos.column(), loc);
    var b =
        SymbolicatedEvents.frame(i, FrameStatus.symbolicated, null)
            .setFile(loc.source())
            .setLine(JsFramePosition.toFrame(loc.line()))
            .setColumn(JsFramePosition.toFrame(loc.column()))
            .setFunction(fn.name() != null ? fn.name() : f.getFunction())
            .setNameSource(
                fn.name() != null
                    ? fn.nameSource()
                    : (f.getFunction() != null ? "original" : null));
    JsContext ctx = budget.chars > 0 ? s.context(loc) : null;
    if (ctx != null) {
      budget.chars -= chars(ctx);
      b.setPreContext(ctx.preContext())
          .setContextLine(ctx.contextLine())
          .setPostContext(ctx.postContext());
    } else if (budget.chars <= 0) {
      b.setMessage(
          "no source context: the event's frames carry "
              + MAX_CONTEXT_CHARS_PER_EVENT
              + " chars of context at most");
    }
    return b.build();
  }

  private static int chars(JsContext ctx) {
    int n = ctx.contextLine() == null ? 0 : ctx.contextLine().length();
    for (String l : ctx.preContext()) {
      n += l.length();
    }
    for (String l : ctx.postContext()) {
      n += l.length();
    }
    return n;
  }
}

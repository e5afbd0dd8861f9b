package io.symbolicate.topology.js;

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
import io.symbolicate.symbols.js.JsContext;
import io.symbolicate.symbols.js.JsFramePosition;
import io.symbolicate.symbols.js.JsFunctionName;
import io.symbolicate.symbols.js.JsHeader;
import io.symbolicate.symbols.js.JsLocation;
import io.symbolicate.symbols.js.JsPage;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.js.JsSymbolizer;
import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.topology.platform.PlatformSymbolicator;
import io.symbolicate.topology.platform.SymbolicatedEvents;
import io.symbolicate.topology.store.ModuleRef;
import io.symbolicate.topology.store.SymbolLookup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JavaScript step: a frame's minified file ({@code abs_path}) is matched to the event's
 * sourcemap module by URL, whose debug id names the sourcemap table (scope first, then global).
 * Frames come 1-based from crash reports and are converted once here. Lookups are the greatest
 * lower bound on the same line; context lines come from the map's sourcesContent.
 * Finding maps by release + dist + URL is not wired into the stream yet (see docs/js.md).
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

  @Override
  public List<ModuleRef> modulesNeeded(CrashEvent event) {
    Set<ModuleRef> refs = new LinkedHashSet<>();
    Map<String, String> byUrl = debugIdsByUrl(event.getJavascript().getModules());
    for (JsException x : event.getJavascript().getExceptions()) {
      for (JsFrame f : x.getFrames()) {
        String id = f.getAbsPath() == null ? null : byUrl.get(f.getAbsPath());
        if (id != null) {
          refs.add(new ModuleRef(event.getScope(), TableKind.JS, id));
        }
      }
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
    Map<String, String> byUrl = debugIdsByUrl(modules);
    Set<String> used = new LinkedHashSet<>();
    for (JsException x : event.getJavascript().getExceptions()) {
      for (JsFrame f : x.getFrames()) {
        if (f.getAbsPath() != null && byUrl.containsKey(f.getAbsPath())) {
          used.add(byUrl.get(f.getAbsPath()));
        }
      }
    }
    Map<String, SymbolLookup.Resolution> resolutions = new HashMap<>();
    Map<String, JsSymbolizer> symbolizers = new HashMap<>();
    for (int m = 0; m < modules.size(); m++) {
      JsModule mod = modules.get(m);
      String id = JsSymbolKeys.normalizeDebugId(mod.getDebugId());
      if (id == null) {
        out.getModules().add(SymbolicatedEvents.module(m, mod.getDebugId(), ModuleStatus.malformed_request,
            "debug_id is not a UUID"));
        continue;
      }
      if (!used.contains(id)) {
        out.getModules().add(SymbolicatedEvents.module(m, id, ModuleStatus.unused, null));
        continue;
      }
      SymbolLookup.Resolution r = resolutions.computeIfAbsent(id,
          k -> lookup.resolve(new ModuleRef(event.getScope(), TableKind.JS, k)));
      if (r.found() && !symbolizers.containsKey(id)) {
        symbolizers.put(id, new JsSymbolizer(lookup.header(r, JsHeader::decode), lookup.pages(r, JsPage::decode)));
      }
      out.getModules().add(SymbolicatedEvents.module(m, id, r.moduleStatus(), r.found() ? null : r.message()));
      if (!out.getModulesInStack().contains(id)) {
        out.getModulesInStack().add(id);
        if (r.moduleStatus() == ModuleStatus.missing) {
          out.getMissingSymbols().add(id);
        }
      }
    }

    List<JsException> exceptions = event.getJavascript().getExceptions();
    for (int x = 0; x < exceptions.size(); x++) {
      List<JsFrame> frames = exceptions.get(x).getFrames();
      List<SymbolicatedFrame> result = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        result.add(frame(i, frames.get(i), byUrl, resolutions, symbolizers));
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.exception, x, result));
    }
    return out.build();
  }

  private static SymbolicatedFrame frame(int i, JsFrame f, Map<String, String> byUrl,
      Map<String, SymbolLookup.Resolution> resolutions, Map<String, JsSymbolizer> symbolizers) {
    JsFramePosition pos;
    try {
      pos = JsFramePosition.fromFrame(f.getLineno() == null ? 0 : f.getLineno(), f.getColno());
    } catch (IllegalArgumentException e) {
      return SymbolicatedEvents.frame(i, FrameStatus.invalid_frame, e.getMessage()).build();
    }
    String id = f.getAbsPath() == null ? null : byUrl.get(f.getAbsPath());
    if (id == null) {
      return SymbolicatedEvents.frame(i, FrameStatus.unknown_module,
          "no sourcemap module (debug id) for this file; release/URL lookup is not wired into the stream yet").build();
    }
    JsSymbolizer s = symbolizers.get(id);
    if (s == null) {
      SymbolLookup.Resolution r = resolutions.get(id);
      FrameStatus st = switch (r.moduleStatus()) {
        case malformed -> FrameStatus.malformed_symbols;
        case fetch_failed -> FrameStatus.fetch_failed;
        default -> FrameStatus.missing_symbols;
      };
      return SymbolicatedEvents.frame(i, st, r.message()).build();
    }
    JsLocation loc = s.lookup(pos.line(), pos.column());
    if (loc == null || !loc.mapped()) {
      return SymbolicatedEvents.frame(i, FrameStatus.no_symbol, "no mapping at this position").build();
    }
    JsFunctionName fn = s.functionName(pos.line(), pos.column(), loc);
    var b = SymbolicatedEvents.frame(i, FrameStatus.symbolicated, null)
        .setFile(loc.source()).setLine(JsFramePosition.toFrame(loc.line()))
        .setColumn(JsFramePosition.toFrame(loc.column()))
        .setFunction(fn.name() != null ? fn.name() : f.getFunction())
        .setNameSource(fn.name() != null ? fn.nameSource() : (f.getFunction() != null ? "original" : null));
    JsContext ctx = s.context(loc);
    if (ctx != null) {
      b.setPreContext(ctx.preContext()).setContextLine(ctx.contextLine()).setPostContext(ctx.postContext());
    }
    return b.build();
  }
}

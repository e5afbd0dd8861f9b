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
import io.symbolicate.topology.platform.PlatformSymbolicator;
import io.symbolicate.topology.platform.SymbolicatedEvents;
import io.symbolicate.topology.store.SymbolLookup;
import java.util.ArrayList;
import java.util.List;

/**
 * JavaScript step: checks every frame's position and gives frames and modules honest statuses.
 * Sourcemap lookups are wired in with the symbol store; until then valid frames are
 * {@code not_yet_supported}.
 */
public final class JsSymbolicator implements PlatformSymbolicator {

  @Override
  public Platform platform() {
    return Platform.javascript;
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(event, nowMillis);
    List<JsModule> modules = event.getJavascript().getModules();
    boolean[] referenced = new boolean[modules.size()];
    List<JsException> exceptions = event.getJavascript().getExceptions();
    for (int x = 0; x < exceptions.size(); x++) {
      List<JsFrame> frames = exceptions.get(x).getFrames();
      List<SymbolicatedFrame> result = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        JsFrame f = frames.get(i);
        if (f.getLineno() == null || f.getColno() == null || f.getLineno() < 1 || f.getColno() < 1) {
          result.add(SymbolicatedEvents.frame(i, FrameStatus.invalid_frame,
              "lineno and colno must be present and 1-based").build());
          continue;
        }
        for (int m = 0; m < modules.size(); m++) {
          if (f.getAbsPath() != null && f.getAbsPath().equals(modules.get(m).getCodeFile())) {
            referenced[m] = true;
          }
        }
        result.add(SymbolicatedEvents.frame(i, FrameStatus.not_yet_supported,
            "JavaScript symbolication is not available in this version").build());
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.exception, x, result));
    }
    for (int m = 0; m < modules.size(); m++) {
      String key = modules.get(m).getDebugId();
      out.getModules().add(SymbolicatedEvents.module(m, key,
          referenced[m] ? ModuleStatus.not_yet_supported : ModuleStatus.unused, null));
      if (referenced[m] && key != null) {
        out.getModulesInStack().add(key);
      }
    }
    return out.build();
  }
}

package io.symbolicate.topology.jvm;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.JvmModule;
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
 * JVM step: checks frames and gives frames and mapping modules honest statuses. Retracing is
 * wired in with the symbol store; until then valid frames are {@code not_yet_supported}.
 */
public final class JvmSymbolicator implements PlatformSymbolicator {

  @Override
  public Platform platform() {
    return Platform.jvm;
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(event, nowMillis);
    List<JvmException> exceptions = event.getJvm().getExceptions();
    int valid = 0;
    for (int x = 0; x < exceptions.size(); x++) {
      List<JvmFrame> frames = exceptions.get(x).getFrames();
      List<SymbolicatedFrame> result = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        JvmFrame f = frames.get(i);
        if (f.getModule() == null || f.getModule().isBlank() || f.getFunction() == null) {
          result.add(SymbolicatedEvents.frame(i, FrameStatus.invalid_frame,
              "a JVM frame needs module (class) and function").build());
          continue;
        }
        valid++;
        result.add(SymbolicatedEvents.frame(i, FrameStatus.not_yet_supported,
            "JVM retracing is not available in this version").build());
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.exception, x, result));
    }
    List<JvmModule> modules = event.getJvm().getModules();
    for (int m = 0; m < modules.size(); m++) {
      String key = modules.get(m).getUuid();
      ModuleStatus status = valid > 0 ? ModuleStatus.not_yet_supported : ModuleStatus.unused;
      out.getModules().add(SymbolicatedEvents.module(m, key, status, null));
      if (valid > 0 && key != null) {
        out.getModulesInStack().add(key);
      }
    }
    return out.build();
  }
}

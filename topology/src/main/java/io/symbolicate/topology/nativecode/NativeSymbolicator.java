package io.symbolicate.topology.nativecode;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.topology.platform.PlatformSymbolicator;
import io.symbolicate.topology.platform.SymbolicatedEvents;
import io.symbolicate.topology.store.SymbolLookup;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Native step: resolves every frame to its module and module offset and gives each frame and
 * module an honest status. Symbol lookups are wired in with the symbol store; until then
 * resolvable frames are {@code not_yet_supported}.
 */
public final class NativeSymbolicator implements PlatformSymbolicator {

  @Override
  public Platform platform() {
    return Platform.native$;
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    NativePayload p = event.getNative$();
    List<NativeModule> modules = p.getModules();
    NativeModuleResolver resolver = new NativeModuleResolver(modules);
    boolean[] referenced = new boolean[modules.size()];
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(event, nowMillis);

    List<NativeThread> threads = p.getThreads();
    for (int t = 0; t < threads.size(); t++) {
      List<NativeFrame> frames = threads.get(t).getFrames();
      List<SymbolicatedFrame> result = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        NativeModuleResolver.Resolution r = resolver.resolve(frames.get(i));
        SymbolicatedFrame.Builder f = switch (r.kind()) {
          case RESOLVED -> {
            referenced[r.moduleIndex()] = true;
            yield SymbolicatedEvents.frame(i, FrameStatus.not_yet_supported,
                    "native symbolication is not available in this version")
                .setModuleIndex(r.moduleIndex())
                .setModuleOffset(r.moduleOffset());
          }
          case UNKNOWN_MODULE -> SymbolicatedEvents.frame(i, FrameStatus.unknown_module, r.message());
          case INVALID -> SymbolicatedEvents.frame(i, FrameStatus.invalid_frame, r.message());
        };
        result.add(f.build());
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.thread, t, result));
    }

    Set<String> inStack = new LinkedHashSet<>();
    for (int m = 0; m < modules.size(); m++) {
      String key = NativeModuleResolver.moduleKey(modules.get(m));
      ModuleStatus status = referenced[m] ? ModuleStatus.not_yet_supported : ModuleStatus.unused;
      out.getModules().add(SymbolicatedEvents.module(m, key, status, null));
      if (referenced[m] && key != null) {
        inStack.add(key);
      }
    }
    out.getModulesInStack().addAll(inStack);
    return out.build();
  }
}

package io.symbolicate.topology.platform;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import java.util.ArrayList;
import java.util.List;

/** Helpers to assemble {@link SymbolicatedEvent}s. */
public final class SymbolicatedEvents {
  /** Version of the symbolication logic, recorded on every output for reprocessing decisions. */
  public static final int SYMBOLICATION_VERSION = 1;

  private SymbolicatedEvents() {}

  public static SymbolicatedEvent.Builder builder(CrashEvent event, long nowMillis) {
    return SymbolicatedEvent.newBuilder()
        .setEvent(event)
        .setModules(new ArrayList<>())
        .setStacks(new ArrayList<>())
        .setExceptions(new ArrayList<>())
        .setModulesInStack(new ArrayList<>())
        .setMissingSymbols(new ArrayList<>())
        .setSymbolicationVersion(SYMBOLICATION_VERSION)
        .setSymbolicatedAt(java.time.Instant.ofEpochMilli(nowMillis))
        .setReprocessed("true".equals(event.getAttributes().get("reprocessed")));
  }

  public static SymbolicatedFrame.Builder frame(int originalIndex, FrameStatus status, String message) {
    return SymbolicatedFrame.newBuilder()
        .setOriginalIndex(originalIndex)
        .setStatus(status)
        .setMessage(message)
        .setPreContext(new ArrayList<>())
        .setPostContext(new ArrayList<>());
  }

  public static SymbolicatedStack stack(
      io.symbolicate.schema.StackKind kind, int index, List<SymbolicatedFrame> frames) {
    return SymbolicatedStack.newBuilder().setKind(kind).setIndex(index).setFrames(frames).build();
  }

  public static ModuleResult module(int index, String key, io.symbolicate.schema.ModuleStatus status, String message) {
    return ModuleResult.newBuilder().setIndex(index).setKey(key).setStatus(status).setMessage(message).build();
  }
}

package io.symbolicate.symbolication.platform;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** Helpers to assemble {@link SymbolicatedEvent}s. */
public final class SymbolicatedEvents {
  /** Version of the symbolication logic, recorded on every output for reprocessing decisions. */
  public static final int SYMBOLICATION_VERSION = 1;

  /**
   * Output frames an event may have beyond one per input frame (inlined callers, ambiguous
   * alternatives). Without a bound, a small hostile debug file could expand each frame of a
   * large event into thousands (a JVM mapping of a few KB, nested native INLINE records), and
   * building that output would exhaust the heap on every attempt. Past the budget, a frame keeps
   * its first answer only, and its message says what was left out.
   */
  public static final int MAX_EXTRA_FRAMES_PER_EVENT = 50_000;

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
        .setSymbolicatedAt(Instant.ofEpochMilli(nowMillis))
        .setReprocessed("true".equals(event.getAttributes().get("reprocessed")));
  }

  /**
   * A new output frame. Built directly rather than through Avro's builder, whose
   * {@code build()} deep-copies schema defaults for every unset field (hot path: one per frame).
   */
  public static FrameBuilder frame(int originalIndex, FrameStatus status, String message) {
    SymbolicatedFrame f = new SymbolicatedFrame();
    f.setOriginalIndex(originalIndex);
    f.setStatus(status);
    f.setMessage(message);
    f.setInlined(false);
    f.setAmbiguous(false);
    f.setPreContext(Collections.emptyList());
    f.setPostContext(Collections.emptyList());
    return new FrameBuilder(f);
  }

  /** Fluent setters over a {@link SymbolicatedFrame}, mirroring Avro's builder. */
  public static final class FrameBuilder {
    private final SymbolicatedFrame f;

    FrameBuilder(SymbolicatedFrame f) {
      this.f = f;
    }

    public FrameBuilder setMessage(String v) {
      f.setMessage(v);
      return this;
    }

    public FrameBuilder setInlined(boolean v) {
      f.setInlined(v);
      return this;
    }

    public FrameBuilder setAmbiguous(boolean v) {
      f.setAmbiguous(v);
      return this;
    }

    public FrameBuilder setModuleIndex(Integer v) {
      f.setModuleIndex(v);
      return this;
    }

    public FrameBuilder setModuleOffset(Long v) {
      f.setModuleOffset(v);
      return this;
    }

    public FrameBuilder setFunction(CharSequence v) {
      f.setFunction(v);
      return this;
    }

    public FrameBuilder setFunctionOffset(Long v) {
      f.setFunctionOffset(v);
      return this;
    }

    public FrameBuilder setClassName(String v) {
      f.setClassName(v);
      return this;
    }

    public FrameBuilder setFile(CharSequence v) {
      f.setFile(v);
      return this;
    }

    public FrameBuilder setLine(Integer v) {
      f.setLine(v);
      return this;
    }

    public FrameBuilder setColumn(Integer v) {
      f.setColumn(v);
      return this;
    }

    public FrameBuilder setNameSource(String v) {
      f.setNameSource(v);
      return this;
    }

    public FrameBuilder setPreContext(List<? extends CharSequence> v) {
      f.setPreContext(Collections.unmodifiableList(v));
      return this;
    }

    public FrameBuilder setContextLine(CharSequence v) {
      f.setContextLine(v);
      return this;
    }

    public FrameBuilder setPostContext(List<? extends CharSequence> v) {
      f.setPostContext(Collections.unmodifiableList(v));
      return this;
    }

    public FrameBuilder setLang(String v) {
      f.setLang(v);
      return this;
    }

    public FrameBuilder setSourceLink(String v) {
      f.setSourceLink(v);
      return this;
    }

    public SymbolicatedFrame build() {
      return f;
    }
  }

  /**
   * The records below are built with their constructors, not Avro's builders (one builder copies
   * the schema's field array and validates every setter: per module of every event). The checks
   * the builder would make are the non-null ones, made here.
   */
  public static SymbolicatedStack stack(StackKind kind, int index, List<SymbolicatedFrame> frames) {
    return new SymbolicatedStack(
        Objects.requireNonNull(kind, "kind"), index, Objects.requireNonNull(frames, "frames"));
  }

  public static ModuleResult module(int index, String key, ModuleStatus status, String message) {
    return new ModuleResult(index, key, Objects.requireNonNull(status, "status"), message);
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.Collections;
import java.util.List;

/** One thread's walked frames (inlined frames before the frame they are inlined into). */
public record CallStack(
    long threadId,
    String threadName,
    List<Frame> frames,
    StopReason stopReason,
    MemoryReader memory) {
  public CallStack {
    frames = Collections.unmodifiableList(frames);
  }
}

package io.symbolicate.symbols.jvm;

import java.util.List;

/**
 * What a frame retraced to. {@code frames} is empty unless {@code status} is MAPPED; frames come
 * innermost first, in mapping order.
 */
public record FrameResult(
    Status status, String originalClass, String classSourceFile, List<RetracedFrame> frames) {
  public enum Status {
    /** The class is not in the mapping: leave the frame alone. */
    UNKNOWN_CLASS,
    /** The class is known but no method line matches: remap the class only. */
    CLASS_ONLY,
    /** One or more original frames. */
    MAPPED
  }

  static final FrameResult UNKNOWN = new FrameResult(Status.UNKNOWN_CLASS, null, null, List.of());

  /**
   * The frame retraced to as many frames as a lookup gives ({@link Retracer#MAX_FRAMES_PER_LOOKUP}):
   * there may be more, left out.
   */
  public boolean truncated() {
    return frames.size() >= Retracer.MAX_FRAMES_PER_LOOKUP;
  }

  /** More than one alternative (not counting the inline frames of one chain). */
  public boolean ambiguous() {
    if (frames.isEmpty()) {
      return false;
    }
    int first = frames.get(0).alternative();
    for (RetracedFrame f : frames) {
      if (f.alternative() != first) {
        return true;
      }
    }
    return false;
  }
}

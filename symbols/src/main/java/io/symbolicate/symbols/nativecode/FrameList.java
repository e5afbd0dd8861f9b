package io.symbolicate.symbols.nativecode;

import java.util.AbstractList;
import java.util.RandomAccess;

/** Read-only view of a freshly built frame array: one object, no defensive copy. */
final class FrameList extends AbstractList<InlineFrame> implements RandomAccess {
  private final InlineFrame[] frames;

  FrameList(InlineFrame[] frames) {
    this.frames = frames;
  }

  @Override
  public InlineFrame get(int index) {
    return frames[index];
  }

  @Override
  public int size() {
    return frames.length;
  }
}

package io.symbolicate.symbols.nativecode;

import java.util.List;

/**
 * The result of looking up one module-relative address: the outer (real) function, its source
 * location (the call site of the outermost inlinee when there are inlines) and the inline chain,
 * innermost first. {@code file}, {@code line} and {@code lineBase} are null without a line record.
 */
public record NativeFrame(
    long address,
    String function,
    long functionBase,
    String file,
    Integer line,
    Long lineBase,
    boolean multiple,
    boolean fromPublic,
    List<InlineFrame> inlines) {

  /** Distance from the FUNC (or PUBLIC) start, as Mozilla's API reports it. */
  public long functionOffset() {
    return address - functionBase;
  }
}

package io.symbolicate.symbols.minidump.walk;

/** How a frame was found, from most to least trusted, with Breakpad's "Found by" text. */
public enum Trust {
  NONE("unknown"),
  SCAN("stack scanning"),
  CFI_SCAN("call frame info with scanning"),
  FRAME_POINTER("previous frame's frame pointer"),
  CFI("call frame info"),
  PREWALKED("recovered by external stack walker"),
  CONTEXT("given as instruction pointer in context"),
  INLINE("inline record"),
  LEAF("simulating a return from leaf function");

  private final String description;

  Trust(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }

  /** Frames Breakpad counts against its limit of scanned frames. */
  boolean dubious() {
    return this == NONE || this == SCAN || this == CFI_SCAN;
  }
}

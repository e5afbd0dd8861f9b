package io.symbolicate.symbols.minidump.walk;

/** Why a thread's walk ended. */
public enum StopReason {
  /** No method found a caller (or the last one found failed Breakpad's checks). */
  NO_CALLER("no method found a caller frame"),
  /** The caller's instruction pointer is below 4096: Breakpad's end of stack. */
  END_OF_STACK("the caller's instruction pointer is below 0x1000"),
  /** The caller's stack pointer did not move up: a loop or corrupt stack. */
  STACK_POINTER_NOT_ADVANCING(
      "the caller's stack pointer does not advance (a loop or a corrupt stack)"),
  /** The frame cap was reached. */
  FRAME_CAP("the frame cap was reached"),
  /** The thread has no CPU context of a known architecture or no stack memory. */
  NO_CONTEXT("the thread has no usable CPU context");

  private final String description;

  StopReason(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }
}

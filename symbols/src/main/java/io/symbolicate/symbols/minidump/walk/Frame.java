package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.CpuContext;

/**
 * One frame of a walked stack, as Breakpad's StackFrame: the registers recovered for it (none
 * for an inlined frame), the address looked up ({@code instruction}: the return address less
 * the call adjustment for callers), how it was found, and what the symbols say about it.
 */
public final class Frame {
  CpuContext context;
  long instruction;
  Trust trust;
  CodeModule module;
  String function = "";
  long functionBase;
  String sourceFile = "";
  int sourceLine;
  long sourceLineBase;
  WinFrameInfo windowsFrameInfo;

  Frame(CpuContext context, long instruction, Trust trust) {
    this.context = context;
    this.instruction = instruction;
    this.trust = trust;
  }

  /** Copy of a frame's symbol facts for an inlined frame (Breakpad copies the StackFrame). */
  static Frame inlineOf(Frame f) {
    Frame i = new Frame(null, f.instruction, Trust.INLINE);
    i.module = f.module;
    i.function = f.function;
    i.functionBase = f.functionBase;
    i.sourceFile = f.sourceFile;
    i.sourceLine = f.sourceLine;
    i.sourceLineBase = f.sourceLineBase;
    return i;
  }

  /** Registers; null for inlined frames. */
  public CpuContext context() {
    return context;
  }

  public long instruction() {
    return instruction;
  }

  /** The saved return address (the context's pc), or the instruction of an inlined frame. */
  public long returnAddress() {
    return context != null ? context.pc() : instruction;
  }

  public Trust trust() {
    return trust;
  }

  public CodeModule module() {
    return module;
  }

  /** Function name, empty when unknown. */
  public String function() {
    return function;
  }

  public long functionBase() {
    return functionBase;
  }

  /** Source file, empty when unknown. */
  public String sourceFile() {
    return sourceFile;
  }

  public int sourceLine() {
    return sourceLine;
  }

  public long sourceLineBase() {
    return sourceLineBase;
  }

  public boolean isInline() {
    return trust == Trust.INLINE;
  }
}

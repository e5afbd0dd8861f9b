package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Breakpad's Stackwalker: starts from the context frame and asks the architecture's rules for
 * each caller (CFI, then the architecture's fallbacks: frame pointers, STACK WIN, stack
 * scanning), symbolizing every frame on the way, until no caller is found, the caller fails
 * the end-of-stack checks, or a cap is reached.
 */
abstract class Walker {
  /** Words scanned for a return address (four times as many below the context frame). */
  static final int RA_SEARCH_WORDS = 40;

  /** Breakpad stops scanning after this many scanned frames. */
  static final int MAX_SCANNED_FRAMES = 1 << 14;

  /** A register the CFI rules may name, with its alternate name and whether the callee saves it. */
  record CfiRegister(int index, String name, String alternate, boolean calleeSaves) {}

  final Cpu cpu;
  final String osShort;
  final MemoryReader memory;
  final Symbolizer symbolizer;
  final int word;
  final long mask;
  StopReason stop;

  Walker(Cpu cpu, String osShort, MemoryReader memory, Symbolizer symbolizer) {
    this.cpu = cpu;
    this.osShort = osShort;
    this.memory = memory;
    this.symbolizer = symbolizer;
    this.word = cpu.pointerSize();
    this.mask = word == 4 ? 0xFFFFFFFFL : -1L;
  }

  static Walker forCpu(Cpu cpu, String osShort, MemoryReader memory, Symbolizer symbolizer) {
    return switch (cpu) {
      case AMD64 -> new Amd64Walker(osShort, memory, symbolizer);
      case X86 -> new X86Walker(osShort, memory, symbolizer);
      case ARM64 -> new Arm64Walker(osShort, memory, symbolizer);
      case ARM -> new ArmWalker(osShort, memory, symbolizer);
    };
  }

  /** Walks from {@code context}; at most {@code maxFrames} frames. */
  CallStack walk(long threadId, String threadName, CpuContext context, int maxFrames) {
    List<Frame> frames = new ArrayList<>();
    CpuContext c = new CpuContext(context);
    c.setAllValid();
    prepareContextFrame(c);
    Frame frame = new Frame(c, c.pc(), Trust.CONTEXT);
    int scanned = 0;
    stop = StopReason.NO_CALLER;
    while (frame != null) {
      List<Frame> inlined = new ArrayList<>();
      symbolizer.noteResult(frame, symbolizer.fill(frame, inlined));
      if (frame.trust.dubious()) {
        scanned++;
      }
      frames.addAll(inlined);
      frames.add(frame);
      if (frames.size() > maxFrames) {
        stop = StopReason.FRAME_CAP;
        break;
      }
      stop = StopReason.NO_CALLER;
      frame = memory == null ? null : callerFrame(frames, scanned < MAX_SCANNED_FRAMES);
    }
    return new CallStack(threadId, threadName, frames, stop, memory);
  }

  /** Adjusts the context frame's registers before the walk (arm64 strips lr's auth bits). */
  void prepareContextFrame(CpuContext c) {}

  /** The caller of the last frame, or null (with {@link #stop} saying why). */
  abstract Frame callerFrame(List<Frame> frames, boolean scanAllowed);

  /** The last real (not inlined) frame. */
  static Frame last(List<Frame> frames) {
    return frames.get(frames.size() - 1);
  }

  /**
   * Breakpad's TerminateWalk: an instruction pointer below 4 KB ends the stack, and the stack
   * pointer must grow (it may stay put on the first unwind, for leaf functions).
   */
  boolean terminate(long callerIp, long callerSp, long calleeSp, boolean firstUnwind) {
    if (Long.compareUnsigned(callerIp, 1 << 12) < 0) {
      stop = StopReason.END_OF_STACK;
      return true;
    }
    int c = Long.compareUnsigned(callerSp, calleeSp);
    if (firstUnwind ? c < 0 : c <= 0) {
      stop = StopReason.STACK_POINTER_NOT_ADVANCING;
      return true;
    }
    return false;
  }

  boolean has(long address) {
    return memory != null && memory.has(address, word);
  }

  long read(long address) {
    return memory.word(address, word);
  }

  /**
   * Scans {@code words + 1} stack words from {@code start} for a value that points just after
   * an instruction in a module whose symbols (if any) name a function there; returns
   * {location, value} or null.
   */
  long[] scanForReturnAddress(long start, int words) {
    long end = (start + (long) words * word) & mask;
    for (long loc = start; Long.compareUnsigned(loc, end) <= 0; loc = (loc + word) & mask) {
      if (!has(loc)) {
        break;
      }
      long ip = read(loc);
      if (symbolizer.hasLoadedModule((ip - 1) & mask) && symbolizer.seemsValid((ip - 1) & mask)) {
        return new long[] {loc, ip};
      }
      if (loc == end) {
        break;
      }
    }
    return null;
  }

  long[] scanForReturnAddress(long start, boolean contextFrame) {
    return scanForReturnAddress(start, contextFrame ? RA_SEARCH_WORDS * 4 : RA_SEARCH_WORDS);
  }

  /** Applies CFI rules: the caller's registers, or null when the rules do not give pc and sp. */
  CpuContext cfiCaller(Frame last, CfiRules rules, CfiRegister[] map) {
    CompiledCfi compiled = rules.compiled(map, word);
    if (compiled != null) {
      return compiled.caller(last.context, cpu, memory, word);
    }
    Map<String, Long> callee = new HashMap<>();
    CpuContext lc = last.context;
    for (CfiRegister r : map) {
      if (lc.isValid(r.index())) {
        callee.put(r.name(), lc.get(r.index()));
      }
    }
    Map<String, Long> caller = rules.callerRegisters(callee, memory, word);
    if (caller == null) {
      return null;
    }
    CpuContext out = new CpuContext(cpu);
    for (CfiRegister r : map) {
      Long v = caller.get(r.name());
      if (v == null && r.alternate() != null) {
        v = caller.get(r.alternate());
      }
      if (v != null) {
        out.set(r.index(), v);
      } else if (r.calleeSaves() && lc.isValid(r.index())) {
        out.set(r.index(), lc.get(r.index()));
      }
    }
    return out;
  }
}

package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.List;

/**
 * Breakpad's human-readable {@code minidump_stackwalk} report: system, crash, every thread's
 * frames with the registers Breakpad shows for each and how the frame was found, and the
 * loaded modules with symbol warnings.
 */
public final class HumanReadableWriter {
  private static final int MAX_WIDTH = 80;

  private HumanReadableWriter() {}

  /**
   * Which Breakpad's report to reproduce: current Breakpad prints the exception's parameters
   * under "Crash parameters:"; the Breakpad bundled with npm's minidump@0.26.0 (the generated
   * corpus's oracle) does not.
   */
  public enum Dialect {
    CURRENT,
    NPM_0_26
  }

  public static String write(ProcessState s) {
    return write(s, Dialect.CURRENT);
  }

  public static String write(ProcessState s, Dialect dialect) {
    return write(s, dialect, false);
  }

  /**
   * With {@code stackContents}, as {@code minidump_stackwalk -s}: each frame's stack bytes, read
   * from the dump (write before closing it).
   */
  public static String write(ProcessState s, Dialect dialect, boolean stackContents) {
    StringBuilder out = new StringBuilder(8192);
    out.append("Operating system: ").append(s.os()).append('\n');
    out.append("                  ").append(s.osVersion()).append('\n');
    out.append("CPU: ").append(s.cpu()).append('\n');
    if (!s.cpuInfo().isEmpty()) {
      out.append("     ").append(s.cpuInfo()).append('\n');
    }
    out.append("     ")
        .append(s.cpuCount())
        .append(" CPU")
        .append(s.cpuCount() != 1 ? "s" : "")
        .append("\n\n");
    out.append("GPU: UNKNOWN\n\n");
    if (s.crashed()) {
      out.append("Crash reason:  ").append(s.crashReason()).append('\n');
      out.append("Crash address: 0x").append(Long.toHexString(s.crashAddress())).append('\n');
      if (dialect == Dialect.CURRENT && !s.crashParameters().isEmpty()) {
        out.append("Crash parameters:\n");
        for (long v : s.crashParameters()) {
          out.append(String.format("    value: 0x%016x  description: \n", v));
        }
      }
    } else {
      out.append("No crash\n");
    }
    if (!s.assertion().isEmpty()) {
      out.append("Assertion: ").append(s.assertion()).append('\n');
    }
    if (s.timeDateStamp() != 0
        && s.processCreateTime() != 0
        && s.timeDateStamp() >= s.processCreateTime()) {
      out.append("Process uptime: ")
          .append(s.timeDateStamp() - s.processCreateTime())
          .append(" seconds\n");
    } else {
      out.append("Process uptime: not available\n");
    }
    String cpu = s.cpu();
    int req = s.requestingThread();
    if (req != -1) {
      out.append("\nThread ")
          .append(req)
          .append(" (")
          .append(s.crashed() ? "crashed" : "requested dump, did not crash")
          .append(")\n");
      stack(out, s.threads().get(req), cpu, stackContents ? s : null);
    }
    for (int i = 0; i < s.threads().size(); i++) {
      if (i != req) {
        out.append("\nThread ").append(i).append('\n');
        stack(out, s.threads().get(i), cpu, stackContents ? s : null);
      }
    }
    modules(out, s);
    return out.toString();
  }

  private static void stack(StringBuilder out, CallStack stack, String cpu, ProcessState s) {
    List<Frame> frames = stack.frames();
    if (frames.isEmpty()) {
      out.append(" <no frames>\n");
    }
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      header(out, f, i);
      out.append("\n ");
      if (!f.isInline() && f.context != null) {
        registers(out, f.context, cpu);
      }
      out.append("\n    Found by: ").append(f.trust.description()).append('\n');
      if (s != null && i + 1 < frames.size()) {
        try {
          stackContents(out, f, frames.get(i + 1), stack.memory(), s);
        } catch (IllegalStateException e) {
          out.append("\n    (stack contents unreadable: ").append(e.getMessage()).append(")\n");
        }
      }
    }
  }

  /** Breakpad's PrintStackContents: the bytes between a frame's sp and its caller's. */
  private static void stackContents(
      StringBuilder out, Frame f, Frame caller, MemoryReader mem, ProcessState s) {
    if (f.context == null || caller.context == null || mem == null) {
      return; // Breakpad reads an inlined frame as a full one here: undefined, so left out
    }
    Cpu cpu = f.context.cpu();
    int spIndex =
        switch (cpu) {
          case X86 -> Cpu.X86_ESP;
          case AMD64 -> Cpu.AMD64_RSP;
          case ARM -> Cpu.ARM_SP;
          case ARM64 -> Cpu.ARM64_SP;
        };
    if (!f.context.isValid(spIndex) || !caller.context.isValid(spIndex)) {
      return;
    }
    int word = cpu.pointerSize();
    long begin = f.context.get(spIndex);
    long end = caller.context.get(spIndex);
    if (begin == 0 || end == 0) {
      return;
    }
    // Breakpad prints every row from sp to the caller's sp, with blanks where the dump has no
    // memory: a hostile context puts them gigabytes apart. Rows without a byte of the thread's
    // stack memory are left out (a real caller's sp lies within it, so real output is unchanged)
    long memEnd = mem.base() + mem.size();
    long first = begin;
    if (Long.compareUnsigned(first, mem.base()) < 0) {
      first += (mem.base() - first) / 16 * 16; // rows stay aligned to sp
    }
    long stop = Long.compareUnsigned(end, memEnd) > 0 ? memEnd : end;
    String indent = "    ";
    out.append('\n').append(indent).append("Stack contents:");
    if (first != begin || stop != end) {
      out.append('\n')
          .append(indent)
          .append(
              String.format(
                  " (only the rows within the thread's stack memory [0x%x, 0x%x) are shown)",
                  mem.base(), memEnd));
    }
    for (long a = first; Long.compareUnsigned(a, stop) < 0; ) {
      out.append('\n')
          .append(indent)
          .append(' ')
          .append(word == 4 ? String.format("%08x", a & 0xFFFFFFFFL) : String.format("%016x", a));
      StringBuilder text = new StringBuilder(16);
      for (int i = 0; i < 16; i++, a++) {
        if (Long.compareUnsigned(a, end) < 0 && mem.has(a, 1)) {
          int v = (int) (mem.word(a, 1) & 0xFF);
          out.append(String.format(" %02x", v));
          text.append(v >= 0x20 && v < 0x7F ? (char) v : '.');
        } else {
          out.append("   ");
          text.append(' ');
        }
      }
      out.append("  ").append(text);
    }
    out.append('\n').append(indent).append("Possible instruction pointers:\n");
    for (long a = first; Long.compareUnsigned(a, stop) < 0; a += word) {
      long value = mem.has(a, word) ? mem.word(a, word) : 0;
      for (Frame p : s.lookup().framesAt(value)) {
        if (p.function.isEmpty()) {
          continue;
        }
        out.append(indent);
        if (word == 4) {
          out.append(
              String.format(" *(0x%08x) = 0x%08x", a & 0xFFFFFFFFL, p.instruction & 0xFFFFFFFFL));
        } else {
          out.append(String.format(" *(0x%016x) = 0x%016x", a, p.instruction));
        }
        out.append(" <")
            .append(p.function)
            .append("> [")
            .append(CodeModule.basename(p.sourceFile))
            .append(" : ")
            .append(p.sourceLine)
            .append(" + 0x")
            .append(Long.toHexString(p.instruction - p.sourceLineBase))
            .append("]\n");
      }
    }
    out.append('\n');
  }

  static void header(StringBuilder out, Frame f, int index) {
    out.append(String.format("%2d  ", index));
    long ra = f.returnAddress();
    if (f.module != null) {
      out.append(CodeModule.basename(f.module.codeFile()));
      if (!f.function.isEmpty()) {
        out.append('!').append(f.function);
        if (!f.sourceFile.isEmpty()) {
          out.append(" [")
              .append(CodeModule.basename(f.sourceFile))
              .append(" : ")
              .append(f.sourceLine)
              .append(" + 0x")
              .append(Long.toHexString(ra - f.sourceLineBase))
              .append(']');
        } else {
          out.append(" + 0x").append(Long.toHexString(ra - f.functionBase));
        }
      } else {
        out.append(" + 0x").append(Long.toHexString(ra - f.module.base()));
      }
    } else {
      out.append("0x").append(Long.toHexString(ra));
    }
  }

  /** Breakpad's register lines: four 32-bit or two 64-bit registers to an 80-column line. */
  private static void registers(StringBuilder out, CpuContext c, String cpu) {
    int[] col = {0};
    switch (cpu) {
      case "x86" -> {
        for (String r : new String[] {"eip", "esp", "ebp", "ebx", "esi", "edi"}) {
          reg(out, col, c, Cpu.X86.register(r), r, false);
        }
        if (c.allValid()) {
          for (String r : new String[] {"eax", "ecx", "edx", "efl"}) {
            reg(out, col, c, Cpu.X86.register(r), r, false);
          }
        }
      }
      case "amd64" -> {
        for (String r : Cpu.AMD64.registers()) {
          reg(out, col, c, Cpu.AMD64.register(r), r, true);
        }
      }
      case "arm" -> {
        for (String r :
            new String[] {
              "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r12", "fp", "sp",
              "lr", "pc"
            }) {
          reg(out, col, c, Cpu.ARM.register(r), r, false);
        }
      }
      case "arm64" -> {
        for (String r : Cpu.ARM64.registers()) {
          reg(out, col, c, Cpu.ARM64.register(r), r, true);
        }
      }
      default -> {}
    }
  }

  private static void reg(
      StringBuilder out, int[] col, CpuContext c, int index, String name, boolean wide) {
    if (index < 0 || c.cpu().registers().size() <= index || !c.isValid(index)) {
      return;
    }
    String text =
        wide
            ? String.format(" %5s = 0x%016x", name, c.get(index))
            : String.format(" %5s = 0x%08x", name, c.get(index) & 0xFFFFFFFFL);
    if (col[0] + text.length() > MAX_WIDTH) {
      col[0] = 0;
      out.append("\n ");
    }
    out.append(text);
    col[0] += text.length();
  }

  private static void modules(StringBuilder out, ProcessState s) {
    out.append("\nLoaded modules:\n");
    long main = s.mainModule() == null ? 0 : s.mainModule().base();
    for (CodeModule m : s.modules()) {
      String issues = "";
      if (contains(s.modulesWithoutSymbols(), m)) {
        issues =
            "  (WARNING: No symbols, "
                + CodeModule.basename(m.debugFile())
                + ", "
                + m.debugId()
                + ")";
      } else if (contains(s.modulesWithCorruptSymbols(), m)) {
        issues =
            "  (WARNING: Corrupt symbols, "
                + CodeModule.basename(m.debugFile())
                + ", "
                + m.debugId()
                + ")";
      }
      out.append(MachineReadableWriter.hex8(m.base()))
          .append(" - ")
          .append(MachineReadableWriter.hex8(m.base() + m.size() - 1))
          .append("  ")
          .append(CodeModule.basename(m.codeFile()))
          .append("  ")
          .append(m.version().isEmpty() ? "???" : m.version())
          .append(main != 0 && m.base() == main ? "  (main)" : "")
          .append(issues)
          .append('\n');
    }
  }

  /** Breakpad matches listed modules by debug file and debug id. */
  private static boolean contains(List<CodeModule> list, CodeModule m) {
    for (CodeModule x : list) {
      if (x.debugFile().equals(m.debugFile()) && x.debugId().equals(m.debugId())) {
        return true;
      }
    }
    return false;
  }
}

package io.symbolicate.symbols.minidump.walk;

import java.util.List;

/**
 * Breakpad's {@code minidump_stackwalk -m} output: OS, CPU, GPU and Crash lines, a Module line
 * per module in address order, a blank line, then {@code thread|frame|module|function|file|line|offset}
 * for every frame, the requesting thread first. '|' and newlines are stripped from every field.
 */
public final class MachineReadableWriter {
  private MachineReadableWriter() {}

  public static String write(ProcessState s) {
    StringBuilder out = new StringBuilder(4096);
    out.append("OS|").append(strip(s.os())).append('|').append(strip(s.osVersion())).append('\n');
    out.append("CPU|")
        .append(strip(s.cpu()))
        .append('|')
        .append(strip(s.cpuInfo()))
        .append('|')
        .append(s.cpuCount())
        .append('\n');
    out.append("GPU|||\n");
    out.append("Crash|");
    if (s.crashed()) {
      out.append(strip(s.crashReason()))
          .append("|0x")
          .append(Long.toHexString(s.crashAddress()))
          .append('|');
    } else if (!s.assertion().isEmpty()) {
      out.append(strip(s.assertion())).append("||");
    } else {
      out.append("No crash||");
    }
    if (s.requestingThread() != -1) {
      out.append(s.requestingThread());
    }
    out.append('\n');
    for (CodeModule m : s.modules()) {
      out.append("Module|")
          .append(strip(CodeModule.basename(m.codeFile())))
          .append('|')
          .append(strip(m.version()))
          .append('|')
          .append(strip(CodeModule.basename(m.debugFile())))
          .append('|')
          .append(strip(m.debugId()))
          .append('|')
          .append(hex8(m.base()))
          .append('|')
          .append(hex8(m.base() + m.size() - 1))
          .append('|')
          .append(s.mainModule() != null && m.base() == s.mainModule().base() ? 1 : 0)
          .append('\n');
    }
    out.append('\n');
    List<CallStack> threads = s.threads();
    if (s.requestingThread() != -1) {
      stack(out, s.requestingThread(), threads.get(s.requestingThread()));
    }
    for (int i = 0; i < threads.size(); i++) {
      if (i != s.requestingThread()) {
        stack(out, i, threads.get(i));
      }
    }
    return out.toString();
  }

  private static void stack(StringBuilder out, int thread, CallStack stack) {
    List<Frame> frames = stack.frames();
    for (int i = 0; i < frames.size(); i++) {
      Frame f = frames.get(i);
      out.append(thread).append('|').append(i).append('|');
      long ra = f.returnAddress();
      if (f.module != null) {
        out.append(strip(CodeModule.basename(f.module.codeFile())));
        if (!f.function.isEmpty()) {
          out.append('|').append(strip(f.function));
          if (!f.sourceFile.isEmpty()) {
            out.append('|')
                .append(strip(f.sourceFile))
                .append('|')
                .append(f.sourceLine)
                .append("|0x")
                .append(Long.toHexString(ra - f.sourceLineBase));
          } else {
            out.append("|||0x").append(Long.toHexString(ra - f.functionBase));
          }
        } else {
          out.append("||||0x").append(Long.toHexString(ra - f.module.base()));
        }
      } else {
        out.append("||||0x").append(Long.toHexString(ra));
      }
      out.append('\n');
    }
  }

  static String hex8(long v) {
    String h = Long.toHexString(v);
    return h.length() >= 8 ? "0x" + h : "0x" + "0".repeat(8 - h.length()) + h;
  }

  static String strip(String s) {
    if (s.indexOf('|') < 0 && s.indexOf('\n') < 0) {
      return s;
    }
    return s.replace("|", "").replace("\n", "");
  }
}

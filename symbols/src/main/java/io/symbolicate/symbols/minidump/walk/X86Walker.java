package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryReader;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Breakpad's x86 rules: STACK WIN program strings (or its FPO defaults) with its search for the
 * return address and the saved ebp, then CFI, then the ebp chain, then stack scanning.
 */
final class X86Walker extends Walker {
  private static final int EIP = Cpu.X86_EIP;
  private static final int ESP = Cpu.X86_ESP;
  private static final int EBP = Cpu.X86_EBP;
  private static final int EBX = Cpu.X86_EBX;
  private static final int ESI = Cpu.X86_ESI;
  private static final int EDI = Cpu.X86_EDI;

  /** Largest gap between a scanned frame's esp and the ebp restored beneath it. */
  static final long MAX_REASONABLE_GAP_BETWEEN_FRAMES = 128 * 1024;

  private static final CfiRegister[] CFI_MAP = {
    new CfiRegister(EIP, "$eip", ".ra", false),
    new CfiRegister(ESP, "$esp", ".cfa", false),
    new CfiRegister(EBP, "$ebp", null, true),
    new CfiRegister(6, "$eax", null, false),
    new CfiRegister(EBX, "$ebx", null, true),
    new CfiRegister(7, "$ecx", null, false),
    new CfiRegister(8, "$edx", null, false),
    new CfiRegister(ESI, "$esi", null, true),
    new CfiRegister(EDI, "$edi", null, true),
  };
  private static final String FPO_WITH_EBP =
      "$eip .raSearchStart ^ = "
          + "$ebp $esp .cbCalleeParams + .cbSavedRegs + 8 - ^ = $esp .raSearchStart 4 + =";
  private static final String FPO_WITHOUT_EBP = "$eip .raSearchStart ^ = $esp .raSearchStart 4 + =";

  X86Walker(String osShort, MemoryReader memory, Symbolizer symbolizer) {
    super(
        Cpu.X86,
        osShort,
        memory != null && Long.compareUnsigned(memory.base() + memory.size() - 1, 0xFFFFFFFFL) > 0
            ? null
            : memory,
        symbolizer);
  }

  @Override
  Frame callerFrame(List<Frame> frames, boolean scanAllowed) {
    Frame last = last(frames);
    Frame f = null;
    WinFrameInfo win = symbolizer.windowsFrameInfo(last);
    if (win != null) {
      f = byWindowsFrameInfo(frames, last, win, scanAllowed);
    }
    if (f == null) {
      CfiRules rules = symbolizer.cfi(last);
      if (rules != null) {
        f = byCfi(last, rules);
      }
    }
    if (f == null) {
      f = byEbpAtBase(last, scanAllowed);
    }
    if (f == null) {
      return null;
    }
    if (terminate(
        f.context.get(EIP),
        f.context.get(ESP),
        last.context.get(ESP),
        last.trust == Trust.CONTEXT)) {
      return null;
    }
    f.instruction = (f.context.get(EIP) - 1) & mask;
    return f;
  }

  private Frame byWindowsFrameInfo(
      List<Frame> frames, Frame last, WinFrameInfo info, boolean scanAllowed) {
    last.windowsFrameInfo = info;
    if (!info.allValid()) {
      return null;
    }
    // Breakpad's loop visits every earlier real frame and keeps the last one it sees with a
    // parameter size, i.e. the innermost: reproduced as is.
    long calleeParams = 0;
    for (int i = frames.size() - 2; i >= 0; i--) {
      Frame callee = frames.get(i);
      if (callee.trust == Trust.INLINE) {
        continue;
      }
      if (callee.windowsFrameInfo != null) {
        calleeParams = callee.windowsFrameInfo.parameterSize();
      }
    }
    CpuContext lc = last.context;
    Map<String, Long> dict = new HashMap<>();
    dict.put("$ebp", lc.get(EBP));
    dict.put("$esp", lc.get(ESP));
    if (lc.isValid(EBX)) {
      dict.put("$ebx", lc.get(EBX));
    }
    dict.put(".cbCalleeParams", calleeParams);
    dict.put(".cbSavedRegs", info.savedRegisterSize());
    dict.put(".cbLocals", info.localSize());
    long raSearchStart =
        (lc.get(ESP) + calleeParams + info.localSize() + info.savedRegisterSize()) & mask;
    long raSearchStartOld = raSearchStart;
    long[] found = scanForReturnAddress(raSearchStart, 3);
    if (found != null) {
      raSearchStart = found[0];
      if (last.trust == Trust.CONTEXT
          && info.type() == WinFrameInfo.TYPE_FPO
          && raSearchStartOld == raSearchStart
          && found[1] == lc.get(EIP)) {
        raSearchStart = (raSearchStart + 4) & mask;
        long[] again = scanForReturnAddress(raSearchStart, 3);
        if (again != null) {
          raSearchStart = again[0];
        }
      }
    }
    dict.put(".cbParams", info.parameterSize());
    String program;
    boolean recoverEbp = true;
    Trust trust = Trust.CFI;
    if (!info.programString().isEmpty()) {
      program = info.programString();
    } else if (info.allocatesBasePointer()) {
      program = FPO_WITH_EBP;
    } else {
      program = FPO_WITHOUT_EBP;
      if (lc.isValid(EBX)) {
        program += " $ebx $ebx =";
      }
      recoverEbp = false;
    }
    if (lc.isValid(EBP) && program.indexOf('@') >= 0) {
      raSearchStart = (lc.get(EBP) + 4) & mask;
    }
    dict.put(".raSearchStart", raSearchStart);
    dict.put(".raSearch", raSearchStart);
    Set<String> assigned = new HashSet<>();
    boolean ok = new Postfix(dict, memory, 4).evaluate(Postfix.tokens(program), assigned);
    if (!ok || !assigned.contains("$eip") || !assigned.contains("$esp")) {
      long[] scan =
          scanAllowed ? scanForReturnAddress(lc.get(ESP), last.trust == Trust.CONTEXT) : null;
      if (scan == null) {
        return null;
      }
      dict.put("$eip", scan[1]);
      dict.put("$esp", (scan[0] + 4) & mask);
      trust = Trust.SCAN;
    }
    long eipValue = dict.getOrDefault("$eip", 0L);
    long ebpValue = dict.getOrDefault("$ebp", 0L);
    if (eipValue != 0 || ebpValue != 0) {
      long offset = 0;
      long eip = eipValue;
      if (!symbolizer.hasLoadedModule(eip)) {
        long locationStart = (dict.getOrDefault(".raSearchStart", 0L) + 4) & mask;
        long[] scan =
            scanAllowed ? scanForReturnAddress(locationStart, last.trust == Trust.CONTEXT) : null;
        if (scan != null) {
          dict.put("$eip", scan[1]);
          dict.put("$esp", (scan[0] + 4) & mask);
          offset = (scan[0] - locationStart) & mask;
          trust = Trust.CFI_SCAN;
        }
      }
      if (recoverEbp) {
        long ebp = dict.getOrDefault("$ebp", 0L);
        boolean skipped =
            trust != Trust.CFI && Long.compareUnsigned(ebp, (raSearchStart + offset) & mask) <= 0;
        if (skipped || !has(ebp)) {
          long fpSearchBytes = (info.savedRegisterSize() + offset) & mask;
          long locationEnd = (lc.get(ESP) + calleeParams) & mask;
          for (long loc = (locationEnd + fpSearchBytes) & mask;
              Long.compareUnsigned(loc, locationEnd) >= 0;
              loc = (loc - 4) & mask) {
            if (!has(loc)) {
              break;
            }
            long candidate = read(loc);
            if (has(candidate)) {
              dict.put("$ebp", candidate);
              break;
            }
            if (loc == 0) {
              break;
            }
          }
        }
      }
    }
    CpuContext c = new CpuContext(lc);
    c.set(EIP, dict.getOrDefault("$eip", 0L));
    c.set(ESP, dict.getOrDefault("$esp", 0L));
    c.set(EBP, dict.getOrDefault("$ebp", 0L));
    c.keepOnly((1L << EIP) | (1L << ESP) | (1L << EBP));
    if (assigned.contains("$ebx")) {
      c.set(EBX, dict.get("$ebx"));
    }
    if (assigned.contains("$esi")) {
      c.set(ESI, dict.get("$esi"));
    }
    if (assigned.contains("$edi")) {
      c.set(EDI, dict.get("$edi"));
    }
    return new Frame(c, 0, trust);
  }

  private Frame byCfi(Frame last, CfiRules rules) {
    CpuContext c = cfiCaller(last, rules, CFI_MAP);
    if (c == null || !c.isValid(EIP) || !c.isValid(ESP) || !c.isValid(EBP)) {
      return null;
    }
    return new Frame(c, 0, Trust.CFI);
  }

  private Frame byEbpAtBase(Frame last, boolean scanAllowed) {
    long lastEsp = last.context.get(ESP);
    long lastEbp = last.context.get(EBP);
    long eip;
    long esp;
    long ebp;
    Trust trust;
    if (has((lastEbp + 4) & mask) && has(lastEbp)) {
      eip = read((lastEbp + 4) & mask);
      ebp = read(lastEbp);
      esp = (lastEbp + 8) & mask;
      trust = Trust.FRAME_POINTER;
    } else {
      long[] scan = scanAllowed ? scanForReturnAddress(lastEsp, last.trust == Trust.CONTEXT) : null;
      if (scan == null) {
        return null;
      }
      eip = scan[1];
      esp = (scan[0] + 4) & mask;
      long restoredEbpChain = (esp - 8) & mask;
      ebp = has(restoredEbpChain) ? read(restoredEbpChain) : lastEbp;
      if (!has(restoredEbpChain)
          || Long.compareUnsigned(ebp, restoredEbpChain) <= 0
          || ((ebp - restoredEbpChain) & mask) > MAX_REASONABLE_GAP_BETWEEN_FRAMES) {
        ebp = lastEbp;
      }
      trust = Trust.SCAN;
    }
    CpuContext c = new CpuContext(last.context);
    c.set(EIP, eip);
    c.set(ESP, esp);
    c.set(EBP, ebp);
    c.keepOnly((1L << EIP) | (1L << ESP) | (1L << EBP));
    return new Frame(c, 0, trust);
  }
}

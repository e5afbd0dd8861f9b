package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * Mach-O compact unwind info ({@code __unwind_info}, version 1) into {@code STACK CFI INIT}
 * records, as symbolic writes them: one record per entry covering up to the next entry's address,
 * frame-based and frameless ("immediate") opcodes as CFA and register rules, DWARF-referencing
 * opcodes through the {@code __eh_frame} FDE they name, and "no info" entries as a leaf with no
 * stack of its own. x86 stack-indirect frames (over ~2 KB of stack, the size inside an
 * instruction) count as "no info", as in symbolic.
 * The two-level page table is walked with every offset and index checked; the entry count is
 * bounded by the section's size.
 */
public final class CompactUnwindReader {
  private static final int REGULAR_PAGE = 2;
  private static final int COMPRESSED_PAGE = 3;

  private final ByteBuffer data;
  private final CfiArch arch;
  private final SymHandler out;
  private final DwarfCfiReader.Frames ehFrame;
  private final DwarfCfiReader dwarf;
  private final LongFunction<String> symbolAt;
  private int records;

  private CompactUnwindReader(
      Section unwindInfo,
      CfiArch arch,
      DwarfCfiReader dwarf,
      DwarfCfiReader.Frames ehFrame,
      LongFunction<String> symbolAt,
      SymHandler out) {
    this.data = unwindInfo.data();
    this.arch = arch;
    this.dwarf = dwarf;
    this.ehFrame = ehFrame;
    this.symbolAt = symbolAt;
    this.out = out;
  }

  /**
   * All unwind info of a Mach-O image, as symbolic reads it: {@code __debug_frame}, then either
   * {@code __eh_frame} (no compact unwind info) or {@code __unwind_info} (whose DWARF entries name
   * the {@code __eh_frame} FDEs that matter). {@code loadAddress} is the {@code __TEXT} segment's
   * address; {@code symbolAt} names the function at a module-relative address (for {@code
   * _sigtramp}, whose hand-written CFI gets the records symbolic writes for it; names as symbolic
   * shows them, without Mach-O's leading underscore), or returns null.
   */
  public static DwarfCfiReader.Summary readMachO(
      ObjectSections sections,
      CfiArch arch,
      long loadAddress,
      LongFunction<String> symbolAt,
      SymHandler out) {
    DwarfCfiReader dwarf = DwarfCfiReader.forCompactUnwind(arch, loadAddress, out);
    Optional<Section> unwindInfo = sections.section("__unwind_info");
    sections.section(".debug_frame").ifPresent(s -> dwarf.readAll(s, false));
    Optional<Section> eh = sections.section(".eh_frame");
    if (unwindInfo.isEmpty()) {
      eh.ifPresent(s -> dwarf.readAll(s, true));
      return dwarf.summaryNow();
    }
    DwarfCfiReader.Frames frames =
        eh.map(s -> dwarf.frames(s, FrameSection.Kind.EH_FRAME)).orElse(null);
    CompactUnwindReader r =
        new CompactUnwindReader(unwindInfo.get(), arch, dwarf, frames, symbolAt, out);
    try {
      r.read();
    } catch (CfiException e) {
      dwarf.skip("__unwind_info", 0, e.getMessage());
    }
    dwarf.countRecords(r.records);
    return dwarf.summaryNow();
  }

  /** A raw entry: its address, and its opcode or (compressed pages) opcode index. */
  private record Raw(long address, long opcodeOrIndex, boolean index, int pageOffset, int page) {}

  private void read() {
    SectionCursor in = new SectionCursor(data, 0, data.limit());
    long version = in.u32();
    if (version != 1) {
      throw new CfiException("compact unwind version " + version);
    }
    long globalOpcodesOffset = in.u32();
    long globalOpcodesLen = in.u32();
    in.u32(); // personalities
    in.u32();
    long pagesOffset = in.u32();
    long pagesLen = in.u32();
    if (pagesLen > data.limit() / 12 || pagesOffset + pagesLen * 12 > data.limit()) {
      throw new CfiException("first-level page table outside the section");
    }
    List<Raw> raws = new ArrayList<>();
    for (int i = 0; i < pagesLen; i++) {
      SectionCursor p = new SectionCursor(data, (int) (pagesOffset + i * 12L), data.limit());
      long first = p.u32();
      long pageOffset = p.u32();
      if (pageOffset == 0) {
        raws.add(new Raw(first, 0, false, 0, 0)); // the sentinel: only its address counts
        continue;
      }
      if (pageOffset >= data.limit()) {
        throw new CfiException("second-level page outside the section");
      }
      SectionCursor page = new SectionCursor(data, (int) pageOffset, data.limit());
      long kind = page.u32();
      int entriesOffset = page.u16();
      int entriesLen = page.u16();
      if (kind == REGULAR_PAGE) {
        SectionCursor e = new SectionCursor(data, (int) pageOffset, data.limit());
        e.skip(entriesOffset);
        for (int j = 0; j < entriesLen; j++) {
          raws.add(new Raw(e.u32(), e.u32(), false, (int) pageOffset, 0));
        }
      } else if (kind == COMPRESSED_PAGE) {
        int localOffset = page.u16();
        int localLen = page.u16();
        SectionCursor e = new SectionCursor(data, (int) pageOffset, data.limit());
        e.skip(entriesOffset);
        for (int j = 0; j < entriesLen; j++) {
          long c = e.u32();
          long address = (c & 0x00FFFFFF) + first;
          raws.add(
              new Raw(
                  address & 0xFFFFFFFFL,
                  (c >>> 24) & 0xFF,
                  true,
                  (int) pageOffset,
                  localOffset | (localLen << 16)));
        }
      } else {
        throw new CfiException("second-level page kind " + kind);
      }
    }
    for (int i = 0; i + 1 < raws.size(); i++) {
      Raw cur = raws.get(i);
      long next = raws.get(i + 1).address();
      if (cur.address() > next) {
        throw new CfiException("entry addresses go backwards at " + Long.toHexString(next));
      }
      long opcode = opcode(cur, globalOpcodesOffset, globalOpcodesLen);
      long len = next - cur.address();
      if (len == 0) {
        continue; // duplicate entries (seen in libsystem_kernel): nothing to cover
      }
      entry(cur.address(), len, (int) opcode);
    }
  }

  private long opcode(Raw raw, long globalOffset, long globalLen) {
    if (!raw.index()) {
      return raw.opcodeOrIndex();
    }
    long idx = raw.opcodeOrIndex();
    if (idx < globalLen) {
      return new SectionCursor(data, checked(globalOffset + idx * 4), data.limit()).u32();
    }
    idx -= globalLen;
    int localOffset = raw.page() & 0xFFFF;
    int localLen = raw.page() >>> 16;
    if (idx >= localLen) {
      throw new CfiException("local opcode index " + idx + " >= " + localLen);
    }
    return new SectionCursor(data, checked(raw.pageOffset() + localOffset + idx * 4), data.limit())
        .u32();
  }

  private int checked(long offset) {
    if (offset < 0 || offset + 4 > data.limit()) {
      throw new CfiException("opcode outside the section");
    }
    return (int) offset;
  }

  private void entry(long address, long len, int opcode) {
    int mode = opcode & 0x0F000000;
    if (arch == CfiArch.X86_64 || arch == CfiArch.X86) {
      switch (mode) {
        case 0x01000000 -> rules(address, len, x86Frame(opcode));
        case 0x02000000 -> rules(address, len, x86Frameless(opcode));
        case 0x03000000 -> noInfo(address, len); // stack-indirect: symbolic reads it as no info
        case 0x04000000 -> dwarfFde(address, len, opcode & 0x00FFFFFF);
        default -> noInfo(address, len);
      }
    } else if (arch == CfiArch.ARM64) {
      switch (mode) {
        case 0x02000000 -> rules(address, len, arm64Frameless(opcode));
        case 0x03000000 -> dwarfFde(address, len, opcode & 0x00FFFFFF);
        case 0x04000000 -> rules(address, len, arm64Frame(opcode));
        default -> noInfo(address, len);
      }
    }
  }

  /** No unwind info: a leaf without a stack frame of its own (symbolic's assumption). */
  private void noInfo(long address, long len) {
    if (arch == CfiArch.X86_64) {
      emit(address, len, ".cfa: $rsp 8 + .ra: .cfa -8 + ^");
    } else if (arch == CfiArch.ARM64) {
      emit(address, len, ".cfa: sp .ra: x30");
    }
  }

  private void dwarfFde(long address, long len, int offset) {
    if (ehFrame == null) {
      return;
    }
    String symbol = symbolAt == null ? null : symbolAt.apply(address);
    if ("_sigtramp".equals(symbol) && arch == CfiArch.X86_64) {
      // libsystem's _sigtramp restores registers from the signal's machine context through
      // DWARF expressions Breakpad cannot say; these are the equivalent rules symbolic writes
      Fde fde;
      try {
        fde = ehFrame.section.fdeAt(offset);
      } catch (CfiException e) {
        return;
      }
      if (fde == null) {
        return;
      }
      String mc = "$rbx 48 + ^ ";
      emit(
          address,
          len,
          "$rbx: "
              + mc
              + "24 + ^ $rbp: "
              + mc
              + "64 + ^ $r12: "
              + mc
              + "112 + ^ $r13: "
              + mc
              + "120 + ^ $r14: "
              + mc
              + "128 + ^ $r15: "
              + mc
              + "136 + ^ .cfa: "
              + mc
              + "72 + ^ .ra: "
              + mc
              + "144 + ^");
      return;
    }
    ehFrame.emitAt(offset);
  }

  private static final long CFA = -1;
  private static final long RA = -2;
  private static final long SP = -3;
  private static final long FP = -4;
  private static final long LR = -5;

  /** One op: dest = src + offset, dereferenced when {@code at}. */
  private record Op(long dest, long src, long offset, boolean at) {}

  private List<Op> x86Frame(int opcode) {
    int ptr = arch.pointerSize();
    List<Op> ops = new ArrayList<>();
    ops.add(new Op(CFA, FP, 2L * ptr, false));
    ops.add(new Op(FP, CFA, -2L * ptr, true));
    ops.add(new Op(RA, CFA, -ptr, true));
    int offset = ((opcode >>> 16) & 0xFF) + 2;
    for (int i = 0; i < 5; i++) {
      int reg = (opcode >>> (3 * i)) & 7;
      if (reg >= 1 && reg <= 6) {
        ops.add(new Op(reg, CFA, -(long) (offset - i) * ptr, true));
      }
    }
    return ops;
  }

  private List<Op> x86Frameless(int opcode) {
    int ptr = arch.pointerSize();
    List<Op> ops = new ArrayList<>();
    int stackSize = (opcode >>> 16) & 0xFF;
    ops.add(new Op(CFA, SP, (long) stackSize * ptr, false));
    ops.add(new Op(RA, CFA, -ptr, true));
    int[] regs = framelessRegisters(opcode);
    int offset = 2;
    for (int i = regs.length - 1; i >= 0; i--) {
      if (regs[i] >= 1 && regs[i] <= 6) {
        ops.add(new Op(regs[i], CFA, -(long) offset * ptr, true));
        offset++;
      }
    }
    return ops;
  }

  /** The saved registers of a frameless x86 opcode: a permutation packed into 10 bits. */
  private static int[] framelessRegisters(int opcode) {
    int count = Math.min(6, (opcode >>> 10) & 7);
    int perm = opcode & 0x3FF;
    int[] un = new int[6];
    int[][] factors = {
      {}, {1}, {5, 1}, {20, 4, 1}, {60, 12, 3, 1}, {120, 24, 6, 2, 1}, {120, 24, 6, 2, 1}
    };
    int[] f = factors[count];
    for (int i = 0; i < f.length; i++) {
      un[i] = perm / f[i];
      perm -= un[i] * f[i];
    }
    int[] regs = new int[6];
    boolean[] used = new boolean[7];
    for (int i = 0; i < count; i++) {
      int renum = 0;
      for (int j = 1; j < 7; j++) {
        if (!used[j]) {
          if (renum == un[i]) {
            regs[i] = j;
            used[j] = true;
            break;
          }
          renum++;
        }
      }
    }
    return regs;
  }

  private static List<Op> arm64Frameless(int opcode) {
    List<Op> ops = new ArrayList<>();
    ops.add(new Op(CFA, SP, ((opcode >>> 12) & 0xFFF) * 16L, false));
    ops.add(new Op(RA, LR, 0, false));
    return ops;
  }

  private static List<Op> arm64Frame(int opcode) {
    List<Op> ops = new ArrayList<>();
    ops.add(new Op(CFA, FP, 16, false));
    ops.add(new Op(FP, CFA, -16, true));
    ops.add(new Op(RA, CFA, -8, true));
    int saved = 0;
    for (int pair = 0; pair < 9; pair++) {
      if ((opcode & (1 << pair)) != 0) {
        ops.add(new Op(100 + pair * 2, CFA, (-2L * saved - 3) * 8, true));
        ops.add(new Op(101 + pair * 2, CFA, (-2L * saved - 4) * 8, true));
        saved++;
      }
    }
    return ops;
  }

  private void rules(long address, long len, List<Op> ops) {
    StringBuilder sb = new StringBuilder();
    for (Op op : ops) {
      sb.append(name(op.dest()))
          .append(": ")
          .append(name(op.src()))
          .append(' ')
          .append(op.offset())
          .append(" + ");
      if (op.at()) {
        sb.append("^ ");
      }
    }
    emit(address, len, sb.toString().stripTrailing());
  }

  private String name(long reg) {
    if (reg == CFA) {
      return ".cfa";
    }
    if (reg == RA) {
      return ".ra";
    }
    if (arch == CfiArch.ARM64) {
      if (reg == SP) {
        return "sp";
      }
      if (reg == FP) {
        return "x29";
      }
      if (reg == LR) {
        return "x30";
      }
      int n = (int) reg - 100; // pairs x19/x20 .. x27/x28, then d8/d9 .. (symbolic's numbering)
      return n < 10 ? "x" + (19 + n) : "d" + (8 + n - 10);
    }
    String[] x64 = {null, "rbx", "r12", "r13", "r14", "r15", "rbp"};
    String[] x86 = {null, "ebx", "ecx", "edx", "edi", "esi", "ebp"};
    if (reg == SP) {
      return arch == CfiArch.X86 ? "$esp" : "$rsp";
    }
    if (reg == FP) {
      return arch == CfiArch.X86 ? "$ebp" : "$rbp";
    }
    return "$" + (arch == CfiArch.X86 ? x86 : x64)[(int) reg];
  }

  private void emit(long address, long len, String rules) {
    byte[] b = rules.getBytes(StandardCharsets.US_ASCII);
    out.stackCfiInit(address, len, b, 0, b.length);
    records++;
  }
}

package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads DWARF call frame information ({@code .debug_frame} and {@code .eh_frame}) into Breakpad
 * {@code STACK CFI} records, as symbolic's {@code AsciiCfiWriter} does (Mozilla's dump_syms
 * writes its CFI with it): {@code .debug_frame} first, then {@code .eh_frame}, each FDE in section
 * order, addresses made relative to the module's load address. A bad entry is skipped with its
 * reason counted in the {@link Summary}; nothing in the input can make the reader loop or
 * allocate beyond a small multiple of the section.
 */
public final class DwarfCfiReader {
  /** Reasons kept in a summary; the count goes on. */
  private static final int MAX_REASONS = 16;

  /** What a read produced: FDEs turned into records, and those skipped with why (the first few). */
  public record Summary(int fdes, int records, int skipped, List<String> reasons) {}

  private final CfiArch arch;
  private final long loadAddress;
  private final SymHandler out;
  private final boolean undefinedKeepsRule;
  private int fdes;
  private int records;
  private int skipped;
  private final List<String> reasons = new ArrayList<>();

  private DwarfCfiReader(CfiArch arch, long loadAddress, boolean mozilla, SymHandler out) {
    this.arch = arch;
    this.loadAddress = loadAddress;
    this.undefinedKeepsRule = !mozilla;
    this.out = out;
  }

  /**
   * Writes the records of {@code .debug_frame} and then {@code .eh_frame}. {@code loadAddress} is
   * the module's lowest load address (the first {@code PT_LOAD}'s, 0 for most shared objects),
   * which Breakpad's addresses are relative to; FDEs below it are dropped, as symbolic drops them.
   */
  public static Summary read(
      ObjectSections sections, CfiArch arch, long loadAddress, SymHandler out) {
    return read(sections, arch, loadAddress, true, out);
  }

  /**
   * {@link #read} in Mozilla's dialect ({@code mozilla}) or Breakpad's, whose dump_syms ignores
   * {@code DW_CFA_undefined} (the register keeps its earlier rule: {@code _start}'s INIT record
   * then carries the CIE's {@code .ra}, and Breakpad's walker unwinds through it).
   */
  public static Summary read(
      ObjectSections sections, CfiArch arch, long loadAddress, boolean mozilla, SymHandler out) {
    DwarfCfiReader r = new DwarfCfiReader(arch, loadAddress, mozilla, out);
    Optional<Section> debugFrame = sections.section(".debug_frame");
    debugFrame.ifPresent(s -> r.section(s, FrameSection.Kind.DEBUG_FRAME));
    Optional<Section> ehFrame = sections.section(".eh_frame");
    ehFrame.ifPresent(s -> r.section(s, FrameSection.Kind.EH_FRAME));
    return r.summary();
  }

  /** One section alone ({@code .eh_frame} or {@code .debug_frame}, told by {@code ehFrame}). */
  public static Summary readSection(
      Section section, boolean ehFrame, CfiArch arch, long loadAddress, SymHandler out) {
    DwarfCfiReader r = new DwarfCfiReader(arch, loadAddress, true, out);
    r.section(section, ehFrame ? FrameSection.Kind.EH_FRAME : FrameSection.Kind.DEBUG_FRAME);
    return r.summary();
  }

  private Summary summary() {
    return new Summary(fdes, records, skipped, List.copyOf(reasons));
  }

  private void section(Section section, FrameSection.Kind kind) {
    Frames frames = new Frames(section, kind);
    frames.section.forEach(
        new FrameSection.Visitor() {
          @Override
          public void fde(Fde fde) {
            frames.emit(fde);
          }

          @Override
          public void skipped(int offset, String reason) {
            skip(section.name(), offset, reason);
          }
        });
  }

  /** A reader for the FDEs of {@code .eh_frame} that compact unwind info points at. */
  static DwarfCfiReader forCompactUnwind(CfiArch arch, long loadAddress, SymHandler out) {
    return new DwarfCfiReader(arch, loadAddress, true, out);
  }

  void readAll(Section section, boolean ehFrame) {
    section(section, ehFrame ? FrameSection.Kind.EH_FRAME : FrameSection.Kind.DEBUG_FRAME);
  }

  Frames frames(Section section, FrameSection.Kind kind) {
    return new Frames(section, kind);
  }

  void skip(String section, int offset, String reason) {
    skipped++;
    if (reasons.size() < MAX_REASONS) {
      reasons.add(section + "+0x" + Integer.toHexString(offset) + ": " + reason);
    }
  }

  void countRecords(int n) {
    records += n;
  }

  Summary summaryNow() {
    return summary();
  }

  /** One section's FDEs, with the CIE states they share. */
  final class Frames {
    final FrameSection section;
    private final String name;
    private final PointerEncoding.Bases bases;
    private final Map<Integer, Object> initials = new HashMap<>();

    Frames(Section s, FrameSection.Kind kind) {
      this.name = s.name();
      this.bases = new PointerEncoding.Bases(s.address(), null, null);
      this.section = new FrameSection(s, kind, arch.pointerSize(), bases);
    }

    /** The FDE at a section offset, written out; false when there is none usable. */
    boolean emitAt(int offset) {
      Fde fde;
      try {
        fde = section.fdeAt(offset);
      } catch (CfiException e) {
        skip(name, offset, "FDE: " + e.getMessage());
        return false;
      }
      if (fde == null) {
        return false;
      }
      return emit(fde);
    }

    boolean emit(Fde fde) {
      try {
        write(fde);
        return true;
      } catch (CfiException e) {
        skip(name, fde.offset(), "FDE: " + e.getMessage());
        return false;
      }
    }

    private void write(Fde fde) {
      Cie cie = fde.cie();
      boolean aarch64 = arch == CfiArch.ARM64;
      Object init = initials.get(cie.offset());
      if (init == null) {
        try {
          init = CfiMachine.initialize(section.data(), cie, aarch64, bases, undefinedKeepsRule);
        } catch (CfiException e) {
          init = e;
        }
        initials.put(cie.offset(), init);
      }
      if (init instanceof CfiException e) {
        throw new CfiException("CIE instructions: " + e.getMessage());
      }
      if (Long.compareUnsigned(fde.initialAddress(), loadAddress) < 0) {
        return; // below the module: a dead function's leftover (symbolic skips these)
      }
      BreakpadRuleWriter writer =
          new BreakpadRuleWriter(arch, cie.returnAddressRegister(), loadAddress, fde);
      CfiMachine.run(
          section.data(),
          fde,
          (CfiMachine.Initial) init,
          aarch64,
          bases,
          undefinedKeepsRule,
          writer);
      fdes++;
      for (BreakpadRuleWriter.Record rec : writer.records()) {
        byte[] b = BreakpadRuleWriter.bytes(rec.rules());
        if (rec.init()) {
          out.stackCfiInit(rec.address(), rec.size(), b, 0, b.length);
        } else {
          out.stackCfiDelta(rec.address(), b, 0, b.length);
        }
        records++;
      }
    }
  }
}

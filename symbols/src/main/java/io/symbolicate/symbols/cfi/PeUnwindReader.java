package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.PeFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The unwind info of a Windows x64 or arm64 image (its exception directory, {@code .pdata}, and
 * the {@code UNWIND_INFO}/{@code .xdata} records it points at) into {@code STACK CFI INIT}
 * records, as symbolic's {@code AsciiCfiWriter} writes them (Mozilla's dump_syms writes a PE's CFI
 * with it): one INIT record per {@code RUNTIME_FUNCTION} in directory order, x64 unwind codes
 * applied in prolog order along the whole chain of {@code UNW_FLAG_CHAININFO} entries. A bad
 * entry (unwind info outside its section, codes past their count, an unknown code, a chain that
 * loops or runs longer than {@link #MAX_CHAIN}) is skipped with its reason in the summary where
 * symbolic would give up on the whole image; arm64 is read by {@link Arm64UnwindReader}.
 */
public final class PeUnwindReader {
  /** Links of a chain followed before it is refused (real chains have one or two). */
  static final int MAX_CHAIN = 32;

  /** Unwind codes applied for one function along its chain (real ones have a few dozen). */
  static final int MAX_CODES = 512;

  /**
   * Records per exception-directory entry an image may produce: the longest packed arm64 prolog
   * has 18 instructions, real images average under 5.
   */
  static final int RECORDS_PER_ENTRY = 24;

  private static final int MAX_REASONS = 16;
  private static final String[] X64_REGISTERS = {
    "$rax", "$rcx", "$rdx", "$rbx", "$rsp", "$rbp", "$rsi", "$rdi",
    "$r8", "$r9", "$r10", "$r11", "$r12", "$r13", "$r14", "$r15"
  };

  private final RvaReader image;
  private final SymHandler out;
  private long recordBudget;
  private int functions;
  private int records;
  private int skipped;
  private final List<String> reasons = new ArrayList<>();

  PeUnwindReader(RvaReader image, SymHandler out) {
    this.image = image;
    this.out = out;
  }

  /**
   * The records of an x64 or arm64 image's exception directory; an empty summary for other
   * machines and images without one. An exception directory that cannot be read at all is one
   * skipped entry with its reason.
   */
  public static DwarfCfiReader.Summary read(PeFile pe, SymHandler out) {
    long[] dir = pe.exceptionDirectory();
    boolean arm64 = pe.machine() == PeFile.MACHINE_ARM64;
    if (dir[0] == 0 || dir[1] == 0 || (pe.machine() != PeFile.MACHINE_AMD64 && !arm64)) {
      return new DwarfCfiReader.Summary(0, 0, 0, List.of());
    }
    return arm64
        ? readArm64(pe::rvaBytes, dir[0], dir[1], out)
        : readX64(pe::rvaBytes, dir[0], dir[1], out);
  }

  /** The records of x64 {@code .pdata} of {@code size} bytes at {@code rva}. */
  public static DwarfCfiReader.Summary readX64(
      RvaReader image, long rva, long size, SymHandler out) {
    PeUnwindReader r = new PeUnwindReader(image, out);
    ByteBuffer pdata = r.directory(rva, size, 12);
    if (pdata != null) {
      r.recordBudget = RECORDS_PER_ENTRY * (size / 12) + 1024;
      for (int at = 0; at + 12 <= pdata.limit(); at += 12) {
        r.x64Function(
            pdata.getInt(at) & 0xffffffffL,
            pdata.getInt(at + 4) & 0xffffffffL,
            pdata.getInt(at + 8) & 0xffffffffL,
            at);
      }
    }
    return r.summary();
  }

  /** The records of arm64 {@code .pdata} of {@code size} bytes at {@code rva}. */
  public static DwarfCfiReader.Summary readArm64(
      RvaReader image, long rva, long size, SymHandler out) {
    PeUnwindReader r = new PeUnwindReader(image, out);
    ByteBuffer pdata = r.directory(rva, size, 8);
    if (pdata != null) {
      r.recordBudget = RECORDS_PER_ENTRY * (size / 8) + 1024;
      Arm64UnwindReader arm = new Arm64UnwindReader(image, r);
      for (int at = 0; at + 8 <= pdata.limit(); at += 8) {
        arm.function(pdata.getInt(at) & 0xffffffffL, pdata.getInt(at + 4) & 0xffffffffL, at);
      }
    }
    return r.summary();
  }

  /** The exception directory's bytes, or null (with the reason counted) when unreadable. */
  private ByteBuffer directory(long rva, long size, int entry) {
    if (size % entry != 0) {
      skip(
          0,
          "exception directory of "
              + size
              + " bytes is no whole number of "
              + entry
              + "-byte entries");
      return null;
    }
    try {
      return image.bytes(rva, size, "exception directory");
    } catch (ObjectFormatException | CfiException e) {
      skip(0, e.getMessage());
      return null;
    }
  }

  DwarfCfiReader.Summary summary() {
    return new DwarfCfiReader.Summary(functions, records, skipped, List.copyOf(reasons));
  }

  void countFunction() {
    functions++;
  }

  void skip(int entryOffset, String reason) {
    skipped++;
    if (reasons.size() < MAX_REASONS) {
      reasons.add(".pdata+0x" + Integer.toHexString(entryOffset) + ": " + reason);
    }
  }

  /** Refuses a function whose {@code n} records would pass the image's record budget. */
  void reserve(int n) {
    if (records + n > recordBudget) {
      throw new CfiException(
          "more than " + RECORDS_PER_ENTRY + " records per exception directory entry");
    }
  }

  void emitInit(long address, long size, String rules) {
    byte[] b = rules.getBytes(StandardCharsets.US_ASCII);
    out.stackCfiInit(address, size, b, 0, b.length);
    records++;
  }

  void emitDelta(long address, String rules) {
    byte[] b = rules.getBytes(StandardCharsets.US_ASCII);
    out.stackCfiDelta(address, b, 0, b.length);
    records++;
  }

  private void x64Function(long begin, long end, long unwind, int entry) {
    if (begin == 0 && end == 0 && unwind == 0) {
      return; // zeroed padding entries, as symbolic skips them
    }
    functions++;
    if (end < begin) {
      skip(entry, "function ends (0x" + Long.toHexString(end) + ") before it begins");
      return;
    }
    try {
      String rules = x64Rules(unwind);
      reserve(1);
      emitInit(begin, end - begin, rules);
    } catch (ObjectFormatException | CfiException e) {
      skip(entry, e.getMessage());
    }
  }

  /**
   * The rules symbolic writes for the function whose unwind info is at {@code unwind}: the
   * stack size grows by each push and allocation in prolog order (codes are stored last first),
   * registers saved by push or move are found from the CFA, a frame register becomes the CFA's
   * base, a machine frame gives {@code $rsp} and the return address.
   */
  private String x64Rules(long unwind) {
    int stack = 8; // the return address
    int machineFrame = 0;
    StringBuilder cfa = new StringBuilder();
    StringBuilder saved = new StringBuilder();
    Set<Long> seen = new HashSet<>();
    int applied = 0;
    long next = unwind;
    for (int link = 0; ; link++) {
      if (link == MAX_CHAIN) {
        throw new CfiException("unwind chain longer than " + MAX_CHAIN + " links");
      }
      long infoRva = resolveIndirect(next);
      if (!seen.add(infoRva)) {
        throw new CfiException(
            "unwind chain loops back to UNWIND_INFO at 0x" + Long.toHexString(infoRva));
      }
      X64UnwindInfo info = X64UnwindInfo.read(image, infoRva);
      if (info.codeError() != null) {
        throw new CfiException("unwind codes do not decode: " + info.codeError());
      }
      List<X64UnwindInfo.Op> codes = info.codes();
      applied += codes.size();
      if (applied > MAX_CODES) {
        throw new CfiException("more than " + MAX_CODES + " unwind codes along the chain");
      }
      for (int i = codes.size() - 1; i >= 0; i--) {
        X64UnwindInfo.Op op = codes.get(i);
        switch (op.kind()) {
          case SAVE_NONVOL -> {
            if (info.frameRegister() == 0) {
              saved.append(' ').append(X64_REGISTERS[op.reg()]).append(": .cfa ");
              saved.append(stack - (int) op.value()).append(" - ^");
            } else {
              saved.append(' ').append(X64_REGISTERS[op.reg()]).append(": ");
              saved.append(X64_REGISTERS[info.frameRegister()]).append(' ');
              saved.append((int) (op.value() - info.frameOffset())).append(" + ^");
            }
          }
          case PUSH -> {
            stack += 8;
            saved.append(' ').append(X64_REGISTERS[op.reg()]).append(": .cfa ");
            saved.append(stack).append(" - ^");
          }
          case ALLOC -> stack += (int) op.value();
          case SET_FPREG -> {
            // symbolic appends a second rule here; one CFA rule is what a walker can use
            if (cfa.isEmpty()) {
              cfa.append(".cfa: ").append(X64_REGISTERS[info.frameRegister()]).append(' ');
              cfa.append(stack - info.frameOffset()).append(" +");
            }
          }
          case MACHFRAME -> {
            saved.append(" $rsp: .cfa ").append(stack + 16).append(" - ^ .ra: .cfa ");
            saved.append(stack + 40).append(" - ^");
            stack += 40;
            machineFrame = stack;
            stack += op.reg() == 1 ? 8 : 0;
          }
          default -> {} // XMM saves and epilog markers leave RSP alone
        }
      }
      if (info.chained() == null) {
        break;
      }
      next = info.chained()[2];
    }
    if (cfa.isEmpty()) {
      cfa.append(".cfa: $rsp ").append(stack).append(" +");
    }
    if (machineFrame == 0) {
      saved.append(" .ra: .cfa 8 - ^");
    }
    return cfa.append(saved).toString();
  }

  /**
   * An unwind-info address with bit 0 set names another {@code RUNTIME_FUNCTION} (at the address
   * without it) whose unwind info is meant; followed a bounded number of times.
   */
  private long resolveIndirect(long unwind) {
    long at = unwind;
    for (int hop = 0; (at & 1) != 0; hop++) {
      if (hop == MAX_CHAIN) {
        throw new CfiException("indirect RUNTIME_FUNCTION references loop");
      }
      ByteBuffer rf = image.bytes(at & ~1L, 12, "indirect RUNTIME_FUNCTION");
      at = rf.getInt(8) & 0xffffffffL;
    }
    return at;
  }
}

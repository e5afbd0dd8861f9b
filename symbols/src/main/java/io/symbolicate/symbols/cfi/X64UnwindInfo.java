package io.symbolicate.symbols.cfi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One x64 {@code UNWIND_INFO} (versions 1 and 2) with its unwind codes decoded the way goblin
 * (which symbolic and so Mozilla's dump_syms read PE files with) decodes them: {@code
 * UWOP_SAVE_XMM}/{@code UWOP_SAVE_XMM_FAR} of version 1 are {@code UWOP_EPILOG} and a no-op of
 * four bytes in version 2; an unknown code, a bad operation info or a code running past the
 * declared count fails the whole list. The code array is at most 255 slots (its count is a
 * byte), so nothing here is allocated from a large claimed count.
 */
record X64UnwindInfo(
    int version,
    int flags,
    int prologSize,
    int frameRegister,
    int frameOffset,
    List<Op> codes,
    String codeError,
    long[] chained) {

  static final int UWOP_PUSH_NONVOL = 0;
  static final int UWOP_ALLOC_LARGE = 1;
  static final int UWOP_ALLOC_SMALL = 2;
  static final int UWOP_SET_FPREG = 3;
  static final int UWOP_SAVE_NONVOL = 4;
  static final int UWOP_SAVE_NONVOL_FAR = 5;
  static final int UWOP_EPILOG = 6; // UWOP_SAVE_XMM in version 1
  static final int UWOP_SPARE_CODE = 7; // UWOP_SAVE_XMM_FAR in version 1
  static final int UWOP_SAVE_XMM128 = 8;
  static final int UWOP_SAVE_XMM128_FAR = 9;
  static final int UWOP_PUSH_MACHFRAME = 10;

  static final int UNW_FLAG_EHANDLER = 1;
  static final int UNW_FLAG_UHANDLER = 2;
  static final int UNW_FLAG_CHAININFO = 4;

  /** What an unwind code does to the frame, reduced to what the CFI needs. */
  enum Kind {
    PUSH,
    ALLOC,
    SET_FPREG,
    SAVE_NONVOL,
    SAVE_XMM,
    MACHFRAME,
    NOP
  }

  /**
   * A decoded unwind code: {@code reg} is the register (0-15) or, for {@code MACHFRAME}, 1 when
   * an error code was pushed; {@code value} the allocation size or save offset (unsigned 32-bit).
   */
  record Op(int codeOffset, Kind kind, int reg, long value) {}

  /** Reads the {@code UNWIND_INFO} at {@code rva}. */
  static X64UnwindInfo read(RvaReader image, long rva) {
    ByteBuffer head = image.bytes(rva, 4, "UNWIND_INFO");
    int versionFlags = head.get(0) & 0xff;
    int version = versionFlags & 7;
    int flags = versionFlags >>> 3;
    if (version < 1 || version > 2) {
      throw new CfiException("UNWIND_INFO version " + version + " (only 1 and 2 exist)");
    }
    int prolog = head.get(1) & 0xff;
    int count = head.get(2) & 0xff;
    int frame = head.get(3) & 0xff;
    ByteBuffer codeBytes = count == 0 ? null : image.bytes(rva + 4, 2L * count, "unwind codes");
    List<Op> ops = new ArrayList<>();
    String error = codeBytes == null ? null : decode(codeBytes, 2 * count, version, ops);
    long[] chained = null;
    if ((flags & UNW_FLAG_CHAININFO) != 0) {
      long at = rva + 4 + 2L * (count + (count & 1));
      ByteBuffer rf = image.bytes(at, 12, "chained RUNTIME_FUNCTION");
      chained =
          new long[] {
            rf.getInt(0) & 0xffffffffL, rf.getInt(4) & 0xffffffffL, rf.getInt(8) & 0xffffffffL
          };
    }
    return new X64UnwindInfo(
        version, flags, prolog, frame & 0xf, (frame >>> 4) * 16, ops, error, chained);
  }

  /** Decodes the code slots into {@code ops}; returns why they do not decode, or null. */
  private static String decode(ByteBuffer b, int len, int version, List<Op> ops) {
    int at = 0;
    while (at < len) {
      if (len - at < 2) {
        return "unwind code cut short at slot " + at / 2;
      }
      int codeOffset = b.get(at) & 0xff;
      int op = b.get(at + 1) & 0xff;
      int code = op & 0xf;
      int info = op >>> 4;
      at += 2;
      long value;
      Kind kind;
      int extra;
      switch (code) {
        case UWOP_PUSH_NONVOL -> {
          kind = Kind.PUSH;
          value = 0;
          extra = 0;
        }
        case UWOP_ALLOC_LARGE -> {
          kind = Kind.ALLOC;
          if (info == 0) {
            extra = 2;
          } else if (info == 1) {
            extra = 4;
          } else {
            return "UWOP_ALLOC_LARGE with operation info " + info;
          }
          if (len - at < extra) {
            return "UWOP_ALLOC_LARGE runs past the unwind codes";
          }
          value = info == 0 ? (b.getShort(at) & 0xffffL) * 8 : b.getInt(at) & 0xffffffffL;
        }
        case UWOP_ALLOC_SMALL -> {
          kind = Kind.ALLOC;
          value = info * 8L + 8;
          extra = 0;
        }
        case UWOP_SET_FPREG -> {
          kind = Kind.SET_FPREG;
          value = 0;
          extra = 0;
        }
        case UWOP_SAVE_NONVOL, UWOP_SAVE_XMM128 -> {
          kind = code == UWOP_SAVE_NONVOL ? Kind.SAVE_NONVOL : Kind.SAVE_XMM;
          extra = 2;
          if (len - at < extra) {
            return "unwind code " + code + " runs past the unwind codes";
          }
          value = (b.getShort(at) & 0xffffL) * (code == UWOP_SAVE_NONVOL ? 8 : 16);
        }
        case UWOP_SAVE_NONVOL_FAR, UWOP_SAVE_XMM128_FAR -> {
          kind = code == UWOP_SAVE_NONVOL_FAR ? Kind.SAVE_NONVOL : Kind.SAVE_XMM;
          extra = 4;
          if (len - at < extra) {
            return "unwind code " + code + " runs past the unwind codes";
          }
          value = b.getInt(at) & 0xffffffffL;
        }
        case UWOP_EPILOG -> {
          if (version == 1) { // UWOP_SAVE_XMM
            extra = 2;
            if (len - at < extra) {
              return "UWOP_SAVE_XMM runs past the unwind codes";
            }
            kind = Kind.SAVE_XMM;
            value = (b.getShort(at) & 0xffffL) * 16;
          } else {
            kind = Kind.NOP; // where an epilog is, not what it does
            value = 0;
            extra = 0;
          }
        }
        case UWOP_SPARE_CODE -> {
          extra = 4;
          if (len - at < extra) {
            return "unwind code 7 runs past the unwind codes";
          }
          kind = version == 1 ? Kind.SAVE_XMM : Kind.NOP;
          value = b.getInt(at) & 0xffffffffL;
        }
        case UWOP_PUSH_MACHFRAME -> {
          if (info > 1) {
            return "UWOP_PUSH_MACHFRAME with operation info " + info;
          }
          kind = Kind.MACHFRAME;
          value = 0;
          extra = 0;
        }
        default -> {
          return "unknown unwind code " + code;
        }
      }
      at += extra;
      ops.add(new Op(codeOffset, kind, info, value));
    }
    return null;
  }
}

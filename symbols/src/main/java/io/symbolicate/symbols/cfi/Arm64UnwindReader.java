package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.objects.ObjectFormatException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Windows arm64 unwind info into STACK CFI records, as symbolic writes them: for an entry whose
 * {@code .xdata} record holds the unwind codes, the prolog's codes (those before the first {@code
 * end}) in prolog order, one per 4-byte instruction, the first as the INIT record and each later
 * one as a delta at its instruction; stack allocations move the CFA ({@code .sp N +}), register
 * saves are found from the CFA, {@code lr} saved makes {@code .ra} read from the stack. Entries
 * with packed unwind data get the records of the canonical prolog their fields stand for (symbolic
 * writes none for them). The function's size is the one the {@code .xdata} header or the packed
 * entry states (symbolic takes bits of the record's RVA for it, see docs/native.md).
 */
final class Arm64UnwindReader {
  /** Prolog codes of one function written before it is refused (real prologs: under 40). */
  static final int MAX_CODES = 128;

  private final RvaReader image;
  private final PeUnwindReader out;

  Arm64UnwindReader(RvaReader image, PeUnwindReader out) {
    this.image = image;
    this.out = out;
  }

  void function(long begin, long unwindData, int entry) {
    out.countFunction();
    int flag = (int) (unwindData & 3);
    if (flag != 0) {
      try {
        List<int[]> codes = packedCodes(unwindData);
        out.reserve(codes.size());
        write(begin, (unwindData >>> 2 & 0x7ff) * 4, codes, flag == 2);
      } catch (CfiException e) {
        out.skip(entry, e.getMessage());
      }
      return;
    }
    try {
      long xdata = unwindData & ~3L;
      ByteBuffer head = image.bytes(xdata, 4, ".xdata header");
      long h = head.getInt(0) & 0xffffffffL;
      long length = (h & 0x3ffff) * 4;
      int version = (int) (h >>> 18) & 3;
      if (version != 0) {
        throw new CfiException(".xdata version " + version);
      }
      boolean epilogInHeader = (h >>> 21 & 1) != 0;
      long epilogs = h >>> 22 & 0x1f;
      long words = h >>> 27 & 0x1f;
      long at = xdata + 4;
      if (epilogs == 0 && words == 0) {
        long ext = image.bytes(at, 4, ".xdata extension").getInt(0) & 0xffffffffL;
        epilogs = ext & 0xffff;
        words = ext >>> 16 & 0xff;
        at += 4;
      }
      if (!epilogInHeader) {
        at += epilogs * 4;
      }
      ByteBuffer codes =
          words == 0 ? ByteBuffer.allocate(0) : image.bytes(at, words * 4, "unwind codes");
      List<int[]> prolog = decode(codes);
      out.reserve(prolog.size());
      write(begin, length, prolog, false);
    } catch (ObjectFormatException | CfiException e) {
      out.skip(entry, e.getMessage());
    }
  }

  // code kinds
  private static final int ALLOC = 0;
  private static final int SAVE = 1; // reg type, reg, offset, pair, preindexed
  private static final int SAVE_LR_PAIR = 2;
  private static final int SAVE_NEXT = 3;
  private static final int OTHER = 4; // type: 1 set_fp, 2 pac_sign_lr, 0 anything else
  private static final int HOME = 5; // a packed function's stores of x0..x7: no rule to write

  private static final int X = 0;
  private static final int D = 1;
  private static final int Q = 2;

  /**
   * The codes up to the first {@code end}/{@code end_c}, decoded as goblin decodes them; each is
   * {kind, type, reg, offset, pair, preindexed}.
   */
  private static List<int[]> decode(ByteBuffer b) {
    List<int[]> codes = new ArrayList<>();
    int at = 0;
    int n = b.limit();
    while (at < n) {
      int b0 = b.get(at) & 0xff;
      int len;
      int[] c;
      if (b0 <= 0x1f) {
        c = new int[] {ALLOC, 0, 0, (b0 & 0x1f) * 16, 0, 0};
        len = 1;
      } else if (b0 <= 0x3f) {
        c = new int[] {SAVE, X, 19, (b0 & 0x1f) * 8, 1, 1};
        len = 1;
      } else if (b0 <= 0x7f) {
        c = new int[] {SAVE, X, 29, (b0 & 0x3f) * 8, 1, 0};
        len = 1;
      } else if (b0 <= 0xbf) {
        c = new int[] {SAVE, X, 29, ((b0 & 0x3f) + 1) * 8, 1, 1};
        len = 1;
      } else if (b0 <= 0xc7) {
        int b1 = byteAt(b, at + 1, "alloc_m");
        c = new int[] {ALLOC, 0, 0, (((b0 & 7) << 8) | b1) * 16, 0, 0};
        len = 2;
      } else if (b0 <= 0xd5 || (b0 >= 0xd8 && b0 <= 0xde)) {
        int b1 = byteAt(b, at + 1, "register save");
        c = registerSave(b0, b1);
        len = 2;
      } else if (b0 <= 0xd7) {
        int b1 = byteAt(b, at + 1, "save_lrpair");
        int x = ((b0 & 1) << 2) | (b1 >>> 6 & 3);
        c = new int[] {SAVE_LR_PAIR, X, 19 + 2 * x, (b1 & 0x3f) * 8, 1, 0};
        len = 2;
      } else if (b0 == 0xdf) {
        byteAt(b, at + 1, "alloc_z");
        c = new int[] {OTHER, 0, 0, 0, 0, 0};
        len = 2;
      } else if (b0 == 0xe0) {
        int v =
            byteAt(b, at + 1, "alloc_l") << 16
                | byteAt(b, at + 2, "alloc_l") << 8
                | byteAt(b, at + 3, "alloc_l");
        c = new int[] {ALLOC, 0, 0, v * 16, 0, 0};
        len = 4;
      } else if (b0 == 0xe2) {
        byteAt(b, at + 1, "add_fp");
        c = new int[] {OTHER, 0, 0, 0, 0, 0};
        len = 2;
      } else if (b0 == 0xe4 || b0 == 0xe5) {
        break; // end, end_c: what follows belongs to epilogs
      } else if (b0 == 0xe6) {
        c = new int[] {SAVE_NEXT, 0, 0, 0, 0, 0};
        len = 1;
      } else if (b0 == 0xe7) {
        int b1 = byteAt(b, at + 1, "save_any_reg");
        if ((b1 & 0x80) != 0) {
          c = new int[] {OTHER, 0, 0, 0, 0, 0};
          len = 2;
        } else {
          int b2 = byteAt(b, at + 2, "save_any_reg");
          int cls = b2 >>> 6 & 3;
          boolean p = (b1 >>> 6 & 1) != 0;
          boolean x = (b1 >>> 5 & 1) != 0;
          if (cls == 3) {
            c = new int[] {OTHER, 0, 0, 0, 0, 0}; // SVE registers
          } else {
            int o = b2 & 0x3f;
            int offset = cls == 2 || p || x ? o * 16 : o * 8;
            c = new int[] {SAVE, cls, b1 & 0x1f, offset, p ? 1 : 0, x ? 1 : 0};
          }
          len = 3;
        }
      } else if (b0 == 0xf8) {
        byteAt(b, at + 1, "reserved code");
        c = new int[] {OTHER, 0, 0, 0, 0, 0};
        len = 2;
      } else if (b0 >= 0xf9 && b0 <= 0xfb) {
        len = b0 - 0xf9 + 3;
        byteAt(b, at + len - 1, "reserved code");
        c = new int[] {OTHER, 0, 0, 0, 0, 0};
      } else { // set_fp, nop, custom stacks, pac_sign_lr, ...
        c = new int[] {OTHER, b0 == 0xe1 ? 1 : b0 == 0xfc ? 2 : 0, 0, 0, 0, 0};
        len = 1;
      }
      if (codes.size() == MAX_CODES) {
        throw new CfiException("more than " + MAX_CODES + " prolog codes");
      }
      codes.add(c);
      at += len;
    }
    return codes;
  }

  /** {@code save_regp(_x)}, {@code save_reg(_x)}, {@code save_fregp(_x)}, {@code save_freg(_x)}. */
  private static int[] registerSave(int b0, int b1) {
    int z6 = b1 & 0x3f;
    if (b0 <= 0xcb) {
      return new int[] {SAVE, X, 19 + (((b0 & 3) << 2) | (b1 >>> 6)), z6 * 8, 1, 0};
    }
    if (b0 <= 0xcf) {
      return new int[] {SAVE, X, 19 + (((b0 & 3) << 2) | (b1 >>> 6)), (z6 + 1) * 8, 1, 1};
    }
    if (b0 <= 0xd3) {
      return new int[] {SAVE, X, 19 + (((b0 & 3) << 2) | (b1 >>> 6)), z6 * 8, 0, 0};
    }
    if (b0 <= 0xd5) {
      int x = ((b0 & 1) << 3) | (b1 >>> 5 & 7);
      return new int[] {SAVE, X, 19 + x, ((b1 & 0x1f) + 1) * 8, 0, 1};
    }
    int x3 = ((b0 & 1) << 2) | (b1 >>> 6 & 3);
    return switch (b0) {
      case 0xd8, 0xd9 -> new int[] {SAVE, D, 8 + x3, z6 * 8, 1, 0};
      case 0xda, 0xdb -> new int[] {SAVE, D, 8 + x3, (z6 + 1) * 8, 1, 1};
      case 0xdc, 0xdd -> new int[] {SAVE, D, 8 + x3, z6 * 8, 0, 0};
      default -> new int[] {SAVE, D, 8 + (b1 >>> 5 & 7), ((b1 & 0x1f) + 1) * 8, 0, 1}; // 0xde
    };
  }

  private static int byteAt(ByteBuffer b, int at, String what) {
    if (at >= b.limit()) {
      throw new CfiException(what + " is cut short by the end of the unwind codes");
    }
    return b.get(at) & 0xff;
  }

  /**
   * The codes a packed {@code .pdata} entry stands for, last first as in {@code .xdata}: the
   * canonical prolog Microsoft documents for its fields (and llvm-readobj prints): {@code
   * pacibsp} (CR 2), x19.. saved in pairs (the first pre-decrementing the save area), {@code lr}
   * (CR 1), d8.. in pairs, x0..x7 homed (H), the locals allocated, {@code <x29, lr>} saved and x29
   * set (CR 2, 3).
   */
  static List<int[]> packedCodes(long unwindData) {
    int regF = (int) (unwindData >>> 13 & 7);
    int regI = (int) (unwindData >>> 16 & 15);
    boolean h = (unwindData >>> 20 & 1) != 0;
    int cr = (int) (unwindData >>> 21 & 3);
    int frameSize = (int) (unwindData >>> 23 & 0x1ff) * 16;
    int intSz = 8 * regI + (cr == 1 ? 8 : 0);
    int fpSz = regF > 0 ? 8 * regF + 8 : 0;
    int savSz = (intSz + fpSz + (h ? 64 : 0) + 15) & ~15;
    int locSz = frameSize - savSz;
    if (locSz < 0) {
      throw new CfiException(
          "packed frame size " + frameSize + " is smaller than its save area of " + savSz);
    }
    if (cr == 1 && regI == 1) {
      throw new CfiException("packed CR=1 with RegI=1 has no documented prolog");
    }
    boolean chained = cr == 2 || cr == 3;
    List<int[]> c = new ArrayList<>();
    if (chained) {
      c.add(new int[] {OTHER, 1, 0, 0, 0, 0});
      c.add(locSz <= 512 ? new int[] {SAVE, X, 29, locSz, 1, 1} : new int[] {SAVE, X, 29, 0, 1, 0});
    }
    if (locSz > 4080) {
      c.add(new int[] {ALLOC, 0, 0, locSz - 4080, 0, 0});
      c.add(new int[] {ALLOC, 0, 0, 4080, 0, 0});
    } else if ((!chained && locSz > 0) || locSz > 512) {
      c.add(new int[] {ALLOC, 0, 0, locSz, 0, 0});
    }
    if (h) {
      c.add(new int[] {HOME, X, 6, savSz - 16, 1, 0});
      c.add(new int[] {HOME, X, 4, savSz - 32, 1, 0});
      c.add(new int[] {HOME, X, 2, savSz - 48, 1, 0});
      boolean saved = regI > 0 || regF > 0 || cr == 1;
      c.add(new int[] {HOME, X, 0, saved ? savSz - 64 : savSz, 1, saved ? 0 : 1});
    }
    int floats = regF > 0 ? regF + 1 : 0;
    for (int i = (floats + 1) / 2 - 1; i >= 0; i--) {
      if (i == (floats + 1) / 2 - 1 && floats % 2 == 1) {
        c.add(new int[] {SAVE, D, 8 + 2 * i, intSz + 16 * i, 0, 0});
      } else if (i == 0 && regI == 0 && cr != 1) {
        c.add(new int[] {SAVE, D, 8, savSz, 1, 1});
      } else {
        c.add(new int[] {SAVE, D, 8 + 2 * i, intSz + 16 * i, 1, 0});
      }
    }
    if (cr == 1 && regI % 2 == 0) {
      c.add(
          regI == 0
              ? new int[] {SAVE, X, 30, savSz, 0, 1}
              : new int[] {SAVE, X, 30, intSz - 8, 0, 0});
    }
    for (int i = (regI + 1) / 2 - 1; i >= 0; i--) {
      if (i == (regI + 1) / 2 - 1 && regI % 2 == 1) {
        if (cr == 1) {
          c.add(new int[] {SAVE_LR_PAIR, X, 19 + 2 * i, 16 * i, 1, 0});
        } else if (i == 0) {
          c.add(new int[] {SAVE, X, 19, savSz, 0, 1});
        } else {
          c.add(new int[] {SAVE, X, 19 + 2 * i, 16 * i, 0, 0});
        }
      } else if (i == 0) {
        c.add(new int[] {SAVE, X, 19, savSz, 1, 1});
      } else {
        c.add(new int[] {SAVE, X, 19 + 2 * i, 16 * i, 1, 0});
      }
    }
    if (cr == 2) {
      c.add(new int[] {OTHER, 2, 0, 0, 0, 0});
    }
    return c;
  }

  /**
   * The records of one function from its prolog codes (stored last first); a fragment (packed
   * flag 2) has no prolog of its own, so everything holds from its first address.
   */
  private void write(long begin, long length, List<int[]> codes, boolean fragment) {
    if (fragment) {
      CfiRecords one = new CfiRecords();
      encode(codes, one);
      if (!one.lines.isEmpty()) {
        out.emitInit(begin, length, String.join(" ", one.lines));
      }
      return;
    }
    CfiRecords each = new CfiRecords();
    encode(codes, each);
    for (int i = 0; i < each.lines.size(); i++) {
      if (i == 0) {
        out.emitInit(begin, length, each.lines.get(0));
      } else {
        out.emitDelta(begin + 4L * i, each.lines.get(i));
      }
    }
  }

  /** The rule text of each prolog instruction, in prolog order. */
  private static final class CfiRecords {
    final List<String> lines = new ArrayList<>();
  }

  private static void encode(List<int[]> codes, CfiRecords into) {
    Encoder enc = new Encoder();
    for (int i = 0; i < codes.size(); i++) {
      int[] c = codes.get(codes.size() - 1 - i);
      StringBuilder line = new StringBuilder();
      enc.line = line;
      switch (c[0]) {
        case ALLOC -> enc.alloc(c[3]);
        case SAVE -> {
          if (c[4] == 1 && c[5] == 1) {
            enc.savePreIndexedPair(c[1], c[2], c[3]);
          } else if (c[4] == 1) {
            enc.saveIndexedPair(c[1], c[2], c[3]);
          } else if (c[5] == 1) {
            enc.savePreIndexed(c[1], c[2], c[3]);
          } else {
            enc.saveIndexed(c[1], c[2], c[3]);
          }
        }
        case SAVE_LR_PAIR -> enc.saveRegAndLr(c[2], c[3]);
        case SAVE_NEXT -> enc.saveNextPair();
        case HOME -> enc.alloc(c[5] == 1 ? c[3] : 0);
        default -> enc.alloc(0); // symbolic's filler: no empty record
      }
      if (i == 0) {
        if (!enc.cfaTouched) {
          line.append(" .cfa: .sp");
        }
        if (!enc.raWritten) {
          line.append(" .ra: .x30");
        }
      }
      enc.cfaTouched = false;
      enc.raWritten = false;
      into.lines.add(line.length() == 0 ? "" : line.substring(1));
    }
  }

  /** symbolic's BreakpadEncoder: the stack size so far and the last pair saved. */
  private static final class Encoder {
    StringBuilder line;
    int stack;
    int lastType = X;
    int lastReg;
    int lastOffset;
    boolean cfaTouched;
    boolean raWritten;

    private static String type(int t) {
      return t == X ? "x" : t == D ? "d" : "q";
    }

    private static int size(int t) {
      return t == Q ? 16 : 8;
    }

    void alloc(int size) {
      stack += size;
      cfaTouched = true;
      line.append(" .cfa: .sp ").append(stack).append(" +");
    }

    private void pair(int t, int first, int o1, int o2) {
      int second = (first + 1) & 0xff;
      lastType = t;
      lastReg = second;
      lastOffset = o2;
      reg(t, first, o1);
      reg(t, second, o2);
      maybeRa(t, o2, second);
    }

    private void reg(int t, int r, int o) {
      line.append(" .").append(type(t)).append(r).append(": .cfa ").append(o).append(" + ^");
    }

    /** {@code lr} saved makes the return address read from there (also alone: see docs). */
    private void maybeRa(int t, int o2, int reg) {
      if (reg == 30 && t == X) {
        raWritten = true;
        line.append(" .ra: .cfa ").append(o2).append(" + ^");
      }
    }

    void saveIndexedPair(int t, int first, int offset) {
      int o1 = offset - stack;
      pair(t, first, o1, o1 + size(t));
    }

    void savePreIndexedPair(int t, int first, int offset) {
      int o1 = -offset - stack;
      int o2 = o1 + size(t);
      lastType = t;
      lastReg = (first + 1) & 0xff;
      lastOffset = o2;
      alloc(offset);
      reg(t, first, o1);
      reg(t, lastReg, o2);
      maybeRa(t, o2, lastReg);
    }

    void saveIndexed(int t, int r, int offset) {
      reg(t, r, offset - stack);
      maybeRa(t, offset - stack, r);
    }

    void savePreIndexed(int t, int r, int offset) {
      int o1 = -offset - stack;
      alloc(offset);
      reg(t, r, o1);
      maybeRa(t, o1, r);
    }

    void saveRegAndLr(int r, int offset) {
      int o1 = offset - stack;
      int o2 = o1 + 8;
      raWritten = true;
      line.append(" .x").append(r).append(": .cfa ").append(o1).append(" + ^ .x30: .cfa ");
      line.append(o2).append(" + ^ .ra: .cfa ").append(o2).append(" + ^");
    }

    void saveNextPair() {
      int t = lastType;
      int first = (lastReg + 1) & 0xff;
      int second = (first + 1) & 0xff;
      int o1 = lastOffset + size(t);
      int o2 = o1 + size(t);
      lastOffset = o2;
      lastReg = second;
      reg(t, first, o1);
      reg(t, second, o2);
      maybeRa(t, o2, second);
    }
  }
}

package io.symbolicate.symbols.dwarf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One compile unit's line program (DWARF 2 to 5) run into rows, grouped in sequences sorted by
 * start address, with its file table as (directory, name) strings. Rows follow symbolic's
 * preparation, which Mozilla's dump_syms output is made from: rows at address 0 are dropped, a
 * row at the address of the one before replaces it, rows going backwards within a sequence are
 * ignored, and each row's size runs to the next row's address (unknown, -1, for the last row of a
 * sequence that does not end).
 */
final class LineTable {
  final int version;
  final List<String> fileDirs = new ArrayList<>();
  final List<String> fileNames = new ArrayList<>();

  int rows;
  long[] address = new long[64];
  long[] size = new long[64];
  int[] file = new int[64];
  int[] line = new int[64];

  int seqs;
  long[] seqStart = new long[8];
  long[] seqEnd = new long[8];
  int[] seqFirst = new int[8];
  int[] seqCount = new int[8];
  long[] maxEnd = new long[0];

  private LineTable(int version) {
    this.version = version;
  }

  /** The file of row-file index {@code index} as (dir, name), or null when there is none. */
  int fileSlot(long index) {
    long slot = version >= 5 ? index : index - 1;
    return slot < 0 || slot >= fileNames.size() ? -1 : (int) slot;
  }

  static LineTable read(DwarfContext ctx, Unit unit, long offset, String compDir)
      throws DwarfException {
    Cursor c = new Cursor(unit.file.label("line"), unit.file.line);
    if (c.buf.limit() == 0 || offset < 0 || offset >= c.buf.limit()) {
      throw new DwarfException(".debug_line: offset " + offset + " outside the section");
    }
    c.at(offset, c.buf.limit());
    long length = c.u32();
    int offsetSize = 4;
    if (length == 0xffffffffL) {
      length = c.u64();
      offsetSize = 8;
    } else if (length >= 0xfffffff0L) {
      throw new DwarfException(".debug_line: reserved unit length " + length);
    }
    if (length < 0 || length > c.remaining()) {
      throw new DwarfException(
          ".debug_line: program at "
              + offset
              + " claims "
              + length
              + " bytes, "
              + c.remaining()
              + " left");
    }
    int programEnd = c.pos + (int) length;
    c.end = programEnd;
    int version = c.u16();
    if (version < 2 || version > 5) {
      throw new DwarfException(".debug_line: version " + version + " at " + offset);
    }
    LineTable t = new LineTable(version);
    int addressSize = unit.addressSize;
    if (version >= 5) {
      addressSize = c.u8();
      c.u8(); // segment selector size
      if (addressSize != 4 && addressSize != 8 && addressSize != 2) {
        throw new DwarfException(".debug_line: address size " + addressSize);
      }
    }
    long headerLength = c.sized(offsetSize);
    if (headerLength < 0 || headerLength > c.remaining()) {
      throw new DwarfException(".debug_line: header length " + headerLength + " past the program");
    }
    int programStart = c.pos + (int) headerLength;
    int minInst = c.u8();
    if (version >= 4) {
      c.u8(); // maximum operations per instruction: VLIW only, read as 1
    }
    c.u8(); // default_is_stmt
    int lineBase = (byte) c.u8();
    int lineRange = c.u8();
    int opcodeBase = c.u8();
    if (lineRange == 0) {
      throw new DwarfException(".debug_line: line_range 0 at " + offset);
    }
    int[] stdLengths = new int[Math.max(opcodeBase, 1)];
    for (int i = 1; i < opcodeBase; i++) {
      stdLengths[i] = c.u8();
    }
    if (version >= 5) {
      readV5Tables(ctx, unit, c, t);
    } else {
      List<String> dirs = new ArrayList<>();
      while (true) {
        int s = c.cstring();
        if (c.pos - s == 1) {
          break;
        }
        dirs.add(ctx.string(c, s));
      }
      while (true) {
        int s = c.cstring();
        if (c.pos - s == 1) {
          break;
        }
        String name = ctx.string(c, s);
        long dir = c.uleb();
        c.uleb();
        c.uleb();
        t.addFile(v4Dir(dirs, dir, compDir), name);
      }
    }
    c.pos = programStart;
    t.run(c, addressSize, minInst, lineBase, lineRange, opcodeBase, stdLengths, compDir);
    return t;
  }

  private static String v4Dir(List<String> dirs, long dir, String compDir) {
    if (dir == 0) {
      return compDir;
    }
    return dir > 0 && dir <= dirs.size() ? dirs.get((int) dir - 1) : "";
  }

  private void addFile(String dir, String name) {
    fileDirs.add(dir == null ? "" : dir);
    fileNames.add(name);
  }

  private static void readV5Tables(DwarfContext ctx, Unit unit, Cursor c, LineTable t)
      throws DwarfException {
    List<String> dirs = new ArrayList<>();
    readEntries(ctx, unit, c, dirs, null);
    List<String> names = new ArrayList<>();
    List<Long> dirIndex = new ArrayList<>();
    readEntries(ctx, unit, c, names, dirIndex);
    for (int i = 0; i < names.size(); i++) {
      long d = dirIndex.get(i);
      t.addFile(d >= 0 && d < dirs.size() ? dirs.get((int) d) : "", names.get(i));
    }
  }

  /** A v5 directory or file table: formats, count, then entries (each at least a byte). */
  private static void readEntries(
      DwarfContext ctx, Unit unit, Cursor c, List<String> paths, List<Long> dirs)
      throws DwarfException {
    int formatCount = c.u8();
    int[] types = new int[formatCount];
    int[] forms = new int[formatCount];
    for (int i = 0; i < formatCount; i++) {
      types[i] = c.ulebInt("line table content type");
      forms[i] = c.ulebInt("line table form");
    }
    long count = c.uleb();
    if (count < 0 || (count > 0 && (formatCount == 0 || count > c.remaining()))) {
      throw new DwarfException(
          ".debug_line: "
              + Long.toUnsignedString(count)
              + " directory or file entries in "
              + c.remaining()
              + " bytes");
    }
    AttrValue v = new AttrValue();
    for (long e = 0; e < count; e++) {
      String path = "";
      long dir = 0;
      for (int i = 0; i < formatCount; i++) {
        int form = forms[i];
        switch (form) {
          case Dw.FORM_STRING,
              Dw.FORM_LINE_STRP,
              Dw.FORM_STRP,
              Dw.FORM_STRX,
              Dw.FORM_STRX1,
              Dw.FORM_STRX2,
              Dw.FORM_STRX3,
              Dw.FORM_STRX4,
              Dw.FORM_UDATA,
              Dw.FORM_DATA1,
              Dw.FORM_DATA2,
              Dw.FORM_DATA4,
              Dw.FORM_DATA8,
              Dw.FORM_DATA16,
              Dw.FORM_BLOCK,
              Dw.FORM_STRP_SUP,
              Dw.FORM_GNU_STRP_ALT -> {}
          default -> throw new DwarfException(".debug_line: form " + form + " in a file table");
        }
        if (form == Dw.FORM_STRING) {
          int start = c.cstring(); // in .debug_line itself, not .debug_info
          if (types[i] == Dw.LNCT_PATH) {
            path = ctx.string(c, start);
          }
          continue;
        }
        ctx.readAttr(c, unit, form, 0, v);
        if (types[i] == Dw.LNCT_PATH) {
          String s = ctx.stringValue(unit, v);
          path = s == null ? "" : s;
        } else if (types[i] == Dw.LNCT_DIRECTORY_INDEX) {
          dir = v.value;
        }
      }
      paths.add(path);
      if (dirs != null) {
        dirs.add(dir);
      }
    }
  }

  private void run(
      Cursor c,
      int addressSize,
      int minInst,
      int lineBase,
      int lineRange,
      int opcodeBase,
      int[] stdLengths,
      String compDir)
      throws DwarfException {
    long addr = 0;
    long fileIdx = 1;
    long lineNo = 1;
    long prevAddress = 0;
    int seqRowStart = rows;
    while (!c.atEnd()) {
      int op = c.u8();
      boolean emit = false;
      boolean endSeq = false;
      if (op >= opcodeBase) {
        int adj = op - opcodeBase;
        addr += (long) (adj / lineRange) * minInst;
        lineNo += lineBase + adj % lineRange;
        emit = true;
      } else if (op == 0) {
        long len = c.uleb();
        if (len <= 0 || len > c.remaining()) {
          throw new DwarfException(
              ".debug_line: extended opcode of " + Long.toUnsignedString(len) + " bytes");
        }
        int next = c.pos + (int) len;
        int sub = c.u8();
        switch (sub) {
          case 1 -> {
            emit = true;
            endSeq = true;
          }
          case 2 -> {
            int n = (int) len - 1;
            if (n == 1 || n == 2 || n == 4 || n == 8) {
              addr = c.sized(n);
            }
          }
          case 3 -> {
            int s = c.cstring();
            String name = DwarfContext.decode(c.buf, s, c.pos - 1 - s);
            long dir = c.uleb();
            addFile(dir == 0 ? compDir : "", name);
          }
          default -> {}
        }
        c.pos = next;
      } else {
        switch (op) {
          case 1 -> emit = true;
          case 2 -> addr += c.uleb() * minInst;
          case 3 -> lineNo += c.sleb();
          case 4 -> fileIdx = c.uleb();
          case 8 -> addr += (long) ((255 - opcodeBase) / lineRange) * minInst;
          case 9 -> addr += c.u16();
          default -> {
            for (int i = 0; i < stdLengths[op]; i++) {
              c.uleb();
            }
          }
        }
      }
      if (!emit) {
        continue;
      }
      // symbolic's DwarfLineProgram::prepare
      if (addr != 0) {
        int last = rows - 1;
        if (last >= seqRowStart && Long.compareUnsigned(addr, address[last]) >= 0) {
          size[last] = addr - address[last];
        }
        if (endSeq) {
          if (rows > seqRowStart) {
            long end = Long.compareUnsigned(addr, prevAddress) < 0 ? prevAddress + 1 : addr;
            addSequence(seqRowStart, end);
            seqRowStart = rows;
          }
          prevAddress = 0;
        } else if (Long.compareUnsigned(addr, prevAddress) >= 0) {
          int ln = (int) Math.max(0, Math.min(lineNo, Integer.MAX_VALUE));
          int fi = (int) Math.max(-1, Math.min(fileIdx, Integer.MAX_VALUE));
          if (last >= seqRowStart && address[last] == addr) {
            file[last] = fi;
            line[last] = ln;
          } else {
            addRow(addr, fi, ln);
          }
          prevAddress = addr;
        }
      }
      if (endSeq) {
        addr = 0;
        fileIdx = 1;
        lineNo = 1;
      }
    }
    if (rows > seqRowStart) {
      addSequence(seqRowStart, prevAddress + 1);
    }
    sortSequences();
  }

  private void addRow(long addr, int fi, int ln) {
    if (rows == address.length) {
      int n = rows * 2;
      address = Arrays.copyOf(address, n);
      size = Arrays.copyOf(size, n);
      file = Arrays.copyOf(file, n);
      line = Arrays.copyOf(line, n);
    }
    address[rows] = addr;
    size[rows] = -1;
    file[rows] = fi;
    line[rows] = ln;
    rows++;
  }

  private void addSequence(int first, long end) {
    if (seqs == seqStart.length) {
      int n = seqs * 2;
      seqStart = Arrays.copyOf(seqStart, n);
      seqEnd = Arrays.copyOf(seqEnd, n);
      seqFirst = Arrays.copyOf(seqFirst, n);
      seqCount = Arrays.copyOf(seqCount, n);
    }
    seqStart[seqs] = address[first];
    seqEnd[seqs] = end;
    seqFirst[seqs] = first;
    seqCount[seqs] = rows - first;
    seqs++;
  }

  /** Stable sort of the sequences by start, then the running maximum of their ends. */
  private void sortSequences() {
    Integer[] order = new Integer[seqs];
    for (int i = 0; i < seqs; i++) {
      order[i] = i;
    }
    final long[] st = seqStart;
    Arrays.sort(order, (x, y) -> Long.compareUnsigned(st[x], st[y]));
    long[] ns = new long[seqs];
    long[] ne = new long[seqs];
    int[] nf = new int[seqs];
    int[] nc = new int[seqs];
    for (int i = 0; i < seqs; i++) {
      ns[i] = seqStart[order[i]];
      ne[i] = seqEnd[order[i]];
      nf[i] = seqFirst[order[i]];
      nc[i] = seqCount[order[i]];
    }
    seqStart = ns;
    seqEnd = ne;
    seqFirst = nf;
    seqCount = nc;
    maxEnd = new long[seqs];
    for (int i = 0; i < seqs; i++) {
      long e = seqEnd[i];
      maxEnd[i] = i > 0 && Long.compareUnsigned(maxEnd[i - 1], e) > 0 ? maxEnd[i - 1] : e;
    }
  }

  /**
   * The rows for {@code [begin, end)}: in the first sequence overlapping it, from the row at or
   * before {@code begin} to the last row before {@code end} (symbolic's get_rows). Returns {from,
   * to} row indexes, to exclusive; {0, 0} when none.
   */
  void rowsFor(long begin, long end, int[] out) {
    out[0] = 0;
    out[1] = 0;
    // the first sequence (by start) ending after begin: binary search on the running max end
    int a = 0;
    int b = seqs - 1;
    int s = seqs;
    while (a <= b) {
      int m = (a + b) >>> 1;
      if (Long.compareUnsigned(maxEnd[m], begin) > 0) {
        s = m;
        b = m - 1;
      } else {
        a = m + 1;
      }
    }
    if (s >= seqs || Long.compareUnsigned(seqStart[s], end) >= 0) {
      return;
    }
    int lo = seqFirst[s];
    int hi = lo + seqCount[s];
    int i = search(lo, hi, begin);
    int from = i >= 0 ? i : (-i - 1 == lo ? lo : -i - 2);
    int j = search(from, hi, end);
    out[0] = from;
    out[1] = j >= 0 ? j : -j - 1;
  }

  private int search(int lo, int hi, long key) {
    int a = lo;
    int b = hi - 1;
    while (a <= b) {
      int m = (a + b) >>> 1;
      int cmp = Long.compareUnsigned(address[m], key);
      if (cmp < 0) {
        a = m + 1;
      } else if (cmp > 0) {
        b = m - 1;
      } else {
        return m;
      }
    }
    return -(a + 1);
  }
}

package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The C13 line tables of a module: the lines subsections ({@code DEBUG_S_LINES}) with the file
 * checksums subsection ({@code DEBUG_S_FILECHKSMS}) naming their files through the PDB's string
 * table ({@code /names}). Each line's size runs to the next row of its subsection in address
 * order and the last row to the end of the subsection's code, as DIA (and so Breakpad) gives
 * them; two rows at one offset make the first one 0 bytes long.
 */
public final class PdbLines {
  static final int DEBUG_S_LINES = 0xf2;
  static final int DEBUG_S_FILECHKSMS = 0xf4;
  static final int DEBUG_S_IGNORE = 0x80000000;

  private PdbLines() {}

  /** The PDB's {@code /names} string table (empty when it has none). */
  public static ByteBuffer stringTable(PdbFile pdb) {
    return pdb.namedStream("/names")
        .map(s -> pdb.msf().stream(s, "/names stream"))
        .filter(b -> b.limit() >= 12 && b.getInt(0) == 0xeffeeffe)
        .map(
            b -> {
              long size = b.getInt(8) & 0xffffffffL;
              return b.slice(12, (int) Math.min(size, b.limit() - 12))
                  .order(ByteOrder.LITTLE_ENDIAN);
            })
        .orElse(ByteBuffer.allocate(0));
  }

  /** The line rows of one module, each subsection's rows in address order. */
  public static List<PdbLine> lines(PdbFile pdb, PdbModule m, ByteBuffer names) {
    PdbFileNames files = new PdbFileNames();
    PdbLineRows rows = new PdbLineRows();
    read(pdb, m, PdbSymbols.moduleStream(pdb, m), names, files, rows);
    List<PdbLine> out = new ArrayList<>(rows.count());
    for (int i = 0; i < rows.count(); i++) {
      out.add(rows.row(i, files));
    }
    return out;
  }

  /**
   * Adds the line rows of one module to {@code out} (each subsection's rows in address order),
   * their files named in {@code files}; {@code b} is the module's stream (null: none).
   */
  public static void read(
      PdbFile pdb,
      PdbModule m,
      ByteBuffer b,
      ByteBuffer names,
      PdbFileNames files,
      PdbLineRows out) {
    if (b == null || m.c13Bytes() == 0) {
      return;
    }
    long start = m.symbolBytes() + m.c11Bytes();
    if (start > b.limit() || m.c13Bytes() > b.limit() - start) {
      throw new PdbFormatException(
          "module " + m.name() + ": its C13 line info lies past the end of its stream");
    }
    int from = (int) start;
    int to = (int) (start + m.c13Bytes());
    Checksums checksums = new Checksums();
    List<int[]> lineSubsections = new ArrayList<>(); // {at, end}
    int at = from;
    while (at + 8 <= to) {
      int kind = b.getInt(at);
      int len = b.getInt(at + 4);
      if (len < 0 || len > to - at - 8) {
        throw new PdbFormatException(
            "module " + m.name() + ": a debug subsection of " + len + " bytes runs past its end");
      }
      int body = at + 8;
      if ((kind & DEBUG_S_IGNORE) == 0) {
        if (kind == DEBUG_S_FILECHKSMS) {
          checksums.read(b, body, body + len, names, files);
        } else if (kind == DEBUG_S_LINES) {
          lineSubsections.add(new int[] {body, body + len});
        }
      }
      at = body + ((len + 3) & ~3);
    }
    int empty = files.intern("");
    for (int[] s : lineSubsections) {
      lines(pdb, m, b, s[0], s[1], checksums, empty, out);
    }
  }

  /**
   * A module's file checksums subsection: the offset of each entry (what line blocks and inline
   * annotations name a file by) and its name's index, in offset order.
   */
  static final class Checksums {
    private int[] offsets = new int[8];
    private int[] fileIndexes = new int[8];
    private int count;

    void read(ByteBuffer b, int from, int to, ByteBuffer names, PdbFileNames files) {
      int at = from;
      while (at + 6 <= to) {
        long nameOffset = b.getInt(at) & 0xffffffffL;
        int checksumSize = b.get(at + 4) & 0xff;
        put(at - from, files.intern(names, nameOffset));
        at = from + (((at - from) + 6 + checksumSize + 3) & ~3); // entries 4-aligned
      }
    }

    private void put(int offset, int file) {
      int i = find(offset);
      if (i >= 0) {
        fileIndexes[i] = file; // a second subsection: the later entry answers, as a map would
        return;
      }
      i = -i - 1;
      if (count == offsets.length) {
        offsets = Arrays.copyOf(offsets, count * 2);
        fileIndexes = Arrays.copyOf(fileIndexes, count * 2);
      }
      System.arraycopy(offsets, i, offsets, i + 1, count - i);
      System.arraycopy(fileIndexes, i, fileIndexes, i + 1, count - i);
      offsets[i] = offset;
      fileIndexes[i] = file;
      count++;
    }

    private int find(int offset) {
      return Arrays.binarySearch(offsets, 0, count, offset);
    }

    /** The file index of the entry at {@code offset}, or {@code missing}. */
    int file(long offset, int missing) {
      if (offset < 0 || offset > Integer.MAX_VALUE) {
        return missing;
      }
      int i = find((int) offset);
      return i >= 0 ? fileIndexes[i] : missing;
    }
  }

  private static void lines(
      PdbFile pdb,
      PdbModule m,
      ByteBuffer b,
      int from,
      int to,
      Checksums checksums,
      int empty,
      PdbLineRows out) {
    if (to - from < 12) {
      throw new PdbFormatException(
          "module " + m.name() + ": a lines subsection of " + (to - from) + " bytes");
    }
    long offset = b.getInt(from) & 0xffffffffL;
    int segment = b.getShort(from + 4) & 0xffff;
    boolean columns = (b.getShort(from + 6) & 1) != 0;
    long codeSize = b.getInt(from + 8) & 0xffffffffL;
    long base = pdb.rva(segment, offset);
    if (base < 0) {
      return;
    }
    int first = out.count();
    int at = from + 12;
    while (at + 12 <= to) {
      int fileId = b.getInt(at);
      long count = b.getInt(at + 4) & 0xffffffffL;
      long blockSize = b.getInt(at + 8) & 0xffffffffL;
      long need = 12 + count * (columns ? 12 : 8);
      if (blockSize < need || blockSize > to - at) {
        throw new PdbFormatException(
            "module "
                + m.name()
                + ": a line block claims "
                + count
                + " lines in "
                + blockSize
                + " bytes, past its subsection");
      }
      int file = checksums.file(fileId, empty);
      out.reserve(count); // the bytes for them are there
      for (int i = 0; i < count; i++) {
        int row = at + 12 + 8 * i;
        long rowOffset = b.getInt(row) & 0xffffffffL;
        int line = b.getInt(row + 4) & 0xffffff;
        out.add(base + rowOffset, 0, line, file);
      }
      at += (int) blockSize;
    }
    // each row runs to the next in address order, the last to the end of the code
    out.sortByRva(first);
    long end = base + codeSize;
    for (int k = first; k < out.count(); k++) {
      long next = k + 1 < out.count() ? out.rva(k + 1) : end;
      out.setLength(k, Math.max(0, next - out.rva(k)));
    }
  }
}

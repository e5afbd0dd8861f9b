package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    List<PdbLine> out = new ArrayList<>();
    ByteBuffer b = PdbSymbols.moduleStream(pdb, m);
    if (b == null || m.c13Bytes() == 0) {
      return out;
    }
    long start = m.symbolBytes() + m.c11Bytes();
    if (start > b.limit() || m.c13Bytes() > b.limit() - start) {
      throw new PdbFormatException(
          "module " + m.name() + ": its C13 line info lies past the end of its stream");
    }
    int from = (int) start;
    int to = (int) (start + m.c13Bytes());
    Map<Integer, String> files = new HashMap<>();
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
          checksums(b, body, body + len, names, files);
        } else if (kind == DEBUG_S_LINES) {
          lineSubsections.add(new int[] {body, body + len});
        }
      }
      at = body + ((len + 3) & ~3);
    }
    for (int[] s : lineSubsections) {
      lines(pdb, m, b, s[0], s[1], files, out);
    }
    return out;
  }

  static void checksums(
      ByteBuffer b, int from, int to, ByteBuffer names, Map<Integer, String> files) {
    int at = from;
    while (at + 6 <= to) {
      long nameOffset = b.getInt(at) & 0xffffffffL;
      int checksumSize = b.get(at + 4) & 0xff;
      String name =
          nameOffset < names.limit() ? PdbFile.cString(names, (int) nameOffset, names.limit()) : "";
      files.put(at - from, name);
      at = from + (((at - from) + 6 + checksumSize + 3) & ~3); // entries 4-aligned
    }
  }

  private static void lines(
      PdbFile pdb,
      PdbModule m,
      ByteBuffer b,
      int from,
      int to,
      Map<Integer, String> files,
      List<PdbLine> out) {
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
    List<long[]> rows = new ArrayList<>(); // {offset, line, order}
    List<String> rowFiles = new ArrayList<>();
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
      String file = files.getOrDefault(fileId, "");
      for (int i = 0; i < count; i++) {
        int row = at + 12 + 8 * i;
        long rowOffset = b.getInt(row) & 0xffffffffL;
        long line = b.getInt(row + 4) & 0xffffffL;
        rows.add(new long[] {rowOffset, line, rows.size()});
        rowFiles.add(file);
      }
      at += (int) blockSize;
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      order.add(i);
    }
    order.sort((x, y) -> Long.compare(rows.get(x)[0], rows.get(y)[0]));
    for (int k = 0; k < order.size(); k++) {
      long[] r = rows.get(order.get(k));
      long next = k + 1 < order.size() ? rows.get(order.get(k + 1))[0] : codeSize;
      long size = Math.max(0, next - r[0]);
      out.add(new PdbLine(base + r[0], size, r[1], rowFiles.get(order.get(k))));
    }
  }
}

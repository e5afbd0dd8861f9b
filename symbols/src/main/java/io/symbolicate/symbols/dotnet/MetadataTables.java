package io.symbolicate.symbols.dotnet;

/**
 * The {@code #~} stream (II.24.2.6): heap index sizes, row counts, and each table's rows located
 * by the column sizes of {@link TableSchema}. Row counts are checked against the stream before
 * anything is read, so a table claiming more rows than bytes is refused, not allocated.
 */
final class MetadataTables {
  /** Tokens carry 24-bit row numbers; no table can have more rows. */
  static final int MAX_ROWS = 0x00ffffff;

  private final byte[] data;
  private final int[] rows = new int[64];
  private final int[][] widths = new int[64][];
  private final int[] rowSize = new int[64];
  private final int[] tableAt = new int[64];
  private final int stringWidth;
  private final int guidWidth;
  private final int blobWidth;

  /**
   * @param external row counts of tables this stream references but does not hold (a Portable
   *     PDB's type system tables, from its {@code #Pdb} stream); zeros for a .NET image
   */
  MetadataTables(byte[] data, MetadataRoot.Stream stream, int[] external) {
    this.data = data;
    BlobReader r = new BlobReader(data, stream.offset(), stream.length());
    r.skip(6); // reserved, major, minor
    int heapSizes = r.u8();
    r.skip(1);
    long valid = (r.u32() & 0xffffffffL) | ((long) r.u32() << 32);
    r.skip(8); // sorted
    for (int t = 0; t < 64; t++) {
      if ((valid & (1L << t)) == 0) {
        continue;
      }
      if (TableSchema.COLUMNS[t] == null) {
        throw new PortablePdbException(
            "#~ stream has table 0x"
                + Integer.toHexString(t)
                + ", which ECMA-335 and Portable PDB do not define");
      }
      long n = r.u32() & 0xffffffffL;
      if (n > MAX_ROWS) {
        throw new PortablePdbException(
            "table 0x"
                + Integer.toHexString(t)
                + " claims "
                + n
                + " rows, more than a token holds");
      }
      rows[t] = (int) n;
    }
    if ((heapSizes & 0x40) != 0) {
      r.skip(4); // extra data (written by some EnC writers)
    }
    stringWidth = (heapSizes & 1) != 0 ? 4 : 2;
    guidWidth = (heapSizes & 2) != 0 ? 4 : 2;
    blobWidth = (heapSizes & 4) != 0 ? 4 : 2;
    int[] sizing = rows.clone();
    for (int t = 0; t < 64; t++) {
      if (sizing[t] == 0 && external != null) {
        sizing[t] = external[t];
      }
    }
    long at = r.position();
    long end = (long) stream.offset() + stream.length();
    for (int t = 0; t < 64; t++) {
      int[] cols = TableSchema.COLUMNS[t];
      if (cols == null) {
        continue;
      }
      widths[t] = new int[cols.length];
      int size = 0;
      for (int c = 0; c < cols.length; c++) {
        widths[t][c] = width(cols[c], sizing);
        size += widths[t][c];
      }
      rowSize[t] = size;
      long bytes = (long) rows[t] * size;
      if (bytes > end - at) {
        throw new PortablePdbException(
            "table 0x"
                + Integer.toHexString(t)
                + " of "
                + rows[t]
                + " rows needs "
                + bytes
                + " bytes, the #~ stream has "
                + (end - at)
                + " left");
      }
      tableAt[t] = (int) at;
      at += bytes;
    }
  }

  private int width(int kind, int[] sizing) {
    switch (kind) {
      case TableSchema.U16:
        return 2;
      case TableSchema.U32:
        return 4;
      case TableSchema.STRING:
        return stringWidth;
      case TableSchema.GUID:
        return guidWidth;
      case TableSchema.BLOB:
        return blobWidth;
      default:
        break;
    }
    if (kind >= TableSchema.CODED) {
      int k = kind - TableSchema.CODED;
      int max = 0;
      for (int t : TableSchema.CODED_TABLES[k]) {
        if (t >= 0) {
          max = Math.max(max, sizing[t]);
        }
      }
      return max < (1 << (16 - TableSchema.CODED_BITS[k])) ? 2 : 4;
    }
    return sizing[kind] < (1 << 16) ? 2 : 4;
  }

  /** Where row {@code row} (1-based) of a table starts in the file (tests patch rows here). */
  int rowOffset(int table, int row) {
    return tableAt[table] + (row - 1) * rowSize[table];
  }

  int rows(int table) {
    return rows[table];
  }

  /** Column {@code col} (0-based) of row {@code row} (1-based), unsigned, as a long. */
  long cell(int table, int row, int col) {
    if (row < 1 || row > rows[table]) {
      throw new PortablePdbException(
          "row "
              + row
              + " of table 0x"
              + Integer.toHexString(table)
              + " ("
              + rows[table]
              + " rows)");
    }
    int at = tableAt[table] + (row - 1) * rowSize[table];
    for (int c = 0; c < col; c++) {
      at += widths[table][c];
    }
    return widths[table][col] == 2 ? LittleEndian.u16(data, at) : LittleEndian.u32(data, at);
  }

  /** A cell that is a row number, heap offset or index: fits an int or is refused. */
  int index(int table, int row, int col) {
    long v = cell(table, row, col);
    if (v > Integer.MAX_VALUE) {
      throw new PortablePdbException(
          "index 0x" + Long.toHexString(v) + " in table 0x" + Integer.toHexString(table));
    }
    return (int) v;
  }
}

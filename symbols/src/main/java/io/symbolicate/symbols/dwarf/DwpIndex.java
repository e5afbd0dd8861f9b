package io.symbolicate.symbols.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The {@code .debug_cu_index} (or {@code .debug_tu_index}) of a {@code .dwp} package: a hash
 * table from a unit's 64-bit id to its row, and per row the offset and size of the unit's
 * contribution to each {@code .dwo} section. Both versions: GNU's version 2 (DWARF 4 split, as
 * binutils {@code dwp} and {@code llvm-dwp} write for {@code -gdwarf-4}) and DWARF 5's.
 *
 * <p>The header's counts are checked against the section before anything is allocated, and a
 * lookup probes at most {@code slots} slots, so a table whose slots all collide ends.
 */
final class DwpIndex {
  /** Section ids of the index's columns (DWARF 5 numbering; GNU v2 mapped to it). */
  static final int INFO = 1;

  static final int TYPES = 2;
  static final int ABBREV = 3;
  static final int LINE = 4;
  static final int LOCLISTS = 5;
  static final int STR_OFFSETS = 6;
  static final int MACRO = 7;
  static final int RNGLISTS = 8;

  /** Section ids of GNU version 2 that differ from DWARF 5's (LOC, MACINFO, MACRO). */
  private static final int GNU_LOC = 5;

  private static final int GNU_MACINFO = 7;
  private static final int GNU_MACRO = 8;

  /** Most columns: one per section kind. */
  static final int MAX_COLUMNS = 8;

  final String label;
  final int version;
  final int columns;
  final int units;
  final int slots;
  private final ByteBuffer buf;
  private final int hashAt;
  private final int indexAt;
  private final int[] sectionIds;
  private final int offsetsAt;
  private final int sizesAt;

  private DwpIndex(
      String label,
      ByteBuffer buf,
      int version,
      int columns,
      int units,
      int slots,
      int[] sectionIds,
      int hashAt) {
    this.label = label;
    this.buf = buf;
    this.version = version;
    this.columns = columns;
    this.units = units;
    this.slots = slots;
    this.sectionIds = sectionIds;
    this.hashAt = hashAt;
    this.indexAt = hashAt + slots * 8;
    this.offsetsAt = indexAt + slots * 4 + columns * 4;
    this.sizesAt = offsetsAt + units * columns * 4;
  }

  /** An empty index: a package that has no such section. */
  static DwpIndex empty(String label) {
    return new DwpIndex(label, ByteBuffer.allocate(0), 0, 0, 0, 0, new int[0], 0);
  }

  /** Reads the index header and column ids; refuses counts the section cannot hold. */
  static DwpIndex read(String label, ByteBuffer section) throws DwarfException {
    ByteBuffer buf = section.duplicate().order(section.order());
    if (buf.limit() == 0) {
      return empty(label);
    }
    Cursor c = new Cursor(label, buf);
    long first = c.u32();
    int version;
    long version16 = buf.order() == ByteOrder.LITTLE_ENDIAN ? first & 0xffff : first >>> 16;
    if (version16 == 5) {
      version = 5; // u16 version, u16 padding
    } else if (first == 2) {
      version = 2;
    } else {
      throw new DwarfException(label + ": version " + first + " (2 or 5 expected)");
    }
    long columns = c.u32();
    long units = c.u32();
    long slots = c.u32();
    if (slots == 0 && units == 0) {
      return new DwpIndex(label, buf, version, 0, 0, 0, new int[0], c.pos);
    }
    if (columns < 1 || columns > MAX_COLUMNS) {
      throw new DwarfException(label + ": " + columns + " columns (1 to 8 expected)");
    }
    if (slots < 1 || slots > Integer.MAX_VALUE || Long.bitCount(slots) != 1) {
      throw new DwarfException(label + ": " + slots + " slots, not a power of two");
    }
    if (units > slots) {
      throw new DwarfException(label + ": " + units + " units in " + slots + " slots");
    }
    long need = c.pos + slots * 12 + columns * 4 + units * columns * 8;
    if (need > buf.limit()) {
      throw new DwarfException(
          label
              + ": "
              + units
              + " units, "
              + slots
              + " slots and "
              + columns
              + " columns need "
              + need
              + " bytes, the section has "
              + buf.limit());
    }
    int hashAt = c.pos;
    int[] ids = new int[(int) columns];
    Cursor h = new Cursor(label, buf).at(hashAt + slots * 12, buf.limit());
    for (int i = 0; i < columns; i++) {
      long id = h.u32();
      ids[i] = version == 2 ? fromGnu(id) : (int) Math.min(id, Integer.MAX_VALUE);
      if (ids[i] < INFO || ids[i] > RNGLISTS) {
        throw new DwarfException(label + ": column " + i + " has section id " + id);
      }
      for (int j = 0; j < i; j++) {
        if (ids[j] == ids[i]) {
          throw new DwarfException(label + ": section id " + id + " in two columns");
        }
      }
    }
    return new DwpIndex(label, buf, version, (int) columns, (int) units, (int) slots, ids, hashAt);
  }

  /** GNU v2's section ids in DWARF 5 numbering (its LOC and MACINFO have no DWARF 5 column). */
  private static int fromGnu(long id) {
    if (id == GNU_LOC) {
      return LOCLISTS;
    }
    if (id == GNU_MACINFO || id == GNU_MACRO) {
      return MACRO;
    }
    return id > RNGLISTS ? -1 : (int) id;
  }

  /** The row of the unit with this id, or null when the table has none. */
  Row find(long signature) throws DwarfException {
    if (slots == 0) {
      return null;
    }
    int mask = slots - 1;
    int slot = (int) (signature & mask);
    int step = (int) ((signature >>> 32) & mask) | 1;
    for (int probe = 0; probe < slots; probe++) {
      long sig = buf.getLong(hashAt + slot * 8);
      long row = Integer.toUnsignedLong(buf.getInt(indexAt + slot * 4));
      if (row == 0) {
        return null;
      }
      if (sig == signature) {
        if (row > units) {
          throw new DwarfException(
              label + ": slot " + slot + " names row " + row + " of " + units + " rows");
        }
        return new Row((int) row - 1);
      }
      slot = (slot + step) & mask;
    }
    return null;
  }

  /** Ids of every filled slot (the units the package holds), for diagnostics and tests. */
  long[] signatures() {
    long[] out = new long[units];
    int n = 0;
    for (int s = 0; s < slots && n < out.length; s++) {
      if (buf.getInt(indexAt + s * 4) != 0) {
        out[n++] = buf.getLong(hashAt + s * 8);
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** One unit's contributions. */
  final class Row {
    private final int row;

    private Row(int row) {
      this.row = row;
    }

    /** The column of a section id, or -1 when the package has no such column. */
    int column(int sectionId) {
      for (int i = 0; i < columns; i++) {
        if (sectionIds[i] == sectionId) {
          return i;
        }
      }
      return -1;
    }

    long offset(int column) {
      return Integer.toUnsignedLong(buf.getInt(offsetsAt + (row * columns + column) * 4));
    }

    long size(int column) {
      return Integer.toUnsignedLong(buf.getInt(sizesAt + (row * columns + column) * 4));
    }
  }
}

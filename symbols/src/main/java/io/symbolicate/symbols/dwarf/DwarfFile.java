package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The DWARF sections of one file (the main file, or a DWZ supplementary file) with what is
 * worth keeping across units: the start offsets of its units (a long per unit), abbreviation
 * tables by offset (bounded), and a few recently used unit headers for cross-unit references.
 */
final class DwarfFile {
  /** Abbreviation tables kept at most (bytes of heap); past it the cache starts over. */
  private static final long ABBREV_CACHE_BYTES = 32L << 20;

  final boolean supplementary;

  /** The name of a split DWARF file ({@code .dwo}, or a unit of a {@code .dwp}), else null. */
  final String dwoName;

  final ByteBuffer info;
  final ByteBuffer abbrev;
  final ByteBuffer str;
  final ByteBuffer lineStr;
  final ByteBuffer strOffsets;
  final ByteBuffer addr;
  final ByteBuffer ranges;
  final ByteBuffer rnglists;
  final ByteBuffer line;
  final int defaultAddressSize;

  private final Map<Long, AbbrevTable> abbrevs = new HashMap<>();
  private long abbrevBytes;
  private long[] unitStarts;
  private int unitCount = -1;
  private final Map<Long, Unit> recentUnits =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Unit> e) {
          return size() > 16;
        }
      };

  DwarfFile(ObjectSections sections, boolean supplementary) {
    this(sections, supplementary, null, "");
  }

  /**
   * The sections of {@code sections} named {@code .debug_*} + {@code suffix}: the main or
   * supplementary file (no suffix), or a split DWARF file ({@code .dwo}).
   */
  private DwarfFile(ObjectSections sections, boolean supplementary, String dwoName, String suffix) {
    this(
        supplementary,
        dwoName,
        sections.addressSize(),
        section(sections, ".debug_info" + suffix),
        section(sections, ".debug_abbrev" + suffix),
        section(sections, ".debug_str" + suffix),
        section(sections, ".debug_line_str" + suffix),
        section(sections, ".debug_str_offsets" + suffix),
        section(sections, ".debug_addr" + suffix),
        section(sections, ".debug_ranges" + suffix),
        section(sections, ".debug_rnglists" + suffix),
        section(sections, ".debug_line" + suffix));
  }

  private DwarfFile(
      boolean supplementary,
      String dwoName,
      int defaultAddressSize,
      ByteBuffer info,
      ByteBuffer abbrev,
      ByteBuffer str,
      ByteBuffer lineStr,
      ByteBuffer strOffsets,
      ByteBuffer addr,
      ByteBuffer ranges,
      ByteBuffer rnglists,
      ByteBuffer line) {
    this.supplementary = supplementary;
    this.dwoName = dwoName;
    this.defaultAddressSize = defaultAddressSize;
    this.info = info;
    this.abbrev = abbrev;
    this.str = str;
    this.lineStr = lineStr;
    this.strOffsets = strOffsets;
    this.addr = addr;
    this.ranges = ranges;
    this.rnglists = rnglists;
    this.line = line;
  }

  /** The {@code .debug_*.dwo} sections of a split DWARF file or package. */
  static DwarfFile dwo(ObjectSections sections, String name) {
    return new DwarfFile(sections, false, name, ".dwo");
  }

  /**
   * One unit's share of a {@code .dwp} package: each section cut to the unit's contribution (as
   * its {@code .debug_cu_index} row gives it), {@code .debug_str.dwo} whole.
   */
  DwarfFile contribution(String name, DwpIndex.Row row) throws DwarfException {
    return new DwarfFile(
        false,
        name,
        defaultAddressSize,
        cut(info, row, DwpIndex.INFO, "info"),
        cut(abbrev, row, DwpIndex.ABBREV, "abbrev"),
        str,
        lineStr,
        cut(strOffsets, row, DwpIndex.STR_OFFSETS, "str_offsets"),
        addr,
        ranges,
        cut(rnglists, row, DwpIndex.RNGLISTS, "rnglists"),
        cut(line, row, DwpIndex.LINE, "line"));
  }

  private ByteBuffer cut(ByteBuffer whole, DwpIndex.Row row, int kind, String section)
      throws DwarfException {
    int col = row.column(kind);
    if (col < 0) {
      return kind == DwpIndex.INFO || kind == DwpIndex.ABBREV
          ? whole.slice(0, 0).order(whole.order())
          : whole;
    }
    long off = row.offset(col);
    long size = row.size(col);
    if (off < 0 || size < 0 || off > whole.limit() || size > whole.limit() - off) {
      throw new DwarfException(
          dwoName
              + ": .debug_cu_index gives .debug_"
              + section
              + ".dwo bytes "
              + off
              + "+"
              + size
              + ", outside its "
              + whole.limit()
              + " bytes");
    }
    return whole.slice((int) off, (int) size).order(whole.order());
  }

  private static ByteBuffer section(ObjectSections sections, String name) {
    ByteOrder order = sections.littleEndian() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    return sections
        .section(name)
        .map(Section::data)
        .map(b -> b.duplicate().order(order))
        .orElseGet(() -> ByteBuffer.allocate(0).order(order));
  }

  ByteBuffer byName(String name) {
    return switch (name) {
      case "info" -> info;
      case "abbrev" -> abbrev;
      case "str" -> str;
      case "line_str" -> lineStr;
      case "str_offsets" -> strOffsets;
      case "addr" -> addr;
      case "ranges" -> ranges;
      case "rnglists" -> rnglists;
      case "line" -> line;
      default -> throw new IllegalArgumentException(name);
    };
  }

  String label(String section) {
    if (dwoName != null) {
      return dwoName + ": .debug_" + section + ".dwo";
    }
    return (supplementary ? "supplementary " : "") + ".debug_" + section;
  }

  AbbrevTable abbrevAt(long offset) throws DwarfException {
    AbbrevTable t = abbrevs.get(offset);
    if (t == null) {
      if (offset < 0 || offset >= abbrev.limit()) {
        throw new DwarfException(
            label("abbrev") + ": offset " + offset + " outside its " + abbrev.limit() + " bytes");
      }
      t = AbbrevTable.read(new Cursor(label("abbrev"), abbrev), offset);
      if (abbrevBytes + t.heapBytes() > ABBREV_CACHE_BYTES) {
        abbrevs.clear();
        abbrevBytes = 0;
      }
      abbrevs.put(offset, t);
      abbrevBytes += t.heapBytes();
    }
    return t;
  }

  /** Reads the header of the unit at {@code offset} (and its abbreviations). */
  Unit header(long offset) throws DwarfException {
    Unit u = recentUnits.get(offset);
    if (u != null) {
      return u;
    }
    Cursor c = new Cursor(label("info"), info).at(offset, info.limit());
    long length = c.u32();
    int offsetSize = 4;
    if (length == 0xffffffffL) {
      length = c.u64();
      offsetSize = 8;
    } else if (length >= 0xfffffff0L) {
      throw new DwarfException(label("info") + ": reserved unit length at " + offset);
    }
    if (length < 2 || length > c.remaining()) {
      throw new DwarfException(
          label("info")
              + ": unit at "
              + offset
              + " claims "
              + Long.toUnsignedString(length)
              + " bytes, "
              + c.remaining()
              + " left");
    }
    long end = c.pos + length;
    c.end = (int) end;
    int version = c.u16();
    int unitType = Dw.UT_COMPILE;
    long headerId = 0;
    boolean hasHeaderId = false;
    long abbrevOffset;
    int addressSize;
    if (version >= 2 && version <= 4) {
      abbrevOffset = c.sized(offsetSize);
      addressSize = c.u8();
    } else if (version == 5) {
      unitType = c.u8();
      addressSize = c.u8();
      abbrevOffset = c.sized(offsetSize);
      switch (unitType) {
        case Dw.UT_SKELETON, Dw.UT_SPLIT_COMPILE -> {
          headerId = c.u64();
          hasHeaderId = true;
        }
        case Dw.UT_TYPE, Dw.UT_SPLIT_TYPE -> {
          c.u64();
          c.sized(offsetSize);
        }
        default -> {}
      }
    } else {
      throw new DwarfException(label("info") + ": unit at " + offset + " has version " + version);
    }
    if (addressSize != 4 && addressSize != 8 && addressSize != 2) {
      throw new DwarfException(
          label("info") + ": unit at " + offset + " has address size " + addressSize);
    }
    u =
        new Unit(
            this,
            offset,
            end,
            version,
            unitType,
            offsetSize,
            addressSize,
            c.pos,
            abbrevAt(abbrevOffset));
    if (hasHeaderId) {
      u.hasDwoId = true;
      u.dwoId = headerId;
    }
    recentUnits.put(offset, u);
    return u;
  }

  /** Offset just past the unit starting at {@code offset} (its header's length only). */
  long unitEnd(long offset) throws DwarfException {
    Cursor c = new Cursor(label("info"), info).at(offset, info.limit());
    long length = c.u32();
    if (length == 0xffffffffL) {
      length = c.u64();
    }
    if (length < 0 || length > c.remaining()) {
      throw new DwarfException(
          label("info") + ": unit at " + offset + " runs past the end of the section");
    }
    return c.pos + length;
  }

  /** The start of the unit holding {@code dieOffset}, or -1. */
  long unitContaining(long dieOffset) throws DwarfException {
    if (unitCount < 0) {
      long[] starts = new long[16];
      int n = 0;
      long off = 0;
      while (off < info.limit()) {
        if (n == starts.length) {
          starts = Arrays.copyOf(starts, n * 2);
        }
        starts[n++] = off;
        off = unitEnd(off);
      }
      unitStarts = starts;
      unitCount = n;
    }
    int i = Arrays.binarySearch(unitStarts, 0, unitCount, dieOffset);
    int idx = i >= 0 ? i : -i - 2;
    return idx < 0 ? -1 : unitStarts[idx];
  }
}

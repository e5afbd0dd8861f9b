package io.symbolicate.symbols.dwarf;

/**
 * A unit's header and the attributes of its root DIE that other reads depend on (string offset,
 * address and range list bases, compile directory, low pc, language).
 */
final class Unit {
  final DwarfFile file;
  final long offset;
  final long end;
  final int version;
  final int unitType;
  final int offsetSize;
  final int addressSize;
  final long dieStart;
  final AbbrevTable abbrev;

  int rootTag;
  long strOffsetsBase;
  long addrBase;
  long rnglistsBase;

  /** DW_AT_GNU_ranges_base of a DWARF 4 skeleton: where its .dwo's range offsets start. */
  long gnuRangesBase;

  /** The file whose .debug_addr the unit's address indexes read (a skeleton's, for a split unit). */
  DwarfFile addrFile;

  /** For a split unit: the skeleton unit in the executable it completes; else null. */
  Unit skeleton;

  long lowPc;
  boolean hasRanges;
  long stmtList = -1;
  int language;
  String compDir;
  String name;
  long dwoId;
  boolean hasDwoId;
  String dwoName;

  Unit(
      DwarfFile file,
      long offset,
      long end,
      int version,
      int unitType,
      int offsetSize,
      int addressSize,
      long dieStart,
      AbbrevTable abbrev) {
    this.file = file;
    this.offset = offset;
    this.end = end;
    this.version = version;
    this.unitType = unitType;
    this.offsetSize = offsetSize;
    this.addressSize = addressSize;
    this.dieStart = dieStart;
    this.abbrev = abbrev;
    this.addrFile = file;
  }

  /** A skeleton unit: DWARF 5's, or a GNU (DWARF 4) compile unit naming its .dwo. */
  boolean isSkeleton() {
    return unitType == Dw.UT_SKELETON
        || rootTag == Dw.TAG_SKELETON_UNIT
        || (version < 5 && rootTag == Dw.TAG_COMPILE_UNIT && hasDwoId && file.dwoName == null);
  }

  /**
   * Takes from its skeleton what a split unit's root does not say: the address table and base,
   * the base address and ranges base, the compile directory.
   */
  void attach(Unit skel) {
    skeleton = skel;
    addrFile = skel.addrFile;
    addrBase = skel.addrBase;
    lowPc = skel.lowPc;
    hasRanges = skel.hasRanges;
    gnuRangesBase = skel.gnuRangesBase;
    compDir = skel.compDir;
    language = skel.language;
  }

  boolean contains(long dieOffset) {
    return dieOffset >= dieStart && dieOffset < end;
  }

  /** The tombstone a linker writes for a dead address of this size (-1 and -2 as unsigned). */
  boolean isTombstone(long address) {
    long max = addressSize == 4 ? 0xffffffffL : -1L;
    return address == max || address == max - 1;
  }
}

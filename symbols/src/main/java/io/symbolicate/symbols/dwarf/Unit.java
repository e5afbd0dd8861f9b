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

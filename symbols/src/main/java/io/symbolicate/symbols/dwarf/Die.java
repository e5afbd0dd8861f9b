package io.symbolicate.symbols.dwarf;

/** The attributes of one DIE that this reader uses, as read (a reusable scratch record). */
final class Die {
  long offset;
  int tag;
  boolean children;

  /** Offset of the next DIE (just past this one's attributes). */
  long next;

  final AttrValue name = new AttrValue();
  final AttrValue linkage = new AttrValue();

  /** The last of DW_AT_specification / DW_AT_abstract_origin in attribute order. */
  final AttrValue ref = new AttrValue();

  final AttrValue lowPc = new AttrValue();
  final AttrValue highPc = new AttrValue();
  final AttrValue ranges = new AttrValue();
  final AttrValue callFile = new AttrValue();
  final AttrValue callLine = new AttrValue();
  final AttrValue stmtList = new AttrValue();
  final AttrValue compDir = new AttrValue();
  final AttrValue language = new AttrValue();
  final AttrValue strOffsetsBase = new AttrValue();
  final AttrValue addrBase = new AttrValue();
  final AttrValue rnglistsBase = new AttrValue();
  final AttrValue gnuRangesBase = new AttrValue();
  final AttrValue dwoId = new AttrValue();
  final AttrValue dwoName = new AttrValue();

  void clear() {
    name.kind = AttrValue.NONE;
    linkage.kind = AttrValue.NONE;
    ref.kind = AttrValue.NONE;
    lowPc.kind = AttrValue.NONE;
    highPc.kind = AttrValue.NONE;
    ranges.kind = AttrValue.NONE;
    callFile.kind = AttrValue.NONE;
    callLine.kind = AttrValue.NONE;
    stmtList.kind = AttrValue.NONE;
    compDir.kind = AttrValue.NONE;
    language.kind = AttrValue.NONE;
    strOffsetsBase.kind = AttrValue.NONE;
    addrBase.kind = AttrValue.NONE;
    rnglistsBase.kind = AttrValue.NONE;
    gnuRangesBase.kind = AttrValue.NONE;
    dwoId.kind = AttrValue.NONE;
    dwoName.kind = AttrValue.NONE;
  }
}

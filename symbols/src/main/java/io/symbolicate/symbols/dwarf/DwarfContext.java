package io.symbolicate.symbols.dwarf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads attribute values, strings, addresses and range lists of units of the main file and its
 * DWZ supplementary file (when given): the part of the reader every other part uses.
 */
final class DwarfContext {
  /** Most ranges one DIE may list (a longer list is cut with a reason). */
  static final int MAX_RANGES = 1 << 20;

  final DwarfFile main;
  final DwarfFile alt;
  private final AttrValue scratch = new AttrValue();
  private byte[] strBuf = new byte[256];

  DwarfContext(DwarfFile main, DwarfFile alt) {
    this.main = main;
    this.alt = alt;
  }

  /** Reads the header of a unit and the attributes of its root DIE. */
  Unit unit(DwarfFile file, long offset) throws DwarfException {
    Unit u = file.header(offset);
    if (u.rootTag == 0) {
      loadRoot(u);
    }
    return u;
  }

  /**
   * Reads the root DIE of a split unit found for {@code skeleton}, after taking what the split
   * unit inherits from it (its address table first: the root's own addresses are indexes into it).
   */
  Unit splitUnit(DwarfFile file, long offset, Unit skeleton) throws DwarfException {
    Unit u = file.header(offset);
    u.attach(skeleton);
    loadRoot(u);
    return u;
  }

  private void loadRoot(Unit u) throws DwarfException {
    Die d = new Die();
    Cursor c = new Cursor(u.file.label("info"), u.file.info).at(u.dieStart, u.end);
    readDie(u, c, d);
    u.rootTag = d.tag == 0 ? -1 : d.tag;
    if (d.strOffsetsBase.present()) {
      u.strOffsetsBase = d.strOffsetsBase.value;
    } else if (u.unitType == Dw.UT_SPLIT_COMPILE) {
      u.strOffsetsBase = u.offsetSize == 8 ? 16 : 8;
    }
    if (d.addrBase.present()) {
      u.addrBase = d.addrBase.value;
    }
    if (d.rnglistsBase.present()) {
      u.rnglistsBase = d.rnglistsBase.value;
    } else if (u.unitType == Dw.UT_SPLIT_COMPILE) {
      // a split unit's range list indexes start after its .debug_rnglists.dwo header
      u.rnglistsBase = u.offsetSize == 8 ? 20 : 12;
    }
    if (d.gnuRangesBase.present()) {
      u.gnuRangesBase = d.gnuRangesBase.value;
    }
    if (d.lowPc.present()) {
      u.lowPc = address(u, d.lowPc);
    }
    u.hasRanges |= d.ranges.present();
    if (d.stmtList.present()) {
      u.stmtList = d.stmtList.value;
    }
    if (d.language.present()) {
      u.language = (int) d.language.value;
    }
    if (d.compDir.present()) {
      u.compDir = stringValue(u, d.compDir);
    }
    u.name = d.name.present() ? stringValue(u, d.name) : null;
    if (d.dwoId.present()) {
      u.hasDwoId = true;
      u.dwoId = d.dwoId.value;
    }
    u.dwoName = d.dwoName.present() ? stringValue(u, d.dwoName) : null;
  }

  /**
   * Reads the DIE at the cursor into {@code d}, leaving the cursor after it. A null entry (end of
   * siblings) gives tag 0.
   */
  void readDie(Unit u, Cursor c, Die d) throws DwarfException {
    d.offset = c.pos;
    d.clear();
    long code = c.uleb();
    if (code == 0) {
      d.tag = 0;
      d.children = false;
      d.next = c.pos;
      return;
    }
    AbbrevTable t = u.abbrev;
    int e = t.find(code);
    if (e < 0) {
      throw new DwarfException(
          u.file.label("info") + ": DIE at " + d.offset + " uses unknown abbreviation " + code);
    }
    d.tag = t.tag[e];
    d.children = t.children[e];
    int first = t.first[e];
    int n = t.specs[e];
    for (int i = first; i < first + n; i++) {
      AttrValue target =
          switch (t.name[i]) {
            case Dw.AT_NAME -> d.name;
            case Dw.AT_LINKAGE_NAME, Dw.AT_MIPS_LINKAGE_NAME -> d.linkage;
            case Dw.AT_SPECIFICATION, Dw.AT_ABSTRACT_ORIGIN -> d.ref;
            case Dw.AT_LOW_PC -> d.lowPc;
            case Dw.AT_HIGH_PC -> d.highPc;
            case Dw.AT_RANGES -> d.ranges;
            case Dw.AT_CALL_FILE -> d.callFile;
            case Dw.AT_CALL_LINE -> d.callLine;
            case Dw.AT_STMT_LIST -> d.stmtList;
            case Dw.AT_COMP_DIR -> d.compDir;
            case Dw.AT_LANGUAGE -> d.language;
            case Dw.AT_STR_OFFSETS_BASE -> d.strOffsetsBase;
            case Dw.AT_ADDR_BASE, Dw.AT_GNU_ADDR_BASE -> d.addrBase;
            case Dw.AT_RNGLISTS_BASE -> d.rnglistsBase;
            case Dw.AT_GNU_RANGES_BASE -> d.gnuRangesBase;
            case Dw.AT_GNU_DWO_ID -> d.dwoId;
            case Dw.AT_DWO_NAME, Dw.AT_GNU_DWO_NAME -> d.dwoName;
            default -> scratch;
          };
      readAttr(c, u, t.form[i], t.implicitConst[i], target);
    }
    d.next = c.pos;
  }

  /** Reads one attribute value of {@code form}, moving the cursor past it. */
  void readAttr(Cursor c, Unit u, int form, long implicit, AttrValue out) throws DwarfException {
    switch (form) {
      case Dw.FORM_ADDR -> out.set(AttrValue.ADDR, c.sized(u.addressSize));
      case Dw.FORM_BLOCK1 -> skipBlock(c, c.u8(), out);
      case Dw.FORM_BLOCK2 -> skipBlock(c, c.u16(), out);
      case Dw.FORM_BLOCK4 -> skipBlock(c, c.u32(), out);
      case Dw.FORM_BLOCK, Dw.FORM_EXPRLOC -> skipBlock(c, c.uleb(), out);
      case Dw.FORM_DATA1 -> out.set(AttrValue.UDATA, c.u8());
      case Dw.FORM_DATA2 -> out.set(AttrValue.UDATA, c.u16());
      case Dw.FORM_DATA4 -> out.set(AttrValue.UDATA, c.u32());
      case Dw.FORM_DATA8 -> out.set(AttrValue.UDATA, c.u64());
      case Dw.FORM_DATA16 -> skipBlock(c, 16, out);
      case Dw.FORM_SDATA -> out.set(AttrValue.SDATA, c.sleb());
      case Dw.FORM_UDATA -> out.set(AttrValue.UDATA, c.uleb());
      case Dw.FORM_STRING -> out.set(AttrValue.STRING_INLINE, c.cstring());
      case Dw.FORM_STRP -> out.set(AttrValue.STRP, c.sized(u.offsetSize));
      case Dw.FORM_LINE_STRP -> out.set(AttrValue.LINE_STRP, c.sized(u.offsetSize));
      case Dw.FORM_STRP_SUP, Dw.FORM_GNU_STRP_ALT ->
          out.set(AttrValue.STRP_ALT, c.sized(u.offsetSize));
      case Dw.FORM_STRX, Dw.FORM_GNU_STR_INDEX -> out.set(AttrValue.STRX, c.uleb());
      case Dw.FORM_STRX1 -> out.set(AttrValue.STRX, c.u8());
      case Dw.FORM_STRX2 -> out.set(AttrValue.STRX, c.u16());
      case Dw.FORM_STRX3 -> out.set(AttrValue.STRX, c.u24());
      case Dw.FORM_STRX4 -> out.set(AttrValue.STRX, c.u32());
      case Dw.FORM_ADDRX, Dw.FORM_GNU_ADDR_INDEX -> out.set(AttrValue.ADDRX, c.uleb());
      case Dw.FORM_ADDRX1 -> out.set(AttrValue.ADDRX, c.u8());
      case Dw.FORM_ADDRX2 -> out.set(AttrValue.ADDRX, c.u16());
      case Dw.FORM_ADDRX3 -> out.set(AttrValue.ADDRX, c.u24());
      case Dw.FORM_ADDRX4 -> out.set(AttrValue.ADDRX, c.u32());
      case Dw.FORM_FLAG -> out.set(AttrValue.FLAG, c.u8());
      case Dw.FORM_FLAG_PRESENT -> out.set(AttrValue.FLAG, 1);
      case Dw.FORM_REF1 -> out.set(AttrValue.REF, u.offset + c.u8());
      case Dw.FORM_REF2 -> out.set(AttrValue.REF, u.offset + c.u16());
      case Dw.FORM_REF4 -> out.set(AttrValue.REF, u.offset + c.u32());
      case Dw.FORM_REF8 -> out.set(AttrValue.REF, u.offset + c.u64());
      case Dw.FORM_REF_UDATA -> out.set(AttrValue.REF, u.offset + c.uleb());
      case Dw.FORM_REF_ADDR ->
          out.set(AttrValue.REF, c.sized(u.version <= 2 ? u.addressSize : u.offsetSize));
      case Dw.FORM_REF_SIG8 -> out.set(AttrValue.SIG8, c.u64());
      case Dw.FORM_REF_SUP4 -> out.set(AttrValue.REF_ALT, c.u32());
      case Dw.FORM_REF_SUP8 -> out.set(AttrValue.REF_ALT, c.u64());
      case Dw.FORM_GNU_REF_ALT -> out.set(AttrValue.REF_ALT, c.sized(u.offsetSize));
      case Dw.FORM_SEC_OFFSET -> out.set(AttrValue.SEC_OFFSET, c.sized(u.offsetSize));
      case Dw.FORM_IMPLICIT_CONST -> out.set(AttrValue.SDATA, implicit);
      case Dw.FORM_LOCLISTX -> out.set(AttrValue.LOCLISTX, c.uleb());
      case Dw.FORM_RNGLISTX -> out.set(AttrValue.RNGLISTX, c.uleb());
      case Dw.FORM_INDIRECT -> {
        int actual = c.ulebInt("indirect form");
        if (actual == Dw.FORM_INDIRECT || actual == Dw.FORM_IMPLICIT_CONST) {
          throw new DwarfException(
              c.section + ": DW_FORM_indirect names form " + actual + " at " + c.pos);
        }
        readAttr(c, u, actual, 0, out);
      }
      default ->
          throw new DwarfException(c.section + ": unknown form 0x" + Integer.toHexString(form));
    }
  }

  private static void skipBlock(Cursor c, long length, AttrValue out) throws DwarfException {
    c.skip(length);
    out.set(AttrValue.BLOCK, length);
  }

  /** The string an attribute names, or null when it cannot be had (missing file, bad offset). */
  String stringValue(Unit u, AttrValue v) throws DwarfException {
    DwarfFile f = u.file;
    switch (v.kind) {
      case AttrValue.STRING_INLINE:
        return stringAt(f.info, f.label("info"), v.value);
      case AttrValue.STRP:
        return stringAt(f.str, f.label("str"), v.value);
      case AttrValue.LINE_STRP:
        return stringAt(f.lineStr, f.label("line_str"), v.value);
      case AttrValue.STRP_ALT:
        return alt == null ? null : stringAt(alt.str, alt.label("str"), v.value);
      case AttrValue.STRX:
        {
          long at = u.strOffsetsBase + v.value * u.offsetSize;
          if (v.value < 0 || v.value > Integer.MAX_VALUE || at < 0) {
            throw new DwarfException(f.label("str_offsets") + ": index " + v.value);
          }
          Cursor c = new Cursor(f.label("str_offsets"), f.strOffsets);
          c.at(at, f.strOffsets.limit());
          return stringAt(f.str, f.label("str"), c.sized(u.offsetSize));
        }
      default:
        return null;
    }
  }

  private String stringAt(ByteBuffer buf, String label, long offset) throws DwarfException {
    if (offset < 0 || offset >= buf.limit()) {
      throw new DwarfException(
          label
              + ": string offset "
              + Long.toUnsignedString(offset)
              + " outside its "
              + buf.limit()
              + " bytes");
    }
    int start = (int) offset;
    int i = start;
    int limit = buf.limit();
    while (i < limit && buf.get(i) != 0) {
      i++;
    }
    if (i >= limit) {
      throw new DwarfException(label + ": string at " + offset + " has no terminating NUL");
    }
    return decodeInto(buf, start, i - start);
  }

  /** The string in a cursor's section at {@code start} (a cstring the cursor just passed). */
  String string(Cursor c, int start) {
    return decodeInto(c.buf, start, c.pos - 1 - start);
  }

  private String decodeInto(ByteBuffer buf, int start, int len) {
    if (strBuf.length < len) {
      strBuf = new byte[Math.max(len, strBuf.length * 2)];
    }
    buf.get(start, strBuf, 0, len);
    return new String(strBuf, 0, len, StandardCharsets.UTF_8);
  }

  static String decode(ByteBuffer buf, int start, int len) {
    byte[] b = new byte[len];
    buf.get(start, b, 0, len);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** The address an ADDR or ADDRX value stands for. */
  long address(Unit u, AttrValue v) throws DwarfException {
    if (v.kind == AttrValue.ADDR) {
      return v.value;
    }
    if (v.kind == AttrValue.ADDRX) {
      return indexedAddress(u, v.value);
    }
    throw new DwarfException(u.file.label("info") + ": an address attribute of another form");
  }

  long indexedAddress(Unit u, long index) throws DwarfException {
    DwarfFile f = u.addrFile;
    long at = u.addrBase + index * u.addressSize;
    if (index < 0 || index > Integer.MAX_VALUE || at < 0 || at > f.addr.limit()) {
      throw new DwarfException(f.label("addr") + ": index " + Long.toUnsignedString(index));
    }
    return new Cursor(f.label("addr"), f.addr).at(at, f.addr.limit()).sized(u.addressSize);
  }

  /**
   * The unit a reference points into, with the reference's absolute offset in {@code out[0]}; null
   * when it cannot be followed (supplementary file missing, offset outside every unit).
   */
  Unit refTarget(Unit from, AttrValue ref, long[] out) throws DwarfException {
    DwarfFile f;
    if (ref.kind == AttrValue.REF) {
      f = from.file;
    } else if (ref.kind == AttrValue.REF_ALT) {
      f = alt;
      if (f == null) {
        return null;
      }
    } else {
      return null;
    }
    long off = ref.value;
    out[0] = off;
    if (f == from.file && from.contains(off)) {
      return from;
    }
    if (off < 0 || off >= f.info.limit()) {
      return null;
    }
    long start = f.unitContaining(off);
    if (start < 0) {
      return null;
    }
    Unit u = unit(f, start);
    return u.contains(off) ? u : null;
  }

  /**
   * Appends the ranges of a DIE as (begin, end) pairs to {@code out}, tombstones and ranges at 0
   * left out; returns the new count of longs.
   */
  int ranges(Unit u, Die d, long[][] outRef, int n) throws DwarfException {
    if (d.ranges.present()) {
      return rangeList(u, d.ranges, outRef, n);
    }
    if (!d.lowPc.present() || !d.highPc.present()) {
      return n;
    }
    long low = address(u, d.lowPc);
    long high = d.highPc.isConstant() ? low + d.highPc.value : address(u, d.highPc);
    return add(u, low, high, outRef, n);
  }

  private static int add(Unit u, long begin, long end, long[][] outRef, int n)
      throws DwarfException {
    if (begin == 0 || u.isTombstone(begin) || Long.compareUnsigned(begin, end) >= 0) {
      return n;
    }
    long[] out = outRef[0];
    if (n + 2 > out.length) {
      if (n >= 2 * MAX_RANGES) {
        throw new DwarfException(u.file.label("info") + ": more than " + MAX_RANGES + " ranges");
      }
      out = Arrays.copyOf(out, Math.max(16, out.length * 2));
      outRef[0] = out;
    }
    out[n] = begin;
    out[n + 1] = end;
    return n + 2;
  }

  private int rangeList(Unit u, AttrValue v, long[][] outRef, int n) throws DwarfException {
    DwarfFile f = u.file;
    if (u.version < 5) {
      if (v.kind != AttrValue.SEC_OFFSET && v.kind != AttrValue.UDATA) {
        return n;
      }
      long at = v.value;
      if (u.skeleton != null) {
        // GNU split DWARF: a .dwo's range lists are in the executable's .debug_ranges
        f = u.skeleton.file;
        at += u.gnuRangesBase;
      }
      Cursor c = new Cursor(f.label("ranges"), f.ranges).at(at, f.ranges.limit());
      long base = u.lowPc;
      long max = u.addressSize == 4 ? 0xffffffffL : -1L;
      while (true) {
        long begin = c.sized(u.addressSize);
        long end = c.sized(u.addressSize);
        if (begin == 0 && end == 0) {
          return n;
        }
        if (begin == max) {
          base = end;
          continue;
        }
        n = add(u, base + begin, base + end, outRef, n);
      }
    }
    long offset;
    if (v.kind == AttrValue.RNGLISTX) {
      long at = u.rnglistsBase + v.value * u.offsetSize;
      if (v.value < 0 || v.value > Integer.MAX_VALUE) {
        throw new DwarfException(f.label("rnglists") + ": index " + v.value);
      }
      Cursor c = new Cursor(f.label("rnglists"), f.rnglists).at(at, f.rnglists.limit());
      offset = u.rnglistsBase + c.sized(u.offsetSize);
    } else if (v.kind == AttrValue.SEC_OFFSET || v.kind == AttrValue.UDATA) {
      offset = v.value;
    } else {
      return n;
    }
    Cursor c = new Cursor(f.label("rnglists"), f.rnglists).at(offset, f.rnglists.limit());
    long base = u.lowPc;
    while (true) {
      int kind = c.u8();
      switch (kind) {
        case 0:
          return n;
        case 1:
          base = indexedAddress(u, c.uleb());
          break;
        case 2:
          {
            long b = indexedAddress(u, c.uleb());
            n = add(u, b, indexedAddress(u, c.uleb()), outRef, n);
            break;
          }
        case 3:
          {
            long b = indexedAddress(u, c.uleb());
            n = add(u, b, b + c.uleb(), outRef, n);
            break;
          }
        case 4:
          {
            long b = c.uleb();
            long e = c.uleb();
            if (!u.isTombstone(base)) {
              n = add(u, base + b, base + e, outRef, n);
            }
            break;
          }
        case 5:
          base = c.sized(u.addressSize);
          break;
        case 6:
          {
            long b = c.sized(u.addressSize);
            n = add(u, b, c.sized(u.addressSize), outRef, n);
            break;
          }
        case 7:
          {
            long b = c.sized(u.addressSize);
            n = add(u, b, b + c.uleb(), outRef, n);
            break;
          }
        default:
          throw new DwarfException(f.label("rnglists") + ": entry kind " + kind + " at " + c.pos);
      }
    }
  }
}

package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.dwarf.TinyDwarf.Bytes;

/**
 * Split DWARF for tests: an executable's skeleton unit and the {@code .dwo} it names (DWARF 5, or
 * GNU's DWARF 4 forms), and a {@code .dwp} package of it. The split unit holds two functions,
 * {@code split_a} at 0x1000 (0x20 bytes) and {@code split_b} at 0x1040 (0x10 bytes), their
 * addresses indexes into the skeleton's {@code .debug_addr}.
 */
final class TinySplitDwarf {
  static final String DWO_NAME = "unit.dwo";

  private TinySplitDwarf() {}

  /** The executable: one skeleton unit with DWO id {@code id} covering 0x1000..0x1080. */
  static TinyDwarf skeleton(int version, long id) {
    Bytes abbrev = new Bytes();
    Bytes die = new Bytes().uleb(1);
    if (version >= 5) {
      // skeleton_unit: dwo_name string, low_pc addr, high_pc data8, addr_base sec_offset
      abbrev.uleb(1).uleb(0x4a).u8(0);
      abbrev.uleb(0x76).uleb(0x08).uleb(0x11).uleb(0x01).uleb(0x12).uleb(0x07);
      abbrev.uleb(0x73).uleb(0x17).uleb(0).uleb(0).uleb(0);
      die.str(DWO_NAME).u64(0x1000).u64(0x80).u32(8);
    } else {
      // compile_unit: GNU_dwo_name string, low_pc, high_pc, GNU_addr_base, GNU_dwo_id data8
      abbrev.uleb(1).uleb(0x11).u8(0);
      abbrev.uleb(0x2130).uleb(0x08).uleb(0x11).uleb(0x01).uleb(0x12).uleb(0x07);
      abbrev.uleb(0x2133).uleb(0x17).uleb(0x2131).uleb(0x07).uleb(0).uleb(0).uleb(0);
      die.str(DWO_NAME).u64(0x1000).u64(0x80).u32(0).u64(id);
    }
    byte[] dies = die.toArray();
    byte[] info = version >= 5 ? unit5(4, id, dies) : TinyDwarf.unit4(dies);
    Bytes addr = new Bytes();
    if (version >= 5) {
      addr.u32(4 + 16).u16(5).u8(8).u8(0); // header: the base is 8
    }
    addr.u64(0x1000).u64(0x1040);
    return new TinyDwarf()
        .put(".debug_info", info)
        .put(".debug_abbrev", abbrev.toArray())
        .put(".debug_addr", addr.toArray());
  }

  /** The .dwo of {@link #skeleton}: a split compile unit with id {@code id}. */
  static TinyDwarf dwo(int version, long id) {
    return new TinyDwarf()
        .put(".debug_info.dwo", dwoInfo(version, id))
        .put(".debug_abbrev.dwo", dwoAbbrev(version))
        .put(".debug_str.dwo", new Bytes().str("split_a").str("split_b").toArray())
        .put(".debug_str_offsets.dwo", strOffsets(version));
  }

  static byte[] dwoAbbrev(int version) {
    Bytes a = new Bytes();
    // 1: compile_unit with children: name string (+ GNU_dwo_id data8 in DWARF 4)
    a.uleb(1).uleb(0x11).u8(1).uleb(0x03).uleb(0x08);
    if (version < 5) {
      a.uleb(0x2131).uleb(0x07);
    }
    a.uleb(0).uleb(0);
    // 2: subprogram: name strx, low_pc addrx, high_pc data8 (GNU forms in DWARF 4)
    int strx = version >= 5 ? 0x1a : 0x1f02;
    int addrx = version >= 5 ? 0x1b : 0x1f01;
    a.uleb(2).uleb(0x2e).u8(0).uleb(0x03).uleb(strx).uleb(0x11).uleb(addrx);
    a.uleb(0x12).uleb(0x07).uleb(0).uleb(0);
    return a.uleb(0).toArray();
  }

  static byte[] dwoInfo(int version, long id) {
    Bytes die = new Bytes().uleb(1).str("unit.c");
    if (version < 5) {
      die.u64(id);
    }
    die.uleb(2).uleb(0).uleb(0).u64(0x20);
    die.uleb(2).uleb(1).uleb(1).u64(0x10);
    die.u8(0);
    byte[] dies = die.toArray();
    return version >= 5 ? unit5(5, id, dies) : TinyDwarf.unit4(dies);
  }

  /** DWARF 5 split units find their strings after an 8-byte header; GNU's have none. */
  static byte[] strOffsets(int version) {
    Bytes b = new Bytes();
    if (version >= 5) {
      b.u32(4 + 8).u16(5).u16(0);
    }
    return b.u32(0).u32(8).toArray();
  }

  /** A DWARF 5 unit header of {@code type} (skeleton 4, split compile 5) with its id. */
  static byte[] unit5(int type, long id, byte[] dies) {
    return new Bytes()
        .u32(2 + 1 + 1 + 4 + 8 + dies.length)
        .u16(5)
        .u8(type)
        .u8(8)
        .u32(0)
        .u64(id)
        .bytes(dies)
        .toArray();
  }

  /**
   * A package of the .dwo of {@code id}: its sections, and a one-unit {@code .debug_cu_index}
   * (version 5 or GNU 2) with {@code slots} slots whose rows say the contributions.
   */
  static TinyDwarf dwp(int version, long id) {
    TinyDwarf d = dwo(version, id);
    byte[] info = dwoInfo(version, id);
    byte[] abbrev = dwoAbbrev(version);
    byte[] so = strOffsets(version);
    d.put(
        ".debug_cu_index",
        index(
            version >= 5 ? 5 : 2,
            new long[] {id},
            new int[] {1, 3, 6},
            new long[][] {{0, 0, 0}},
            new long[][] {{info.length, abbrev.length, so.length}},
            4));
    return d;
  }

  /** A {@code .debug_cu_index}: the units' ids, the columns' section ids, offsets and sizes. */
  static byte[] index(
      int version, long[] ids, int[] columns, long[][] offsets, long[][] sizes, int slots) {
    Bytes b = new Bytes();
    if (version == 5) {
      b.u16(5).u16(0);
    } else {
      b.u32(version);
    }
    b.u32(columns.length).u32(ids.length).u32(slots);
    long[] sig = new long[slots];
    int[] row = new int[slots];
    for (int i = 0; i < ids.length; i++) {
      int mask = slots - 1;
      int s = (int) (ids[i] & mask);
      int step = (int) ((ids[i] >>> 32) & mask) | 1;
      while (row[s] != 0) {
        s = (s + step) & mask;
      }
      sig[s] = ids[i];
      row[s] = i + 1;
    }
    for (long s : sig) {
      b.u64(s);
    }
    for (int r : row) {
      b.u32(r);
    }
    for (int c : columns) {
      b.u32(c);
    }
    for (long[] o : offsets) {
      for (long v : o) {
        b.u32(v);
      }
    }
    for (long[] s : sizes) {
      for (long v : s) {
        b.u32(v);
      }
    }
    return b.toArray();
  }
}

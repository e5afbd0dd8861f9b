package io.symbolicate.symbols.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.dwarf.TinyDwarf.Bytes;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** DWARF that lies or loops: refused with a reason or read to an end, never a hang or an SOE. */
@Timeout(20)
class DwarfHostileInputTest {
  /** Abbreviations used below (DWARF 4 forms). */
  private static byte[] abbrevs() {
    return new Bytes()
        // 1: compile_unit, children: name string, low_pc addr, high_pc data8
        .uleb(1)
        .uleb(0x11)
        .u8(1)
        .uleb(0x03)
        .uleb(0x08)
        .uleb(0x11)
        .uleb(0x01)
        .uleb(0x12)
        .uleb(0x07)
        .uleb(0)
        .uleb(0)
        // 2: subprogram: low_pc, high_pc, abstract_origin ref4
        .uleb(2)
        .uleb(0x2e)
        .u8(0)
        .uleb(0x11)
        .uleb(0x01)
        .uleb(0x12)
        .uleb(0x07)
        .uleb(0x31)
        .uleb(0x13)
        .uleb(0)
        .uleb(0)
        // 4: lexical_block with children, no attributes
        .uleb(4)
        .uleb(0x0b)
        .u8(1)
        .uleb(0)
        .uleb(0)
        // 5: subprogram: name with DW_FORM_indirect
        .uleb(5)
        .uleb(0x2e)
        .u8(0)
        .uleb(0x03)
        .uleb(0x16)
        .uleb(0)
        .uleb(0)
        // 6: compile_unit, no children: low_pc, high_pc, stmt_list sec_offset
        .uleb(6)
        .uleb(0x11)
        .u8(0)
        .uleb(0x11)
        .uleb(0x01)
        .uleb(0x12)
        .uleb(0x07)
        .uleb(0x10)
        .uleb(0x17)
        .uleb(0)
        .uleb(0)
        .uleb(0)
        .toArray();
  }

  private static Bytes cu() {
    return new Bytes().uleb(1).str("cu").u64(0x1000).u64(0x100);
  }

  private static String read(TinyDwarf d) throws DwarfException {
    SymWriter w = new SymWriter();
    new DwarfReader(d, DwarfOptions.defaults().withInlines(true)).read(w);
    StringWriter out = new StringWriter();
    try {
      w.writeTo(out);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toString();
  }

  private static TinyDwarf sections(byte[] info) {
    return new TinyDwarf().put(".debug_abbrev", abbrevs()).put(".debug_info", info);
  }

  @Test
  void abstractOriginCycleEndsWithNoName() throws Exception {
    // DIE A at 31 points to B at 52, B back to A: the chain stops at the repeated DIE
    byte[] dies =
        cu().uleb(2).u64(0x1000).u64(0x10).u32(52).uleb(2).u64(0).u64(0).u32(31).u8(0).toArray();
    assertEquals("FUNC 1000 10 0 \n", read(sections(TinyDwarf.unit4(dies))));
  }

  @Test
  void abstractOriginToItself() throws Exception {
    byte[] dies = cu().uleb(2).u64(0x1000).u64(0x10).u32(31).u8(0).toArray();
    assertEquals("FUNC 1000 10 0 \n", read(sections(TinyDwarf.unit4(dies))));
  }

  @Test
  void deeplyNestedDiesNeedNoStack() throws Exception {
    Bytes b = cu();
    int depth = 200_000;
    for (int i = 0; i < depth; i++) {
      b.uleb(4);
    }
    for (int i = 0; i < depth; i++) {
      b.u8(0);
    }
    b.uleb(2).u64(0x1000).u64(0x10).u32(0).u8(0);
    String out = read(sections(TinyDwarf.unit4(b.toArray())));
    assertTrue(out.startsWith("FUNC 1000 10 0"), out);
  }

  @Test
  void indirectFormNamingItselfIsRefused() {
    byte[] dies = cu().uleb(5).uleb(0x16).uleb(0x08).str("x").u8(0).toArray();
    DwarfException e =
        assertThrows(DwarfException.class, () -> read(sections(TinyDwarf.unit4(dies))));
    assertTrue(e.getMessage().contains("DW_FORM_indirect"), e.getMessage());
  }

  @Test
  void unknownAbbreviationIsRefused() {
    byte[] dies = cu().uleb(99).u8(0).toArray();
    DwarfException e =
        assertThrows(DwarfException.class, () -> read(sections(TinyDwarf.unit4(dies))));
    assertTrue(e.getMessage().contains("unknown abbreviation 99"), e.getMessage());
  }

  @Test
  void unitLongerThanItsSectionIsRefused() {
    byte[] info = new Bytes().u32(1000).u16(4).u32(0).u8(8).toArray();
    DwarfException e = assertThrows(DwarfException.class, () -> read(sections(info)));
    assertTrue(e.getMessage().contains("unit at 0 runs past the end"), e.getMessage());
  }

  @Test
  void lineTableClaimingFourBillionFilesIsRefused() {
    Bytes header =
        new Bytes()
            .u8(1)
            .u8(1)
            .u8(1)
            .u8(-5 & 0xff)
            .u8(14)
            .u8(13)
            .bytes(new byte[] {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1})
            .u8(1)
            .uleb(1)
            .uleb(0x08)
            .uleb(1)
            .str("/d")
            .u8(2)
            .uleb(1)
            .uleb(0x08)
            .uleb(2)
            .uleb(0x0b)
            .uleb(1L << 32)
            .str("a.c")
            .u8(0);
    byte[] h = header.toArray();
    Bytes rest = new Bytes().u16(5).u8(8).u8(0).u32(h.length).bytes(h);
    byte[] r = rest.toArray();
    byte[] line = new Bytes().u32(r.length).bytes(r).toArray();
    byte[] dies = new Bytes().uleb(6).u64(0x1000).u64(0x10).u32(0).toArray();
    TinyDwarf d = sections(TinyDwarf.unit4(dies)).put(".debug_line", line);
    DwarfException e = assertThrows(DwarfException.class, () -> read(d));
    assertTrue(e.getMessage().contains("4294967296 directory or file entries"), e.getMessage());
  }
}

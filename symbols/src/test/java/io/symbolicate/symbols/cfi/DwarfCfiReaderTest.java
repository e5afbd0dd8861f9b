package io.symbolicate.symbols.cfi;

import static io.symbolicate.symbols.cfi.CfiBytes.ops;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.objects.Section;
import org.junit.jupiter.api.Test;

/**
 * The CIE/FDE parser and the rule machine on hand-made sections. Expected records follow the
 * DWARF rules and the writing conventions of the Mozilla dump_syms goldens (see {@code
 * DwarfCfiGoldenTest}): INIT with the CFA and {@code .ra}, deltas with changed rules only.
 */
class DwarfCfiReaderTest {
  static final long SEC = 0x2000;
  static final int PCREL_SDATA4 = 0x1B;

  /** x86-64 CIE program: CFA = rsp + 8, return address at CFA - 8. */
  static final byte[] X64_CIE = ops(0x0c, 7, 8, 0x90, 1);

  /** Appends an FDE for [target, target + range) with pcrel|sdata4 pointers. */
  static CfiBytes fde(CfiBytes sec, int cieOffset, long target, long range, byte[] program) {
    int idField = sec.size() + 4;
    long initial = target - (SEC + idField + 4);
    return sec.entry(
        new CfiBytes().u32(idField - cieOffset).u32(initial).u32(range).uleb(0).bytes(program));
  }

  static CfiBytes withCie(byte[] cieProgram) {
    return new CfiBytes().entry(CfiBytes.ehCie(1, "zR", PCREL_SDATA4, cieProgram));
  }

  static String read(CfiBytes sec, CfiArch arch) {
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.readSection(sec.section(".eh_frame", SEC), true, arch, 0, out);
    return out.text();
  }

  @Test
  void framePointerFunctionAsGccWritesIt() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1000, 0x30, ops(0x41, 0x0e, 16, 0x86, 2, 0x43, 0x0d, 6, 0x02, 0x20, 0x0c, 7, 8));
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 30 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 .cfa: $rsp 16 + $rbp: .cfa -16 + ^
            STACK CFI 1004 .cfa: $rbp 16 +
            STACK CFI 1024 .cfa: $rsp 8 +
            """);
  }

  @Test
  void rememberAndRestoreStateBringBackTheRememberedRow() {
    CfiBytes sec = withCie(X64_CIE);
    // push rbx; remember; (epilogue) pop -> cfa 8; restore_state -> cfa 16 again
    fde(sec, 0, 0x1000, 0x10, ops(0x41, 0x0e, 16, 0x83, 2, 0x41, 0x0a, 0x0e, 8, 0x41, 0x0b));
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 .cfa: $rsp 16 + $rbx: .cfa -16 + ^
            STACK CFI 1002 .cfa: $rsp 8 +
            STACK CFI 1003 .cfa: $rsp 16 +
            """);
  }

  @Test
  void everyRuleKindIsWrittenOrDroppedAsBreakpadCan() {
    CfiBytes sec = withCie(X64_CIE);
    fde(
        sec,
        0,
        0x1000,
        0x10,
        ops(
            0x41, 0x09, 3, 12, // rbx in r12
            0x08, 14, // r14 same value
            0x14, 15, 2, // r15 = cfa - 16 (val_offset)
            0x07, 13, // r13 undefined: nothing Breakpad can say
            0x10, 6, 2, 0x77, 0x00, // rbp by expression: dropped
            0x16, 12, 1, 0x30, // r12 val_expression: dropped
            0x2e, 0x20, // args_size: no rule
            0x41, 0x05, 3, 3, // offset_extended rbx at cfa - 24
            0x11, 14, 0x7e, // offset_extended_sf r14 at cfa + (-2 * -8) = 16
            0x2f, 15, 4, // GNU_negative_offset_extended: r15 at cfa + 32
            0x41, 0x12, 6, 0x7e, // def_cfa_sf rbp, 16
            0x41, 0x13, 0x7c)); // def_cfa_offset_sf 32
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 $rbx: $r12 $r14: $r14 $r15: .cfa -16 +
            STACK CFI 1002 $rbx: .cfa -24 + ^ $r14: .cfa 16 + ^ $r15: .cfa 32 + ^
            STACK CFI 1003 .cfa: $rbp 16 +
            STACK CFI 1004 .cfa: $rbp 32 +
            """);
  }

  @Test
  void restoreGoesBackToTheCieRuleAndUnchangedRulesAreNotRepeated() {
    CfiBytes sec = withCie(X64_CIE);
    // rip moved, then restored to the CIE's rule; rbp saved, cleared, saved again the same way
    fde(
        sec,
        0,
        0x1000,
        0x10,
        ops(0x41, 0x90, 2, 0x86, 2, 0x41, 0xd0, 0xc6, 0x41, 0x86, 2, 0x41, 0x86, 3));
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 .ra: .cfa -16 + ^ $rbp: .cfa -16 + ^
            STACK CFI 1002 .ra: .cfa -8 + ^
            STACK CFI 1004 $rbp: .cfa -24 + ^
            """);
  }

  @Test
  void cfaExpressionLeavesTheCfaOutAsThePltDoes() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1020, 0x10, ops(0x0e, 16, 0x46, 0x0e, 24, 0x4a, 0x0f, 3, 0x77, 8, 0x22));
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1020 10 .cfa: $rsp 16 + .ra: .cfa -8 + ^
            STACK CFI 1026 .cfa: $rsp 24 +
            """);
  }

  @Test
  void undefinedReturnAddressHasNoRaRule() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1040, 0x2b, ops(0x07, 16));
    assertThat(read(sec, CfiArch.X86_64)).isEqualTo("STACK CFI INIT 1040 2b .cfa: $rsp 8 +\n");
  }

  @Test
  void unknownInstructionEndsTheProgramKeepingTheRowsBefore() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1000, 0x10, ops(0x41, 0x0e, 16, 0x3f, 0x41, 0x0e, 24));
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 .cfa: $rsp 16 +
            """);
  }

  @Test
  void setLocAndAdvanceLocWidths() {
    CfiBytes sec = withCie(X64_CIE);
    CfiBytes prog =
        new CfiBytes()
            .u8(0x02, 0x10, 0x0e, 16)
            .u8(0x03)
            .u16(0x100)
            .u8(0x0e, 24)
            .u8(0x04)
            .u32(0x200)
            .u8(0x0e, 32);
    fde(sec, 0, 0x1000, 0x1000, prog.toByteArray());
    assertThat(read(sec, CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 1000 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1010 .cfa: $rsp 16 +
            STACK CFI 1110 .cfa: $rsp 24 +
            STACK CFI 1310 .cfa: $rsp 32 +
            """);
  }

  @Test
  void arm64RowsGetTheLinkRegisterAsReturnAddressAndIgnoreRaSigning() {
    // aarch64 CIE: code align 4, data align -8, ra x30, CFA = sp + 0
    CfiBytes cie =
        new CfiBytes()
            .u32(0)
            .u8(1)
            .ascii("zR")
            .u8(0)
            .uleb(4)
            .sleb(-8)
            .u8(30)
            .uleb(1)
            .u8(PCREL_SDATA4)
            .u8(0x0c, 31, 0);
    CfiBytes sec = new CfiBytes().entry(cie);
    // paciasp; negate_ra_state; stp x29, x30, [sp, -32]!: cfa sp+32, x29 at -32, x30 at -24
    fde(sec, 0, 0x5e0, 0x30, ops(0x2d, 0x41, 0x0e, 32, 0x9d, 4, 0x9e, 3, 0x41, 0x0e, 0));
    assertThat(read(sec, CfiArch.ARM64))
        .isEqualTo(
            """
            STACK CFI INIT 5e0 30 .cfa: sp 0 + .ra: x30
            STACK CFI 5e4 .cfa: sp 32 + x29: .cfa -32 + ^ .ra: .cfa -24 + ^
            STACK CFI 5e8 .cfa: sp 0 +
            """);
  }

  @Test
  void debugFrameVersion4WithAddressSizeAndAbsoluteCiePointer() {
    CfiBytes cie =
        new CfiBytes()
            .u32(0xFFFFFFFFL)
            .u8(4)
            .u8(0)
            .u8(8, 0)
            .uleb(1)
            .sleb(-8)
            .uleb(16)
            .bytes(X64_CIE);
    CfiBytes sec = new CfiBytes().entry(cie);
    sec.entry(new CfiBytes().u32(0).u64(0x401000).u64(0x20).u8(0x41, 0x0e, 16));
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.readSection(
        sec.section(".debug_frame", 0), false, CfiArch.X86_64, 0x400000, out);
    assertThat(out.text())
        .isEqualTo(
            """
            STACK CFI INIT 1000 20 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 .cfa: $rsp 16 +
            """);
  }

  @Test
  void debugFrameDwarf64AndVersion3() {
    CfiBytes cieBody = new CfiBytes().u64(-1L).u8(3).u8(0).uleb(1).sleb(-8).uleb(16).bytes(X64_CIE);
    byte[] cb = cieBody.toByteArray();
    CfiBytes sec = new CfiBytes().u32(0xFFFFFFFFL).u64(cb.length).bytes(cb);
    byte[] fb = new CfiBytes().u64(0).u64(0x2000).u64(4).u8(0x41, 0x0e, 16).toByteArray();
    sec.u32(0xFFFFFFFFL).u64(fb.length).bytes(fb);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.readSection(sec.section(".debug_frame", 0), false, CfiArch.X86_64, 0, out);
    assertThat(out.text())
        .isEqualTo(
            """
            STACK CFI INIT 2000 4 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 2001 .cfa: $rsp 16 +
            """);
  }

  @Test
  void x86NamesAndUdata4AbsolutePointers() {
    // i386 CIE: data align -4, ra 8 (eip), CFA = esp + 4, eip at cfa - 4; FDE pointers udata4
    CfiBytes cie =
        new CfiBytes()
            .u32(0)
            .u8(1)
            .ascii("zR")
            .u8(0)
            .uleb(1)
            .sleb(-4)
            .u8(8)
            .uleb(1)
            .u8(0x03)
            .u8(0x0c, 4, 4, 0x88, 1);
    CfiBytes sec = new CfiBytes().entry(cie);
    sec.entry(
        new CfiBytes()
            .u32(sec.size() + 4)
            .u32(0x8048100)
            .u32(0x20)
            .uleb(0)
            .u8(0x41, 0x0e, 8, 0x85, 2, 0x42, 0x0d, 5));
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.readSection(
        sec.section(".eh_frame", 0x8049000), true, CfiArch.X86, 0x8048000, out);
    assertThat(out.text())
        .isEqualTo(
            """
            STACK CFI INIT 100 20 .cfa: $esp 4 + .ra: .cfa -4 + ^
            STACK CFI 101 .cfa: $esp 8 + $ebp: .cfa -8 + ^
            STACK CFI 103 .cfa: $ebp 8 +
            """);
  }

  @Test
  void armCieWithoutAugmentationAndOldEhAugmentation() {
    // "eh": an address-size word follows the string; no 'z', so FDEs carry no augmentation data
    CfiBytes cie =
        new CfiBytes()
            .u32(0)
            .u8(1)
            .ascii("eh")
            .u8(0)
            .u32(0xdeadbeefL)
            .uleb(2)
            .sleb(-4)
            .u8(14)
            .u8(0x0c, 13, 0);
    CfiBytes sec = new CfiBytes().entry(cie);
    sec.entry(
        new CfiBytes()
            .u32(sec.size() + 4)
            .u32(0x10000)
            .u32(0x8)
            .u8(0x41, 0x0e, 8, 0x8e, 1, 0x8b, 2));
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.readSection(sec.section(".eh_frame", 0x20000), true, CfiArch.ARM, 0, out);
    assertThat(out.text())
        .isEqualTo(
            """
            STACK CFI INIT 10000 8 .cfa: sp 0 + .ra: lr
            STACK CFI 10002 .cfa: sp 8 + .ra: .cfa -4 + ^ r11: .cfa -8 + ^
            """);
  }

  @Test
  void pointerEncodingsDecode() {
    PointerEncoding.Bases bases = new PointerEncoding.Bases(0x1000, 0x4000L, 0x8000L);
    assertThat(decode(0x01, new CfiBytes().uleb(0x12345), bases, 8)).isEqualTo(0x12345);
    assertThat(decode(0x09, new CfiBytes().sleb(-2), bases, 8)).isEqualTo(-2);
    assertThat(decode(0x02, new CfiBytes().u16(0xfffe), bases, 8)).isEqualTo(0xfffe);
    assertThat(decode(0x0a, new CfiBytes().u16(0xfffe), bases, 8)).isEqualTo(-2);
    assertThat(decode(0x04, new CfiBytes().u64(0x1122334455L), bases, 8)).isEqualTo(0x1122334455L);
    assertThat(decode(0x0c, new CfiBytes().u64(-3), bases, 8)).isEqualTo(-3);
    assertThat(decode(0x1b, new CfiBytes().u32(-16 & 0xFFFFFFFFL), bases, 8)).isEqualTo(0xff0);
    assertThat(decode(0x23, new CfiBytes().u32(0x10), bases, 8)).isEqualTo(0x4010);
    assertThat(decode(0x33, new CfiBytes().u32(0x10), bases, 8)).isEqualTo(0x8010);
    assertThat(decode(0x9b, new CfiBytes().u32(0x10), bases, 8)).isEqualTo(0x1010);
    assertThat(decode(0x0b, new CfiBytes().u32(-1 & 0xFFFFFFFFL), bases, 4)).isEqualTo(0xFFFFFFFFL);
    // aligned: one byte in, the pointer starts at the next 8-byte boundary
    SectionCursor in =
        new SectionCursor(
            new CfiBytes().u8(0).u8(0, 0, 0, 0, 0, 0, 0).u64(0x77).section("x", 0x1000).data(),
            1,
            16);
    assertThat(PointerEncoding.pointer(0x50, in, bases, null, 8)).isEqualTo(0x77);
    assertThat(PointerEncoding.valid(0x0e)).isFalse();
    assertThat(PointerEncoding.valid(0x60)).isFalse();
    assertThat(PointerEncoding.valid(0xff)).isTrue();
  }

  private static long decode(int enc, CfiBytes b, PointerEncoding.Bases bases, int size) {
    Section s = b.section("x", 0x1000);
    return PointerEncoding.pointer(
        enc, new SectionCursor(s.data(), 0, s.size()), bases, null, size);
  }
}

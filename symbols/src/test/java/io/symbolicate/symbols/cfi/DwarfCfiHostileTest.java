package io.symbolicate.symbols.cfi;

import static io.symbolicate.symbols.cfi.CfiBytes.ops;
import static io.symbolicate.symbols.cfi.DwarfCfiReaderTest.PCREL_SDATA4;
import static io.symbolicate.symbols.cfi.DwarfCfiReaderTest.SEC;
import static io.symbolicate.symbols.cfi.DwarfCfiReaderTest.X64_CIE;
import static io.symbolicate.symbols.cfi.DwarfCfiReaderTest.fde;
import static io.symbolicate.symbols.cfi.DwarfCfiReaderTest.withCie;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad unwind info: each case is skipped with a reason, the good entries around it kept. */
@Timeout(10)
class DwarfCfiHostileTest {
  private static final String GOOD = "STACK CFI INIT 3000 4 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n";

  private static DwarfCfiReader.Summary read(CfiBytes sec, CfiRecords out) {
    return DwarfCfiReader.readSection(sec.section(".eh_frame", SEC), true, CfiArch.X86_64, 0, out);
  }

  @Test
  void rememberStateBeyondTheStackCapSkipsTheFde() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1000, 0x10, ops(0x41, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a));
    fde(sec, 0, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = read(sec, out);
    assertThat(out.text()).isEqualTo(GOOD);
    assertThat(s.skipped()).isEqualTo(1);
    assertThat(s.reasons().get(0)).contains("remember-state stack");
  }

  @Test
  void restoreStateWithNothingRememberedSkipsTheFde() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1000, 0x10, ops(0x41, 0x0b));
    fde(sec, 0, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    assertThat(read(sec, out).reasons().get(0)).contains("restore_state");
    assertThat(out.text()).isEqualTo(GOOD);
  }

  @Test
  void hugeUlebSkipsTheFde() {
    CfiBytes sec = withCie(X64_CIE);
    fde(
        sec,
        0,
        0x1000,
        0x10,
        ops(0x0e, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f));
    fde(sec, 0, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    assertThat(read(sec, out).reasons().get(0)).contains("uleb128");
    assertThat(out.text()).isEqualTo(GOOD);
  }

  @Test
  void expressionLongerThanItsFdeSkipsTheFde() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x1000, 0x10, ops(0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f));
    fde(sec, 0, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    assertThat(read(sec, out).skipped()).isEqualTo(1);
    assertThat(out.text()).isEqualTo(GOOD);
  }

  @Test
  void lengthBeyondTheSectionEndsTheWalkKeepingWhatCameBefore() {
    CfiBytes sec = withCie(X64_CIE);
    fde(sec, 0, 0x3000, 4, ops());
    sec.u32(0x7fff_0000L).u32(0);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = read(sec, out);
    assertThat(out.text()).isEqualTo(GOOD);
    assertThat(s.reasons()).singleElement().asString().contains("rest of the section");
  }

  @Test
  void unknownPointerEncodingSkipsTheCieAndItsFdes() {
    CfiBytes sec = new CfiBytes().entry(CfiBytes.ehCie(1, "zR", 0x0e, X64_CIE));
    int good = sec.size();
    sec.entry(CfiBytes.ehCie(1, "zR", PCREL_SDATA4, X64_CIE));
    fde(sec, 0, 0x1000, 0x10, ops());
    fde(sec, good, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = read(sec, out);
    assertThat(out.text()).isEqualTo(GOOD);
    assertThat(s.reasons()).anyMatch(r -> r.contains("unknown pointer encoding 0xe"));
    assertThat(s.skipped()).isEqualTo(2);
  }

  @Test
  void unknownCieVersionAndCiePointerOutsideTheSection() {
    CfiBytes sec = new CfiBytes().entry(CfiBytes.ehCie(2, "zR", PCREL_SDATA4, X64_CIE));
    int good = sec.size();
    sec.entry(CfiBytes.ehCie(1, "zR", PCREL_SDATA4, X64_CIE));
    fde(sec, 0, 0x1000, 0x10, ops());
    fde(sec, -0x10000, 0x2000, 0x10, ops());
    fde(sec, good, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = read(sec, out);
    assertThat(out.text()).isEqualTo(GOOD);
    assertThat(s.reasons()).anyMatch(r -> r.contains("CIE version 2"));
    assertThat(s.reasons()).anyMatch(r -> r.contains("CIE pointer out of the section"));
  }

  @Test
  void anFdeAtACieThatIsAnFdeIsSkipped() {
    CfiBytes sec = withCie(X64_CIE);
    int first = sec.size();
    fde(sec, 0, 0x3000, 4, ops());
    fde(sec, first, 0x1000, 4, ops());
    CfiRecords out = new CfiRecords();
    assertThat(read(sec, out).reasons()).anyMatch(r -> r.contains("no CIE at offset"));
    assertThat(out.text()).isEqualTo(GOOD);
  }

  @Test
  void advanceLocPastTheAddressSpaceSkipsTheFde() {
    CfiBytes sec = withCie(X64_CIE);
    CfiBytes prog = new CfiBytes();
    for (int i = 0; i < 8; i++) {
      prog.u8(0x04).u32(0xFFFFFFFFL);
    }
    // code alignment 1: 8 x 4G stays in 64 bits; a 32-bit machine overflows on the second
    fde(sec, 0, 0x1000, 0x10, prog.toByteArray());
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.readSection(sec.section(".eh_frame", SEC), true, CfiArch.X86, 0, out);
    assertThat(out.text()).isEmpty();
  }

  @Test
  void aLongProgramOfZeroAdvancesIsCappedNotOutOfMemory() {
    CfiBytes sec = withCie(X64_CIE);
    CfiBytes prog = new CfiBytes();
    // each row flips rbx between two rules: every row writes a record
    for (int i = 0; i < 70_000; i++) {
      prog.u8(0x83, 1 + (i & 1), 0x40);
    }
    fde(sec, 0, 0x1000, 0x10, prog.toByteArray());
    fde(sec, 0, 0x3000, 4, ops());
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = read(sec, out);
    assertThat(s.reasons().get(0)).contains("more than");
    assertThat(out.text()).isEqualTo(GOOD);
  }

  @Test
  void emptyAndTerminatedSections() {
    CfiRecords out = new CfiRecords();
    assertThat(read(new CfiBytes(), out).fdes()).isZero();
    CfiBytes sec = withCie(X64_CIE).u32(0);
    fde(sec, 0, 0x1000, 4, ops()); // after the terminator: not read
    assertThat(read(sec, out).fdes()).isZero();
    assertThat(out.text()).isEmpty();
  }
}

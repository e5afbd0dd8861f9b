package io.symbolicate.symbols.cfi;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.objects.PeFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile and hand-built {@code .pdata}/{@code UNWIND_INFO}/{@code .xdata}: each bad entry is
 * skipped with a reason, nothing is allocated from a claimed count, and no chain is followed
 * forever. The expected rules of the hand-built entries follow symbolic's formulas
 * (symbolic-cfi {@code process_pe}, codes applied in prolog order): a push adds 8 to the stack
 * size and saves the register at {@code .cfa size - ^}; a save by move at {@code .cfa (size -
 * offset) - ^}, or {@code $fp (offset - frame offset) + ^} with a frame register; a frame
 * register makes the CFA {@code $fp (size - frame offset) +}; a machine frame puts {@code $rsp} at
 * size + 16 and the return address at size + 40 and adds 40 (48 with an error code).
 */
@Timeout(10)
class PeUnwindHostileTest {
  /** An image of 0x1000 bytes with one RUNTIME_FUNCTION at 0 whose unwind info is at 0x100. */
  private static ByteBuffer image() {
    ByteBuffer b = ByteBuffer.allocate(0x1000).order(ByteOrder.LITTLE_ENDIAN);
    function(b, 0, 0x1000, 0x1040, 0x100);
    return b;
  }

  private static void function(ByteBuffer b, int at, int begin, int end, int unwind) {
    b.putInt(at, begin).putInt(at + 4, end).putInt(at + 8, unwind);
  }

  /** An UNWIND_INFO; each code slot as a short: the operation byte << 8 | the code offset. */
  private static void info(ByteBuffer b, int at, int versionFlags, int frame, int... slots) {
    b.put(at, (byte) versionFlags).put(at + 1, (byte) 0x10).put(at + 2, (byte) slots.length);
    b.put(at + 3, (byte) frame);
    for (int i = 0; i < slots.length; i++) {
      b.putShort(at + 4 + 2 * i, (short) slots[i]);
    }
  }

  private static DwarfCfiReader.Summary x64(ByteBuffer b, long pdataSize, CfiRecords out) {
    return PeUnwindReader.readX64(new FlatImage(b.array()), 0, pdataSize, out);
  }

  private static String onlyReason(ByteBuffer b) {
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = x64(b, 12, out);
    assertThat(out.lines).isEmpty();
    assertThat(s.skipped()).isEqualTo(1);
    return s.reasons().get(0);
  }

  @Test
  void machineFrameFrameRegisterAndFpRelativeSave() {
    ByteBuffer b = image();
    // stored last first: SAVE_NONVOL rbx [fp+6*8], SET_FPREG, PUSH rbp, PUSH_MACHFRAME (error)
    // frame register rbp (5), frame offset 2 * 16
    info(b, 0x100, 1, 0x25, 0x340a, 0x0006, 0x0306, 0x5002, 0x1a01);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = x64(b, 12, out);
    assertThat(s.reasons()).isEmpty();
    // machine frame at stack 8: $rsp 24, .ra 48, stack 56; push rbp: 64; CFA $rbp 64 - 32;
    // rbx at fp 48 - 32; no default .ra after a machine frame
    assertThat(out.lines)
        .containsExactly(
            "STACK CFI INIT 1000 40 .cfa: $rbp 32 + $rsp: .cfa 24 - ^ .ra: .cfa 48 - ^"
                + " $rbp: .cfa 64 - ^ $rbx: $rbp 16 + ^");
  }

  @Test
  void chainedInfoAddsItsParentsCodes() {
    ByteBuffer b = image();
    // primary: UNW_FLAG_CHAININFO, SAVE_XMM128 xmm6 [rsp+2*16] (no effect), chained to 0x180
    info(b, 0x100, 1 | 4 << 3, 0, 0x6808, 0x0002);
    function(b, 0x108, 0x1000, 0x1040, 0x180);
    // parent, stored last first: SAVE_NONVOL_FAR rsi [rsp+0x1010], ALLOC_LARGE 0x1000 (32-bit
    // form), PUSH rdi
    info(b, 0x180, 1, 0, 0x650c, 0, 0, 0x1108, 0, 0, 0x7001);
    b.putInt(0x180 + 6, 0x1010).putInt(0x180 + 12, 0x1000);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = x64(b, 12, out);
    assertThat(s.reasons()).isEmpty();
    // push rdi: 16; alloc: 16 + 0x1000 = 4112; rsi at 4112 - 0x1010 = 0
    assertThat(out.lines)
        .containsExactly(
            "STACK CFI INIT 1000 40 .cfa: $rsp 4112 + $rdi: .cfa 16 - ^ $rsi: .cfa 0 - ^"
                + " .ra: .cfa 8 - ^");
  }

  @Test
  void unwindInfoBeyondTheImageIsSkipped() {
    ByteBuffer b = image();
    function(b, 0, 0x1000, 0x1040, 0x2000);
    assertThat(onlyReason(b)).contains("UNWIND_INFO").contains("runs past");
  }

  @Test
  void codeCountPastTheEndIsSkipped() {
    ByteBuffer b = image();
    function(b, 0, 0x1000, 0x1040, 0xffc);
    info(b, 0xffc, 1, 0);
    b.put(0xffe, (byte) 200);
    assertThat(onlyReason(b)).contains("unwind codes").contains("400 bytes");
  }

  @Test
  void chainLoopIsRefused() {
    ByteBuffer b = image();
    info(b, 0x100, 1 | 4 << 3, 0);
    function(b, 0x104, 0x1000, 0x1040, 0x180);
    info(b, 0x180, 1 | 4 << 3, 0);
    function(b, 0x184, 0x1000, 0x1040, 0x100);
    assertThat(onlyReason(b)).contains("loops back to UNWIND_INFO at 0x100");
  }

  @Test
  void overlongChainIsRefused() {
    ByteBuffer b = image();
    for (int i = 0; i < 40; i++) {
      int at = 0x100 + 0x20 * i;
      info(b, at, 1 | 4 << 3, 0);
      function(b, at + 4, 0x1000, 0x1040, at + 0x20);
    }
    assertThat(onlyReason(b)).contains("longer than 32 links");
  }

  @Test
  void indirectLoopIsRefused() {
    ByteBuffer b = image();
    function(b, 0, 0x1000, 0x1040, 1); // names itself
    assertThat(onlyReason(b)).contains("indirect");
  }

  @Test
  void badCodesAreSkippedWithTheirReason() {
    ByteBuffer b = image();
    info(b, 0x100, 1, 0, 0x0b01);
    assertThat(onlyReason(b)).contains("unknown unwind code 11");
    info(b, 0x100, 1, 0, 0x1101, 0);
    assertThat(onlyReason(b)).contains("UWOP_ALLOC_LARGE runs past");
    info(b, 0x100, 1, 0, 0x2a01);
    assertThat(onlyReason(b)).contains("UWOP_PUSH_MACHFRAME with operation info 2");
    info(b, 0x100, 3, 0);
    assertThat(onlyReason(b)).contains("version 3");
  }

  @Test
  void badFunctionsAndDirectories() {
    ByteBuffer b = image();
    function(b, 0, 0x1040, 0x1000, 0x100);
    info(b, 0x100, 1, 0);
    assertThat(onlyReason(b)).contains("before it begins");
    function(b, 0, 0, 0, 0); // zero padding: not an entry at all
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = x64(b, 12, out);
    assertThat(s.fdes()).isZero();
    assertThat(s.skipped()).isZero();
    s = x64(b, 13, out);
    assertThat(s.reasons()).singleElement().asString().contains("no whole number");
    s = x64(b, 0x7ffffff8L, out); // a claimed size far past the image
    assertThat(s.reasons()).singleElement().asString().contains("runs past");
  }

  @Test
  void peFileWithAHugeExceptionDirectory() throws Exception {
    byte[] exe =
        Files.readAllBytes(
            CfiGoldenTest.difs()
                .resolve("getsentry-symbolic/testutils/windows/CrashWithException.exe"));
    ByteBuffer b = ByteBuffer.wrap(exe).order(ByteOrder.LITTLE_ENDIAN);
    int pe = b.getInt(0x3c);
    int exceptionSize = pe + 24 + 112 + 3 * 8 + 4; // PE32+ data directory 3
    b.putInt(exceptionSize, 0x7ffffff8);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = PeUnwindReader.read(PeFile.parse(exe), out);
    assertThat(out.lines).isEmpty();
    assertThat(s.reasons()).singleElement().asString().contains("exception directory");
  }

  @Test
  void arm64HostileXdata() {
    ByteBuffer b = ByteBuffer.allocate(0x1000).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, 0x1000).putInt(4, 0x2000); // .xdata beyond the image
    b.putInt(8, 0x1100).putInt(12, 0x100); // alloc_l cut short by the end of its code word
    b.putInt(0x100, 0x08000010).putInt(0x104, 0xe0e3e3e3); // nop nop nop alloc_l
    b.putInt(16, 0x1200).putInt(20, 0x200); // version 1
    b.putInt(0x200, 1 << 18 | 0x08000000);
    b.putInt(24, 0x1300).putInt(28, 0x00200011); // packed, CR 1, frame 0 < its 16-byte save area
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = PeUnwindReader.readArm64(new FlatImage(b.array()), 0, 32, out);
    assertThat(out.lines).isEmpty();
    assertThat(s.fdes()).isEqualTo(4);
    assertThat(s.reasons()).hasSize(4);
    assertThat(s.reasons().get(3)).contains("smaller than its save area of 16");
    assertThat(s.reasons().get(0)).contains(".xdata header").contains("runs past");
    assertThat(s.reasons().get(1)).contains("alloc_l is cut short");
    assertThat(s.reasons().get(2)).contains(".xdata version 1");
  }

  @Test
  void tooManyCodesAlongAChainAreRefused() {
    ByteBuffer b = image();
    int[] pushes = new int[254];
    Arrays.fill(pushes, 0x3001);
    for (int i = 0; i < 3; i++) {
      int at = 0x100 + 0x300 * i;
      info(b, at, 1 | 4 << 3, 0, pushes);
      function(b, at + 4 + 2 * 254, 0x1000, 0x1040, at + 0x300);
    }
    assertThat(onlyReason(b)).contains("more than 512 unwind codes");
  }

  @Test
  void arm64CodeAndRecordBudgets() {
    ByteBuffer b = ByteBuffer.allocate(0x2000).order(ByteOrder.LITTLE_ENDIAN);
    // .xdata at 0x800 with an extension word: 255 code words of alloc_s 16 (0x01)
    b.putInt(0x800, 0x10).putInt(0x804, 255 << 16);
    for (int i = 0; i < 255 * 4; i++) {
      b.put(0x808 + i, (byte) 0x01);
    }
    b.putInt(0, 0x1000).putInt(4, 0x800);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = PeUnwindReader.readArm64(new FlatImage(b.array()), 0, 8, out);
    assertThat(out.lines).isEmpty();
    assertThat(s.reasons()).singleElement().asString().contains("more than 128 prolog codes");
    // 200 entries sharing one .xdata of 100 codes: 24 per entry (+1024) are written, no more
    b.putInt(0x804, 25 << 16).put(0x808 + 100, (byte) 0xe4); // end after 100 codes
    for (int i = 0; i < 200; i++) {
      b.putInt(8 * i, 0x1000 + 0x10 * i).putInt(8 * i + 4, 0x800);
    }
    out = new CfiRecords();
    s = PeUnwindReader.readArm64(new FlatImage(b.array()), 0, 1600, out);
    assertThat(out.lines).hasSizeLessThanOrEqualTo(24 * 200 + 1024).hasSizeGreaterThan(5000);
    assertThat(s.reasons()).first().asString().contains("records per exception directory entry");
  }

  /**
   * A packed entry (CR 3, RegI 2, frame 48) is the prolog {@code stp x19, x20, [sp, #-16]!; stp
   * x29, lr, [sp, #-32]!; mov x29, sp} (Microsoft's packed-unwind table; llvm-readobj prints it
   * so), one record per instruction; as a fragment (flag 2) all of it holds from the start.
   */
  @Test
  void arm64PackedEntry() {
    ByteBuffer b = ByteBuffer.allocate(0x100).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, 0x1000).putInt(4, 0x1E20041).putInt(8, 0x2000).putInt(12, 0x1E20042);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s = PeUnwindReader.readArm64(new FlatImage(b.array()), 0, 16, out);
    assertThat(s.reasons()).isEmpty();
    String first = ".cfa: .sp 16 + .x19: .cfa -16 + ^ .x20: .cfa -8 + ^ .ra: .x30";
    String second = ".cfa: .sp 48 + .x29: .cfa -48 + ^ .x30: .cfa -40 + ^ .ra: .cfa -40 + ^";
    assertThat(out.lines)
        .containsExactly(
            "STACK CFI INIT 1000 40 " + first,
            "STACK CFI 1004 " + second,
            "STACK CFI 1008 .cfa: .sp 48 +",
            "STACK CFI INIT 2000 40 " + first + " " + second + " .cfa: .sp 48 +");
  }
}

package io.symbolicate.symbols.cfi;

import static io.symbolicate.symbols.cfi.CfiBytes.ops;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Compact unwind tables made by hand (the layout of LLVM's compact_unwind_encoding.h). The
 * expected rules follow the opcode definitions there, written the way symbolic's snapshot of
 * {@code macos/crash} writes them (see {@code CfiGoldenTest}).
 */
@Timeout(10)
class CompactUnwindReaderTest {
  static final int RBP_FRAME = 0x01000000;
  static final int FRAMELESS = 0x02000000;
  static final int X86_DWARF = 0x04000000;

  /** Sections of an image: __unwind_info plus an optional __eh_frame. */
  static ObjectSections sections(byte[] unwindInfo, CfiBytes ehFrame, long ehAddress) {
    Map<String, Section> map = new HashMap<>();
    map.put("__unwind_info", new CfiBytes().bytes(unwindInfo).section("__unwind_info", 0));
    if (ehFrame != null) {
      map.put(".eh_frame", ehFrame.section(".eh_frame", ehAddress));
    }
    return new ObjectSections() {
      @Override
      public Optional<Section> section(String name) {
        return Optional.ofNullable(map.get(name));
      }

      @Override
      public boolean littleEndian() {
        return true;
      }

      @Override
      public int addressSize() {
        return 8;
      }
    };
  }

  /**
   * Header (28 bytes), two global opcodes at 28, three first-level entries at 36, a regular page
   * at 72 with {@code regular} (address, opcode) pairs, a compressed page after it with {@code
   * compressed} (offset, index) pairs and one local opcode {@code local}, sentinel at {@code end}.
   */
  static byte[] table(
      int[] globals,
      long[][] regular,
      long compressedBase,
      int[][] compressed,
      int local,
      long end) {
    int regularAt = 72;
    int compressedAt = regularAt + 8 + regular.length * 8;
    CfiBytes b = new CfiBytes().u32(1).u32(28).u32(2).u32(0).u32(0).u32(36).u32(3);
    b.u32(globals[0]).u32(globals[1]);
    b.u32(regular[0][0]).u32(regularAt).u32(0);
    b.u32(compressedBase).u32(compressedAt).u32(0);
    b.u32(end).u32(0).u32(0);
    b.u32(2).u16(8).u16(regular.length);
    for (long[] e : regular) {
      b.u32(e[0]).u32(e[1]);
    }
    int entries = 12;
    b.u32(3).u16(entries).u16(compressed.length).u16(entries + compressed.length * 4).u16(1);
    for (int[] e : compressed) {
      b.u32(((long) e[1] << 24) | e[0]);
    }
    b.u32(local);
    return b.toByteArray();
  }

  static String read(ObjectSections s, CfiArch arch) {
    CfiRecords out = new CfiRecords();
    CompactUnwindReader.readMachO(s, arch, 0x100000000L, a -> null, out);
    return out.text();
  }

  @Test
  void x86_64OpcodesOfEveryKind() {
    int rbpFrameWithRbx = RBP_FRAME | (2 << 16) | 1; // rbx saved at slot 0, offset 2
    int framelessTwoRegs = FRAMELESS | (4 << 16) | (2 << 10); // 32 bytes, rbx then r12
    int framelessOneReg = FRAMELESS | (2 << 16) | (1 << 10);
    byte[] t =
        table(
            new int[] {framelessOneReg, 0x03000000},
            new long[][] {{0x1000, rbpFrameWithRbx}, {0x1100, framelessTwoRegs}},
            0x1200,
            new int[][] {{0, 0}, {0x40, 2}, {0x80, 1}, {0x80, 0}},
            0,
            0x1300);
    assertThat(read(sections(t, null, 0), CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 100 .cfa: $rbp 16 + $rbp: .cfa -16 + ^ .ra: .cfa -8 + ^ $rbx: .cfa -32 + ^
            STACK CFI INIT 1100 100 .cfa: $rsp 32 + .ra: .cfa -8 + ^ $r12: .cfa -16 + ^ $rbx: .cfa -24 + ^
            STACK CFI INIT 1200 40 .cfa: $rsp 16 + .ra: .cfa -8 + ^ $rbx: .cfa -16 + ^
            STACK CFI INIT 1240 40 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI INIT 1280 80 .cfa: $rsp 16 + .ra: .cfa -8 + ^ $rbx: .cfa -16 + ^
            """);
  }

  @Test
  void dwarfOpcodeWritesTheFdeItNames() {
    CfiBytes eh = DwarfCfiReaderTest.withCie(DwarfCfiReaderTest.X64_CIE);
    int fdeOffset = eh.size();
    // the FDE's pointers are pc-relative to the section placed at 0x100002000
    int idField = eh.size() + 4;
    long target = 0x100001000L;
    eh.entry(
        new CfiBytes()
            .u32(idField)
            .u32(target - (0x100002000L + idField + 4))
            .u32(0x20)
            .uleb(0)
            .bytes(ops(0x41, 0x0e, 16)));
    byte[] t =
        table(
            new int[] {X86_DWARF | fdeOffset, 0},
            new long[][] {{0x1000, X86_DWARF | fdeOffset}},
            0x1020,
            new int[][] {},
            0,
            0x1030);
    assertThat(read(sections(t, eh, 0x100002000L), CfiArch.X86_64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 20 .cfa: $rsp 8 + .ra: .cfa -8 + ^
            STACK CFI 1001 .cfa: $rsp 16 +
            """);
  }

  @Test
  void arm64FrameFramelessAndNoInfo() {
    int frame = 0x04000000 | 0b101; // x19/x20 and x23/x24 pairs
    int frameless = 0x02000000 | (2 << 12); // 32 bytes of stack
    byte[] t =
        table(
            new int[] {frameless, 0},
            new long[][] {{0x1000, frame}},
            0x1100,
            new int[][] {{0, 0}, {0x10, 1}},
            0,
            0x1200);
    assertThat(read(sections(t, null, 0), CfiArch.ARM64))
        .isEqualTo(
            """
            STACK CFI INIT 1000 100 .cfa: x29 16 + x29: .cfa -16 + ^ .ra: .cfa -8 + ^ x19: .cfa -24 + ^ x20: .cfa -32 + ^ x23: .cfa -40 + ^ x24: .cfa -48 + ^
            STACK CFI INIT 1100 10 .cfa: sp 32 + .ra: x30 0 +
            STACK CFI INIT 1110 f0 .cfa: sp .ra: x30
            """);
  }

  @Test
  void badTablesAreRefusedWithAReason() {
    CfiRecords out = new CfiRecords();
    byte[] wrongVersion =
        new CfiBytes().u32(2).u32(0).u32(0).u32(0).u32(0).u32(0).u32(0).toByteArray();
    assertThat(
            CompactUnwindReader.readMachO(
                    sections(wrongVersion, null, 0), CfiArch.X86_64, 0, null, out)
                .reasons())
        .singleElement()
        .asString()
        .contains("version 2");
    byte[] hugePages =
        new CfiBytes().u32(1).u32(0).u32(0).u32(0).u32(0).u32(28).u32(0xFFFFFFFFL).toByteArray();
    assertThat(
            CompactUnwindReader.readMachO(
                    sections(hugePages, null, 0), CfiArch.X86_64, 0, null, out)
                .reasons())
        .singleElement()
        .asString()
        .contains("outside the section");
    byte[] t =
        table(
            new int[] {0, 0}, new long[][] {{0x1000, 0}}, 0x1100, new int[][] {{0, 9}}, 0, 0x1200);
    assertThat(
            CompactUnwindReader.readMachO(sections(t, null, 0), CfiArch.X86_64, 0, null, out)
                .reasons())
        .singleElement()
        .asString()
        .contains("local opcode index");
    byte[] backwards =
        table(new int[] {0, 0}, new long[][] {{0x1000, 0}}, 0x900, new int[][] {{0, 0}}, 0, 0x1200);
    assertThat(
            CompactUnwindReader.readMachO(
                    sections(backwards, null, 0), CfiArch.X86_64, 0, null, out)
                .reasons())
        .singleElement()
        .asString()
        .contains("backwards");
  }
}

package io.symbolicate.symbols.objects;

import static io.symbolicate.symbols.objects.ElfFileTest.difs;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.objects.PeerExpectations.SymbolicObject;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ElfIdentityTest {
  @ParameterizedTest
  @CsvSource({
    "test_elf_executable, getsentry-symbolic/testutils/linux/crash",
    "test_elf_debug, getsentry-symbolic/testutils/linux/crash.debug",
    "test_elf_dynsyms, getsentry-symbolic/testutils/linux/dynsyms_only",
  })
  void identityAsSymbolicSnapshotsIt(String test, String file) throws Exception {
    SymbolicObject expected = PeerExpectations.symbolicObject(test);
    ObjectIdentity id = ElfIdentity.of(ElfFile.open(difs(file)));
    assertThat(id.fileFormat()).isEqualTo("elf");
    assertThat(id.codeId()).isEqualTo(expected.codeId());
    assertThat(id.debugIdGuid()).isEqualTo(expected.uuid());
    assertThat(id.arch()).isEqualTo(PeerExpectations.breakpadArch(expected.arch()));
    assertThat(id.kind().name()).isEqualToIgnoringCase(expected.kind());
    assertThat(id.loadAddress()).isEqualTo(expected.loadAddress());
    assertThat(id.features().contains(ObjectFeature.SYMTAB)).isEqualTo(expected.hasSymbols());
    assertThat(id.features().contains(ObjectFeature.DEBUG)).isEqualTo(expected.hasDebugInfo());
    assertThat(id.features().contains(ObjectFeature.UNWIND)).isEqualTo(expected.hasUnwindInfo());
  }

  @ParameterizedTest
  @CsvSource({
    "mozilla-dump_syms/linux/basic.full, mozilla-dump_syms/linux/basic.full.sym",
    "mozilla-dump_syms/linux/basic.dbg, mozilla-dump_syms/linux/basic.dbg.sym",
    "mozilla-dump_syms/linux/basic.dwz, mozilla-dump_syms/linux/basic.dwz.inlines.sym",
    "mozilla-dump_syms/linux/basic.minidebuginfo, mozilla-dump_syms/linux/basic.minidebuginfo.sym",
    "getsentry-symbolic/testutils/linux/crash.debug, getsentry-symbolic/testutils/linux/crash.sym",
    "getsentry-symbolic/testutils/linux/crash.debug-zstd, getsentry-symbolic/testutils/linux/crash.sym",
  })
  void identityAsTheModuleLineOfTheSymGolden(String file, String sym) throws Exception {
    ObjectIdentity id = ElfIdentity.of(ElfFile.open(difs(file)));
    String[] module = PeerExpectations.moduleLine(difs(sym));
    assertThat(module[0]).isEqualTo("Linux");
    assertThat(id.arch()).isEqualTo(module[1]);
    assertThat(id.debugId()).isEqualTo(module[2]);
    assertThat(id.codeId().toUpperCase(Locale.ROOT))
        .isEqualTo(PeerExpectations.codeIdLine(difs(sym)));
  }

  @Test
  void arm64() throws Exception {
    ObjectIdentity id =
        ElfIdentity.of(ElfFile.open(difs("getsentry-symbolic/testutils/linux/arm64/cfi_test")));
    assertThat(id.arch()).isEqualTo("arm64");
    assertThat(id.kind()).isEqualTo(ObjectKind.EXECUTABLE);
  }

  @Test
  void functionSymbolsAsSymbolicSnapshotsThem() throws Exception {
    ElfFile elf = ElfFile.open(difs("getsentry-symbolic/testutils/linux/crash.debug"));
    long load = ElfIdentity.of(elf).loadAddress();
    List<String> ours =
        ElfSymbols.functions(elf).stream()
            .map(s -> Long.toHexString(s.address() - load) + " " + s.name())
            .collect(Collectors.toList());
    assertThat(ours).containsExactlyElementsOf(snapshotSymbols("test_objects__elf_symbols.snap"));
  }

  @Test
  void publicRecordsOfMozillaAreAmongTheFunctionSymbols() throws Exception {
    for (String name : List.of("basic.full", "basic.dbg")) {
      ElfFile elf = ElfFile.open(difs("mozilla-dump_syms/linux/" + name));
      List<String> ours =
          ElfSymbols.functions(elf).stream()
              .map(s -> Long.toHexString(s.address()) + " " + s.name())
              .collect(Collectors.toList());
      List<String> publics = publicsOf(difs("mozilla-dump_syms/linux/" + name + ".sym"));
      assertThat(publics).hasSizeGreaterThan(5);
      assertThat(ours).containsAll(publics);
    }
  }

  @Test
  void miniDebugInfoCarriesTheSymbolsTheStrippedFileLost() throws Exception {
    ElfFile elf = ElfFile.open(difs("mozilla-dump_syms/linux/basic.minidebuginfo"));
    ElfFile inner = MiniDebugInfo.of(elf).orElseThrow();
    List<String> addresses =
        ElfSymbols.functions(inner).stream()
            .map(s -> Long.toHexString(s.address()))
            .collect(Collectors.toList());
    // Mozilla's golden: PUBLIC 1125 0 inline_1(int), PUBLIC 114b 0 inline_2(int), from the
    // MiniDebugInfo symtab (demangled by dump_syms)
    assertThat(addresses).contains("1125", "114b");
    assertThat(ElfSymbols.functions(inner).stream().map(ObjectSymbol::name))
        .contains("_Z8inline_1i", "_Z8inline_2i");
    assertThat(MiniDebugInfo.of(ElfFile.open(difs("mozilla-dump_syms/linux/basic.full"))))
        .isEmpty();
  }

  @Test
  void debugLinksAsSymbolicReadsThem() throws Exception {
    Path gen = difs("getsentry-symbolic/testutils/linux/elf_debuglink/gen");
    long crc = Long.parseLong(Files.readString(gen.resolve("debug_info.txt.crc")).trim(), 16);
    String[][] cases = {
      {"elf_with_debuglink", "debug_info.txt"},
      {"elf_with1_debuglink", "debug_info1.txt"},
      {"elf_with12_debuglink", "debug_info12.txt"},
      {"elf_with123_debuglink", "debug_info123.txt"},
      {"elf_with_compressed_debuglink", "debug_info.txt"}, // a zlib SHF_COMPRESSED section
    };
    for (String[] c : cases) {
      DebugLink link = DebugLink.of(ElfFile.open(gen.resolve(c[0]))).orElseThrow();
      assertThat(link.fileName()).as(c[0]).isEqualTo(c[1]);
      assertThat(link.crc()).as(c[0]).isEqualTo(crc);
    }
    assertThat(DebugLink.of(ElfFile.open(gen.resolve("elf_without_debuglink")))).isEmpty();
  }

  @Test
  void crcCheckOfALinkedFile() throws Exception {
    Path file = Files.createTempFile("debuglink", ".txt");
    try {
      Files.writeString(file, "123456789");
      // the CRC-32 check value of "123456789" (the zlib/GDB polynomial)
      assertThat(DebugLink.crcOf(file)).isEqualTo(0xCBF43926L);
      assertThat(new DebugLink("x", 0xCBF43926L).matches(file)).isTrue();
      assertThat(new DebugLink("x", 0xCBF43927L).matches(file)).isFalse();
    } finally {
      Files.delete(file);
    }
  }

  @Test
  void debugAltLinkOfADwzFile() throws Exception {
    DebugAltLink alt =
        DebugAltLink.of(ElfFile.open(difs("mozilla-dump_syms/linux/basic.dwz"))).orElseThrow();
    // as `readelf -x .gnu_debugaltlink basic.dwz` shows it
    assertThat(alt.fileName()).isEqualTo("basic.dwz");
    assertThat(alt.buildId()).isEqualTo("120a913182e97f0470822b07e562b760a07fd5f2");
  }

  @Test
  void withoutBuildIdTheDebugIdHashesTheFirstPageOfText() {
    // Breakpad's HashElfTextSection: XOR of the first 4096 bytes of .text in 16-byte blocks;
    // 4097 bytes of 0x01 then 0x02: 256 blocks of 0x01 cancel out, the 4097th byte is ignored
    byte[] text = new byte[4097];
    java.util.Arrays.fill(text, (byte) 1);
    text[4096] = 2;
    text[0] = 0x11; // block 0 byte 0: 0x11 ^ (255 x 0x01) = 0x10
    byte[] elf =
        new ElfBuilder(true, ByteOrder.LITTLE_ENDIAN, ElfFile.EM_X86_64, ElfFile.ET_DYN)
            .section(".text", 1, 6, 0x1000, text)
            .build();
    ObjectIdentity id = ElfIdentity.of(ElfFile.parse(elf));
    assertThat(id.codeId()).isNull();
    // hash 10 00 00 00 ... as a GUID with the first field byte-swapped: 00000010-0000-0000-...
    assertThat(id.debugId()).isEqualTo("00000010" + "0".repeat(24) + "0");
    assertThat(id.kind()).isEqualTo(ObjectKind.LIBRARY);
  }

  @Test
  void bigEndianBuildIdIsNotSwapped() {
    byte[] note =
        buildIdNote(
            ByteOrder.BIG_ENDIAN,
            HexFormat.of().parseHex("00112233445566778899aabbccddeeff01020304"));
    byte[] elf =
        new ElfBuilder(false, ByteOrder.BIG_ENDIAN, ElfFile.EM_PPC, ElfFile.ET_REL)
            .section(".note.gnu.build-id", ElfSectionHeader.SHT_NOTE, 2, 0, note)
            .build();
    ObjectIdentity id = ElfIdentity.of(ElfFile.parse(elf));
    assertThat(id.codeId()).isEqualTo("00112233445566778899aabbccddeeff01020304");
    assertThat(id.debugId()).isEqualTo("00112233445566778899AABBCCDDEEFF0");
    assertThat(id.arch()).isEqualTo("ppc");
    assertThat(id.kind()).isEqualTo(ObjectKind.RELOCATABLE);
  }

  static byte[] buildIdNote(ByteOrder order, byte[] id) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16 + ((id.length + 3) & ~3)).order(order);
    b.putInt(4).putInt(id.length).putInt(ElfNotes.NT_GNU_BUILD_ID).put("GNU\0".getBytes());
    b.put(id);
    return b.array();
  }

  /** "address name" lines of a symbolic SymbolsDebug snapshot. */
  static List<String> snapshotSymbols(String snap) throws Exception {
    Path p = difs("getsentry-symbolic/snapshots/symbolic-debuginfo/tests/snapshots/" + snap);
    List<String> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(p);
    int dashes = 0;
    for (String l : lines) {
      if (dashes < 2) {
        dashes += l.equals("---") ? 1 : 0;
        continue;
      }
      if (!l.isBlank()) {
        out.add(l.strip().replaceFirst("\\s+", " "));
      }
    }
    return out;
  }

  /** "address name" of the PUBLIC records of a .sym file, but the synthetic section ones. */
  static List<String> publicsOf(Path sym) throws Exception {
    return Files.readAllLines(sym).stream()
        .filter(l -> l.startsWith("PUBLIC "))
        .map(l -> l.split(" ", 4))
        .filter(f -> !f[3].startsWith("<"))
        .map(f -> f[1] + " " + f[3])
        .collect(Collectors.toList());
  }
}

package io.symbolicate.symbols.objects;

import static io.symbolicate.symbols.objects.ElfFileTest.difs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectFilesTest {
  @Test
  void formatToldByMagic() throws Exception {
    ObjectFile elf = ObjectFiles.open(difs("mozilla-dump_syms/linux/basic.full"), null);
    assertThat(elf.elf()).isPresent();
    assertThat(elf.identity().fileFormat()).isEqualTo("elf");
    ObjectFile macho = ObjectFiles.open(difs("getsentry-symbolic/testutils/macos/crash"), null);
    assertThat(macho.macho()).isPresent();
    assertThat(macho.section(".eh_frame")).isPresent();
    byte[] bytes = Files.readAllBytes(difs("mozilla-dump_syms/linux/basic.dbg"));
    assertThat(ObjectFiles.open(bytes, "basic.dbg", null).identity().debugId())
        .isEqualTo("20AD60B0B4C68177552708AA192E77390");
  }

  @Test
  void fatSlicesLieInsideTheFileAndOpenAsThinFiles() throws Exception {
    Path fat =
        difs(
            "getsentry-symbolic/testutils/macos/Example.framework.dSYM/Contents/Resources/DWARF/Example");
    List<ObjectFiles.FatSlice> slices = ObjectFiles.fatSlices(fat);
    assertThat(slices).extracting(ObjectFiles.FatSlice::arch).containsExactly("x86_64", "arm64");
    byte[] all = Files.readAllBytes(fat);
    for (ObjectFiles.FatSlice s : slices) {
      assertThat(s.offset() + s.size()).isLessThanOrEqualTo(all.length);
      byte[] thin = Arrays.copyOfRange(all, (int) s.offset(), (int) (s.offset() + s.size()));
      assertThat(ObjectFiles.open(thin, "Example", null).identity().arch()).isEqualTo(s.arch());
    }
    assertThat(ObjectFiles.fatSlices(difs("getsentry-symbolic/testutils/macos/crash"))).isEmpty();
    assertThat(ObjectFiles.fatSlices(difs("mozilla-dump_syms/linux/basic.full"))).isEmpty();
  }

  @Test
  void objectFilesAreToldByTheirFirstBytes() throws Exception {
    for (String f :
        List.of(
            "mozilla-dump_syms/linux/basic.full",
            "getsentry-symbolic/testutils/macos/crash",
            "getsentry-symbolic/testutils/macos/Example.framework.dSYM/Contents/Resources/DWARF/Example",
            "google-breakpad/src/client/mac/handler/testcases/testdata/dump_syms_dwarf_data")) {
      byte[] head = Arrays.copyOf(Files.readAllBytes(difs(f)), 8);
      assertThat(ObjectFiles.isObjectFile(head)).as(f).isTrue();
    }
    // a Java class file shares the fat magic; its version is no slice count
    assertThat(
            ObjectFiles.isObjectFile(
                new byte[] {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe, 0, 0, 0, 52}))
        .isFalse();
    assertThat(ObjectFiles.isObjectFile("MODULE L".getBytes(StandardCharsets.US_ASCII))).isFalse();
    assertThat(ObjectFiles.isObjectFile(new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0})).isFalse();
    assertThat(ObjectFiles.isObjectFile(new byte[0])).isFalse();
  }

  @Test
  void dsymBundlesPickTheFileNamedAfterThem() throws Exception {
    // crash.dSYM holds "crash" and an "invalid" file beside it
    ObjectFile f = ObjectFiles.open(difs("getsentry-symbolic/testutils/macos/crash.dSYM"), null);
    assertThat(f.name()).isEqualTo("crash");
    assertThat(f.identity().kind()).isEqualTo(ObjectKind.DEBUG);
    assertThat(
            ObjectFiles.architectures(
                difs("getsentry-symbolic/testutils/macos/Example.framework.dSYM")))
        .containsExactly("x86_64", "arm64");
  }

  @Test
  void foreignFilesAreNamed(@TempDir Path dir) throws Exception {
    // a PDB 7.0 opens (issue 45); a Portable PDB is the .NET issue's and is named
    assertThat(
            ObjectFiles.open(difs("getsentry-symbolic/testutils/windows/crash.pdb"), null).name())
        .isEqualTo("crash.pdb");
    assertThatThrownBy(
            () -> ObjectFiles.open(difs("getsentry-symbolic/testutils/windows/portable.pdb"), null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("a Portable PDB file");
    assertThatThrownBy(
            () -> ObjectFiles.open(difs("getsentry-symbolic/testutils/linux/crash.sym"), null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("Breakpad .sym");
    assertThatThrownBy(
            () -> ObjectFiles.open(difs("getsentry-symbolic/testutils/wasm/simple.wasm"), null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("WebAssembly");
    Path invalid =
        difs("getsentry-symbolic/testutils/macos/crash.dSYM/Contents/Resources/DWARF/invalid");
    assertThatThrownBy(() -> ObjectFiles.open(invalid, null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("not an ELF or Mach-O file");
    Path empty = Files.createDirectory(dir.resolve("empty.dSYM"));
    assertThatThrownBy(() -> ObjectFiles.open(empty, null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("not a dSYM bundle");
  }

  @Test
  void publicSymbolsIncludeMiniDebugInfo() throws Exception {
    ObjectFile f = ObjectFiles.open(difs("mozilla-dump_syms/linux/basic.minidebuginfo"), null);
    List<String> ours =
        f.publicSymbols().stream()
            .map(s -> Long.toHexString(s.address()))
            .collect(Collectors.toList());
    // every address of Mozilla's PUBLIC records but the synthetic <.plt ...> ones
    List<String> golden =
        ElfIdentityTest.publicsOf(difs("mozilla-dump_syms/linux/basic.minidebuginfo.sym")).stream()
            .map(l -> l.split(" ")[0])
            .collect(Collectors.toList());
    assertThat(golden).hasSizeGreaterThan(8);
    assertThat(ours).containsAll(golden);
  }

  @Test
  void everyFeatureOfAFileOfOurOwn() throws Exception {
    for (boolean is64 : new boolean[] {true, false}) {
      for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
        byte[] bytes = ObjectFuzzSeeds.built(is64, order, ElfFile.EM_X86_64);
        ObjectFile f = ObjectFiles.open(bytes, "built", null);
        String what = (is64 ? "64 " : "32 ") + order;
        assertThat(new String(ElfFileTest.bytes(f.section(".debug_info").orElseThrow().data())))
            .as(what)
            .startsWith("DWARF info bytes, compressed with zlib");
        assertThat(new String(ElfFileTest.bytes(f.section(".debug_str").orElseThrow().data())))
            .as(what)
            .startsWith("main\0helper\0");
        assertThat(new String(ElfFileTest.bytes(f.section(".debug_line").orElseThrow().data())))
            .as(what)
            .startsWith("line program line program");
        assertThat(f.publicSymbols())
            .as(what)
            .extracting(ObjectSymbol::name)
            .containsExactly("main", "helper", "_start", "mini");
        assertThat(f.debugLink().orElseThrow())
            .isEqualTo(
                new DebugLink(
                    "a.debug", order == ByteOrder.LITTLE_ENDIAN ? 0x04030201L : 0x01020304L));
        assertThat(f.debugAltLink().orElseThrow()).isEqualTo(new DebugAltLink("alt.dwz", "123456"));
        ObjectIdentity id = f.identity();
        assertThat(id.codeId()).isEqualTo("101112131415161718191a1b1c1d1e1f20212223");
        assertThat(id.debugId())
            .isEqualTo(
                order == ByteOrder.LITTLE_ENDIAN
                    ? "131211101514171618191A1B1C1D1E1F0"
                    : "101112131415161718191A1B1C1D1E1F0");
        assertThat(id.features())
            .containsExactlyInAnyOrder(
                ObjectFeature.SYMTAB, ObjectFeature.DEBUG, ObjectFeature.UNWIND);
        assertThat(f.addressSize()).isEqualTo(is64 ? 8 : 4);
      }
    }
  }
}

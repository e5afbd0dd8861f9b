package io.symbolicate.symbols.objects;

import static io.symbolicate.symbols.objects.ElfFileTest.difs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
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
    assertThatThrownBy(
            () -> ObjectFiles.open(difs("getsentry-symbolic/testutils/windows/crash.pdb"), null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("a PDB file");
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
}

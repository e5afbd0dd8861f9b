package io.symbolicate.symbols.objects;

import static io.symbolicate.symbols.objects.ElfFileTest.difs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.objects.PeerExpectations.SymbolicObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MachOFileTest {
  static final String MACOS = "getsentry-symbolic/testutils/macos/";

  @ParameterizedTest
  @CsvSource({
    "test_mach_executable, getsentry-symbolic/testutils/macos/crash",
    "test_mach_dsym, getsentry-symbolic/testutils/macos/crash.dSYM/Contents/Resources/DWARF/crash",
  })
  void identityAsSymbolicSnapshotsIt(String test, String file) throws Exception {
    SymbolicObject expected = PeerExpectations.symbolicObject(test);
    ObjectIdentity id = MachOIdentity.of(MachOFile.open(difs(file), null));
    assertThat(id.fileFormat()).isEqualTo("macho");
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
    "getsentry-symbolic/testutils/macos/crash, getsentry-symbolic/testutils/macos/crash.sym",
    "getsentry-symbolic/testutils/macos/crash.dSYM/Contents/Resources/DWARF/crash,"
        + " getsentry-symbolic/testutils/macos/crash.sym",
    "google-breakpad/src/client/mac/handler/testcases/testdata/dump_syms_dwarf_data,"
        + " google-breakpad/src/client/mac/handler/testcases/testdata/dump_syms_i386_breakpad.sym",
  })
  void identityAsTheModuleLineOfTheSymGolden(String file, String sym) throws Exception {
    ObjectIdentity id = MachOIdentity.of(MachOFile.open(difs(file), null));
    String[] module = PeerExpectations.moduleLine(difs(sym));
    assertThat(module[0]).isEqualTo("mac");
    assertThat(id.arch()).isEqualTo(module[1]);
    assertThat(id.debugId()).isEqualTo(module[2]);
  }

  @Test
  void symbolicatorsUnifiedLayoutKeysTheDsymByItsId() throws Exception {
    // symbolicator's fixture lives at 7f/883fcdc55336d0a809b0150f09500b.debug: its id's hex
    Path file = difs("getsentry-symbolicator/symbols/7f/883fcdc55336d0a809b0150f09500b.debug");
    ObjectIdentity id = MachOIdentity.of(MachOFile.open(file, null));
    assertThat(id.codeId()).isEqualTo("7f883fcdc55336d0a809b0150f09500b");
    assertThat(id.kind()).isEqualTo(ObjectKind.DEBUG);
  }

  @Test
  void fatFileSlicesAreChosenByArch() throws Exception {
    Path fat = difs(MACOS + "Example.framework.dSYM/Contents/Resources/DWARF/Example");
    // the UUIDs as `llvm-objdump --macho --private-headers --arch=all` shows them
    MachOFile x64 = MachOFile.open(fat, "x86_64");
    assertThat(MachOIdentity.of(x64).debugIdGuid())
        .isEqualTo("3b4566e4-491b-3dcf-94f5-ae51f624dd87");
    MachOFile arm = MachOFile.open(fat, "arm64");
    assertThat(MachOIdentity.of(arm).debugIdGuid())
        .isEqualTo("2556f151-5a40-3847-be6c-e2c1b5be4df8");
    assertThat(arm.section(".debug_info")).isPresent();
    assertThatThrownBy(() -> MachOFile.open(fat, null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("x86_64, arm64");
    assertThatThrownBy(() -> MachOFile.open(fat, "armv7"))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("no armv7 slice");
  }

  @Test
  void functionSymbolsAsSymbolicSnapshotsThem() throws Exception {
    MachOFile macho = MachOFile.open(difs(MACOS + "crash"), null);
    long load = MachOIdentity.loadAddress(macho);
    List<String> ours =
        MachOSymbols.functions(macho).stream()
            .map(s -> Long.toHexString(s.address() - load) + " " + s.name())
            .collect(Collectors.toList());
    assertThat(ours)
        .containsExactlyElementsOf(
            ElfIdentityTest.snapshotSymbols("test_objects__mach_symbols.snap"));
  }

  @Test
  void dsymSectionsAnswerUnderElfNames() throws Exception {
    MachOFile dsym =
        MachOFile.open(difs(MACOS + "crash.dSYM/Contents/Resources/DWARF/crash"), null);
    MachOSection info = dsym.sectionHeader("__debug_info").orElseThrow();
    assertThat(info.segment()).isEqualTo("__DWARF");
    Section s = dsym.section(".debug_info").orElseThrow();
    assertThat(s.name()).isEqualTo(".debug_info");
    assertThat(s.size()).isEqualTo((int) info.size());
    assertThat(dsym.section(".debug_line")).isPresent();
    assertThat(dsym.section(".debug_str")).isPresent();
    // the dSYM keeps __TEXT's section headers but not their bytes
    assertThat(dsym.section(".eh_frame")).isEmpty();
    MachOFile exe = MachOFile.open(difs(MACOS + "crash"), null);
    assertThat(exe.section(".eh_frame")).isPresent();
    assertThat(exe.section("__unwind_info")).isPresent();
    assertThat(exe.section(".text").orElseThrow().address()).isGreaterThan(0x100000000L);
    assertThat(exe.littleEndian()).isTrue();
    assertThat(exe.addressSize()).isEqualTo(8);
    assertThat(MachOFile.machOName(".debug_str_offsets")).isEqualTo("__debug_str_offs");
  }

  @Test
  void breakpadI386DsymIsThirtyTwoBit() throws Exception {
    MachOFile macho =
        MachOFile.open(
            difs("google-breakpad/src/client/mac/handler/testcases/testdata/dump_syms_dwarf_data"),
            "x86");
    assertThat(macho.is64()).isFalse();
    assertThat(macho.addressSize()).isEqualTo(4);
    assertThat(macho.section(".debug_info")).isPresent();
  }

  @Test
  void truncatedAndLyingFilesAreRefused() throws Exception {
    byte[] full = Files.readAllBytes(difs(MACOS + "crash"));
    assertThatThrownBy(() -> MachOFile.parse(Arrays.copyOf(full, 20), null))
        .isInstanceOf(ObjectFormatException.class);
    assertThatThrownBy(() -> MachOFile.parse(Arrays.copyOf(full, 200), null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("load commands");
    // the symbol table lies at the end: cut it off
    MachOFile cut = MachOFile.parse(Arrays.copyOf(full, full.length / 2), null);
    assertThatThrownBy(() -> MachOSymbols.functions(cut))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("outside the file");
  }
}

package io.symbolicate.symbols.objects;

import static io.symbolicate.symbols.objects.ElfFileTest.difs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PE images against symbolic's test_objects.rs expectations (test_pe_32, test_pe_64: code id,
 * debug id, PDB path, arch, kind, load address, features) and Breakpad's pe_only_symbol_test
 * (MODULE and INFO CODE_ID lines of its .sym).
 */
class PeFileTest {
  static final String WIN = "getsentry-symbolic/testutils/windows/";

  @Test
  void crashExeIsSymbolicsTestPe32() throws Exception {
    ObjectFile f = ObjectFiles.open(difs(WIN + "crash.exe"), null);
    ObjectIdentity id = f.identity();
    assertThat(id.fileFormat()).isEqualTo("pe");
    assertThat(id.codeId()).isEqualTo("5ab380779000");
    assertThat(id.debugIdGuid()).isEqualTo("3249d99d-0c40-4931-8610-f4e4fb0b6936-1");
    assertThat(id.debugId()).isEqualTo("3249D99D0C4049318610F4E4FB0B69361");
    assertThat(id.arch()).isEqualTo("x86");
    assertThat(id.kind()).isEqualTo(ObjectKind.EXECUTABLE);
    assertThat(id.loadAddress()).isEqualTo(0x400000L);
    // has_symbols, has_debug_info and has_unwind_info are all false in symbolic's snapshot
    assertThat(id.features()).isEmpty();
    PeFile pe = f.pe().orElseThrow();
    assertThat(pe.codeView().orElseThrow().path())
        .isEqualTo("C:\\projects\\breakpad-tools\\windows\\Release\\crash.pdb");
    assertThat(pe.codeView().orElseThrow().fileName()).isEqualTo("crash.pdb");
    assertThat(pe.breakpadCodeId()).isEqualTo("5AB380779000"); // crash.sym's INFO CODE_ID
    assertThat(pe.sections()).extracting(PeSection::name).contains(".text", ".rdata");
  }

  @Test
  void crashWithExceptionIsSymbolicsTestPe64() throws Exception {
    ObjectIdentity id = ObjectFiles.open(difs(WIN + "CrashWithException.exe"), null).identity();
    assertThat(id.codeId()).isEqualTo("5c9e09599000");
    assertThat(id.debugIdGuid()).isEqualTo("f535c5fb-2ae8-4bb8-aa20-6c30be566c5a-1");
    assertThat(id.arch()).isEqualTo("x86_64");
    assertThat(id.kind()).isEqualTo(ObjectKind.EXECUTABLE);
    assertThat(id.loadAddress()).isEqualTo(0x140000000L);
    assertThat(id.features()).containsExactly(ObjectFeature.UNWIND);
    PeFile pe = PeFile.open(difs(WIN + "CrashWithException.exe"));
    assertThat(pe.codeView().orElseThrow().path())
        .isEqualTo(
            "C:\\Users\\sentry\\source\\repos\\CrashWithException\\x64\\Release\\"
                + "CrashWithException.pdb");
  }

  @Test
  void breakpadPeOnlyDllGivesTheModuleLineOfItsSym() throws Exception {
    String dir = "google-breakpad/src/tools/windows/dump_syms/testdata/";
    List<String> sym = Files.readAllLines(difs(dir + "pe_only_symbol_test.sym"));
    ObjectFile f = ObjectFiles.open(difs(dir + "pe_only_symbol_test.dll"), null);
    PeFile pe = f.pe().orElseThrow();
    PeCodeView cv = pe.codeView().orElseThrow();
    assertThat(sym.get(0))
        .isEqualTo("MODULE windows " + pe.arch() + " " + cv.debugId() + " " + cv.fileName());
    assertThat(sym.get(1))
        .isEqualTo("INFO CODE_ID " + pe.breakpadCodeId() + " pe_only_symbol_test.dll");
    assertThat(f.identity().kind()).isEqualTo(ObjectKind.LIBRARY);
  }

  @Test
  void exportsArePublicSymbols() throws Exception {
    // Mozilla's basic32-dwarf.sym PUBLIC records of this MinGW DLL are its 12 exports (names
    // without their leading '_') and one "<unknown>" that is no export
    for (String dll : List.of("basic32-dwarf")) {
      ObjectFile f = ObjectFiles.open(difs("mozilla-dump_syms/windows/" + dll + ".dll"), null);
      List<ObjectSymbol> exports = f.publicSymbols();
      List<String> ours =
          exports.stream()
              .map(s -> Long.toHexString(s.address()) + " " + s.name().replaceFirst("^_", ""))
              .toList();
      List<String> golden =
          Files.readAllLines(difs("mozilla-dump_syms/windows/" + dll + ".sym")).stream()
              .filter(l -> l.startsWith("PUBLIC ") && !l.endsWith("<unknown>"))
              .map(l -> l.split(" ", 4))
              .map(p -> p[1] + " " + p[3])
              .toList();
      assertThat(golden).hasSize(12);
      assertThat(ours).containsExactlyElementsOf(golden);
      assertThat(f.identity().features()).contains(ObjectFeature.SYMTAB);
    }
  }

  @Test
  void dwarfSectionsOfMingwImagesAreFoundByTheirLongNames() throws Exception {
    ObjectFile f = ObjectFiles.open(difs(WIN + "hello-dwarf.exe"), null);
    assertThat(f.section(".debug_info")).isPresent();
    assertThat(f.section(".debug_line")).isPresent();
    assertThat(f.identity().features()).contains(ObjectFeature.DEBUG);
  }

  // ------------------------------------------------------------------ hostile input

  private static byte[] crashExe() throws Exception {
    return Files.readAllBytes(difs(WIN + "crash.exe"));
  }

  private static int peOffset(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0x3c);
  }

  @Test
  void aPeOffsetPastTheFileIsRefused() throws Exception {
    byte[] b = crashExe();
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(0x3c, 0x7ffffff0);
    assertThatThrownBy(() -> PeFile.parse(b))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("outside the file");
  }

  @Test
  void aSectionCountPastTheFileIsRefused() throws Exception {
    byte[] b = crashExe();
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(peOffset(b) + 6, (short) 0xffff);
    assertThatThrownBy(() -> PeFile.parse(b))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("section table of 65535 sections");
  }

  @Test
  void aDebugDirectoryOutsideAnySectionIsRefused() throws Exception {
    byte[] b = crashExe();
    int dirs = peOffset(b) + 24 + 96;
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(dirs + 8 * 6, 0x7fff0000);
    PeFile pe = PeFile.parse(b);
    assertThatThrownBy(pe::codeView)
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("debug directory");
  }

  @Test
  void anExportTableClaimingBillionsIsRefusedWithoutAllocating() throws Exception {
    byte[] b = Files.readAllBytes(difs("mozilla-dump_syms/windows/basic64-dwarf.dll"));
    PeFile pe = PeFile.parse(b);
    long exportRva = pe.directory(PeFile.DIR_EXPORT)[0];
    PeSection s = pe.sectionAt(exportRva).orElseThrow();
    int at = (int) (s.rawOffset() + exportRva - s.virtualAddress());
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 24, 0x7fffffff);
    assertThatThrownBy(() -> PeFile.parse(b).exports())
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("claims");
  }

  @Test
  void truncatedImagesAreRefusedWithAReason() throws Exception {
    byte[] b = crashExe();
    for (int n : new int[] {0, 2, 63, 64, 0x100, peOffset(b) + 30}) {
      byte[] cut = Arrays.copyOf(b, n);
      assertThatThrownBy(() -> PeFile.parse(cut)).isInstanceOf(ObjectFormatException.class);
    }
  }

  @Test
  void anMzFileWithoutPeSignatureIsNamed() throws Exception {
    byte[] b = crashExe();
    b[peOffset(b)] = 'X';
    assertThatThrownBy(() -> ObjectFiles.open(b, "x.exe", null))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("without a PE signature");
  }

  static Path fixture(String rel) {
    return difs(rel);
  }
}

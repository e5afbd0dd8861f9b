package io.symbolicate.symbols.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.id.DebugFileLayout.Kind;
import io.symbolicate.symbols.id.DebugFileLayout.Query;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The example keys are those of Symbolicator's and debuginfod's documentation pages. */
class DebugFileLayoutTest {
  private static final String BUILD_ID = "180a373d6afbabf0eb1f09be1bc45bd796a71085";
  private static final Query ELF =
      new Query(
          "/usr/lib/debug/libfoo.so.debug",
          "3D370A18FB6AF0ABEB1F09BE1BC45BD70",
          "/usr/lib/libfoo.so",
          BUILD_ID.toUpperCase());

  @Test
  void nativeKeepsTheDebugFileBesideItsSym() {
    assertThat(DebugFileLayout.NATIVE.keys(ELF, Kind.BREAKPAD))
        .containsExactly("libfoo.so.debug/3D370A18FB6AF0ABEB1F09BE1BC45BD70/libfoo.so.debug.sym");
    assertThat(DebugFileLayout.NATIVE.keys(ELF, Kind.DEBUG_INFO))
        .containsExactly("libfoo.so.debug/3D370A18FB6AF0ABEB1F09BE1BC45BD70/libfoo.so.debug");
    assertThat(DebugFileLayout.NATIVE.keys(ELF, Kind.EXECUTABLE))
        .containsExactly("libfoo.so/" + BUILD_ID.toUpperCase() + "/libfoo.so");
  }

  @Test
  void unifiedSplitsTheCodeIdAfterTwoCharacters() {
    assertThat(DebugFileLayout.UNIFIED.keys(ELF, Kind.DEBUG_INFO))
        .containsExactly("18/0a373d6afbabf0eb1f09be1bc45bd796a71085/debuginfo");
    assertThat(DebugFileLayout.UNIFIED.keys(ELF, Kind.EXECUTABLE))
        .containsExactly("18/0a373d6afbabf0eb1f09be1bc45bd796a71085/executable");
    assertThat(DebugFileLayout.UNIFIED.keys(ELF, Kind.BREAKPAD))
        .containsExactly("18/0a373d6afbabf0eb1f09be1bc45bd796a71085/breakpad");
  }

  @Test
  void symstoreUsesTheSsqpElfKeys() {
    assertThat(DebugFileLayout.SYMSTORE.keys(ELF, Kind.DEBUG_INFO))
        .containsExactly("_.debug/elf-buildid-sym-" + BUILD_ID + "/_.debug");
    assertThat(DebugFileLayout.SYMSTORE.keys(ELF, Kind.EXECUTABLE))
        .containsExactly(
            "libfoo.so/elf-buildid-" + BUILD_ID + "/libfoo.so", "_/elf-buildid-" + BUILD_ID + "/_");
  }

  /** symbolic's crash.pdb and crash.exe, keyed as Microsoft's symstore.exe and SSQP key them. */
  private static final Query WINDOWS =
      new Query(
          "C:\\projects\\crash.pdb",
          "3249D99D0C4049318610F4E4FB0B69361",
          "crash.exe",
          "5AB380779000");

  @Test
  void symstoreKeysPdbsByGuidAndAgeAndExecutablesByTimestampAndSize() {
    assertThat(DebugFileLayout.SYMSTORE.keys(WINDOWS, Kind.DEBUG_INFO))
        .containsExactly(
            "crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb",
            "crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pd_",
            "crash.pdb/3249D99D0C4049318610F4E4FB0B69361/file.ptr");
    assertThat(DebugFileLayout.SYMSTORE.keys(WINDOWS, Kind.EXECUTABLE))
        .containsExactly(
            "crash.exe/5AB380779000/crash.exe",
            "crash.exe/5AB380779000/crash.ex_",
            "crash.exe/5AB380779000/file.ptr");
    assertThat(DebugFileLayout.SYMSTORE_INDEX2.keys(WINDOWS, Kind.DEBUG_INFO))
        .first()
        .isEqualTo("cr/crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb");
    assertThat(DebugFileLayout.SSQP.keys(WINDOWS, Kind.DEBUG_INFO))
        .containsExactly(
            "crash.pdb/3249d99d0c4049318610f4e4fb0b69361/crash.pdb",
            "crash.pdb/3249d99d0c4049318610f4e4fb0b69361/crash.pd_");
    assertThat(DebugFileLayout.SSQP.keys(WINDOWS, Kind.EXECUTABLE))
        .containsExactly("crash.exe/5ab380779000/crash.exe", "crash.exe/5ab380779000/crash.ex_");
    // the Breakpad layout keeps the debug id as Breakpad writes it
    assertThat(DebugFileLayout.NATIVE.keys(WINDOWS, Kind.DEBUG_INFO))
        .containsExactly("crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb");
  }

  /** Symbolicator's test symbol server holds integration.pdb where symstore.exe put it. */
  @Test
  void symstoreKeysAreThoseOfSymbolicatorsSymbolServerFixture() {
    Path store = SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator/symbols");
    Query q =
        new Query("integration.pdb", "0c1033f7-8632-492e-91c6-c314b72e1920-FFFFFFFF", null, null);
    String key = DebugFileLayout.SYMSTORE.keys(q, Kind.DEBUG_INFO).get(0);
    assertThat(key)
        .isEqualTo("integration.pdb/0C1033F78632492E91C6C314B72E1920ffffffff/integration.pdb");
    assertThat(store.resolve(key)).isRegularFile();
  }

  @Test
  void index2AndSsqpApplyToElfKeysToo() {
    assertThat(DebugFileLayout.SYMSTORE_INDEX2.keys(ELF, Kind.DEBUG_INFO))
        .containsExactly("_./_.debug/elf-buildid-sym-" + BUILD_ID + "/_.debug");
    assertThat(DebugFileLayout.SSQP.keys(ELF, Kind.DEBUG_INFO))
        .containsExactly("_.debug/elf-buildid-sym-" + BUILD_ID + "/_.debug");
  }

  @Test
  void debuginfodUsesBuildIdPaths() {
    assertThat(DebugFileLayout.DEBUGINFOD.keys(ELF, Kind.DEBUG_INFO))
        .containsExactly("buildid/" + BUILD_ID + "/debuginfo");
    assertThat(DebugFileLayout.DEBUGINFOD.keys(ELF, Kind.EXECUTABLE))
        .containsExactly("buildid/" + BUILD_ID + "/executable");
  }

  @Test
  void buildIdLayoutsNeedACodeId() {
    Query noCode = new Query("libfoo.so", "3D370A18FB6AF0ABEB1F09BE1BC45BD70", null, null);
    assertThat(DebugFileLayout.SYMSTORE.keys(noCode, Kind.DEBUG_INFO)).isEmpty();
    assertThat(DebugFileLayout.DEBUGINFOD.keys(noCode, Kind.EXECUTABLE)).isEmpty();
    assertThat(DebugFileLayout.NATIVE.keys(noCode, Kind.EXECUTABLE)).isEmpty();
    // the unified layout falls back to the debug id (Mach-O: the UUID is both)
    assertThat(DebugFileLayout.UNIFIED.keys(noCode, Kind.DEBUG_INFO))
        .containsExactly("3d/370a18fb6af0abeb1f09be1bc45bd70/debuginfo");
  }

  @Test
  void machOUuidsWithDashesBecomeHex() {
    Query macho =
        new Query(
            "crash",
            "67E9247C814E392BA027DBDE6748FCBF0",
            "crash",
            "67e9247c-814e-392b-a027-dbde6748fcbf");
    assertThat(DebugFileLayout.UNIFIED.keys(macho, Kind.DEBUG_INFO))
        .containsExactly("67/e9247c814e392ba027dbde6748fcbf/debuginfo");
  }

  @Test
  void hostileIdentifiersNeverBecomeKeys() {
    assertThatThrownBy(() -> new Query("a", "00", "x", "../../etc"))
        .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class)
        .hasMessageContaining("code id must be hexadecimal");
    assertThatThrownBy(() -> new Query("..", "00", null, null))
        .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class);
    assertThatThrownBy(() -> DebugFileLayout.parse("gdb"))
        .hasMessageContaining("native, unified, symstore, symstore_index2, ssqp, debuginfod");
  }
}

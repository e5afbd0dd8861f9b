package io.symbolicate.symbols.minidump.walk;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A symbol directory that holds ELF files instead of a {@code .sym}, in each layout of
 * docs/operations.md: the walker's module answers as it does from Mozilla's {@code .sym} of the
 * same file, symbols and CFI alike.
 */
class SymbolDirectoryDebugFilesTest {
  private static final Path MOZILLA =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");
  private static final String DEBUG_ID = "20AD60B0B4C68177552708AA192E77390";
  private static final String CODE_ID = "b060ad20c6b47781552708aa192e7739fac7c84a";
  private static final CodeModule MODULE =
      new CodeModule(
          0x5555_0000_0000L, 0x5000, "/opt/app/basic", CODE_ID, "basic", DEBUG_ID, "", false);

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "native debug file, basic/" + DEBUG_ID + "/basic, basic.full, ''",
    "unified, b0/60ad20c6b47781552708aa192e7739fac7c84a/debuginfo, basic.full, ''",
    "symstore, _.debug/elf-buildid-sym-" + CODE_ID + "/_.debug, basic.full, ''",
    "debuginfod executable + debuginfo, buildid/"
        + CODE_ID
        + "/executable, basic.stripped,"
        + " buildid/"
        + CODE_ID
        + "/debuginfo",
  })
  void findsTheDebugFile(String layout, String key, String file, String debugKey, @TempDir Path dir)
      throws Exception {
    place(dir, key, file);
    if (!debugKey.isEmpty()) {
      place(dir, debugKey, "basic.dbg");
    }
    ModuleSymbols fromDebugFiles = new SymbolDirectory(dir).find(MODULE);
    assertThat(fromDebugFiles).as(layout).isNotNull();

    Path symDir = dir.resolve("sym");
    place(symDir, "basic/" + DEBUG_ID + "/basic.sym", "basic.full.inlines.sym");
    ModuleSymbols fromSym = new SymbolDirectory(symDir).find(MODULE);
    for (long rel : new long[] {0x1125, 0x1166, 0x11f4, 0x12c0, 0x1040}) {
      assertThat(String.valueOf(fromDebugFiles.lookup(rel)))
          .as("lookup %x", rel)
          .isEqualTo(String.valueOf(fromSym.lookup(rel)));
      assertThat(fromDebugFiles.cfiRules(rel)).as("CFI at %x", rel).isNotNull();
    }
  }

  /**
   * A Windows module with its PDB and PE image in the symbol-store layout: the PDB is dumped
   * with the image beside it, and answers as the .sym Breakpad's dump_syms.exe wrote of it (at
   * functions whose names carry no argument list: ours do not yet).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "PDB and PE, crash.exe/5AB380779000/crash.exe",
    "PDB alone, ''",
  })
  void findsAPdbWithItsImage(String what, String exeKey, @TempDir Path dir) throws Exception {
    Path win = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    String id = "3249D99D0C4049318610F4E4FB0B69361";
    CodeModule crash =
        new CodeModule(
            0x40_0000L,
            0x9000,
            "C:\\app\\crash.exe",
            "5AB380779000",
            "C:\\projects\\crash.pdb",
            id,
            "",
            false);
    Path pdb = dir.resolve("crash.pdb/" + id + "/crash.pdb");
    Files.createDirectories(pdb.getParent());
    Files.copy(win.resolve("crash.pdb"), pdb);
    if (!exeKey.isEmpty()) {
      Path exe = dir.resolve(exeKey);
      Files.createDirectories(exe.getParent());
      Files.copy(win.resolve("crash.exe"), exe);
    }
    ModuleSymbols ours = new SymbolDirectory(dir).find(crash);
    assertThat(ours).as(what).isNotNull();
    Path symDir = dir.resolve("sym");
    Files.createDirectories(symDir.resolve("crash.pdb/" + id));
    Files.copy(win.resolve("crash.sym"), symDir.resolve("crash.pdb/" + id + "/crash.sym"));
    ModuleSymbols peer = new SymbolDirectory(symDir).find(crash);
    for (long rel : new long[] {0x1370, 0x1379, 0x13b5, 0x28a3, 0x1362}) {
      // Breakpad's crash.sym has no inlines; the PDB's (PdbInlinesTest) come on top of its frame
      assertThat(String.valueOf(outer(ours.lookup(rel))))
          .as("%s: lookup %x", what, rel)
          .isEqualTo(String.valueOf(peer.lookup(rel)));
    }
  }

  private static NativeFrame outer(NativeFrame f) {
    return f == null
        ? null
        : new NativeFrame(
            f.address(),
            f.function(),
            f.functionBase(),
            f.file(),
            f.line(),
            f.lineBase(),
            f.multiple(),
            f.fromPublic(),
            List.of());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"nothing there, ''", "not an object file, basic/" + DEBUG_ID + "/basic"})
  void noSymbolsWithoutAReadableFile(String what, String key, @TempDir Path dir) throws Exception {
    if (!key.isEmpty()) {
      Path p = dir.resolve(key);
      Files.createDirectories(p.getParent());
      Files.writeString(p, "not an ELF file");
    }
    assertThat(new SymbolDirectory(dir).find(MODULE)).as(what).isNull();
  }

  private static void place(Path dir, String key, String fixture) throws Exception {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.copy(MOZILLA.resolve(fixture), p);
  }
}

package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.symbolicate.symbols.dotnet.DotnetImage;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DebugFileFormat} on the peers' debug files (../shared/fixtures/difs): where each object
 * goes in the native layout and which module it announces, the identity against the URL's, and
 * hostile input refused with a 4xx and a reason. The ids are the peers' (their {@code .sym}
 * MODULE lines, {@code readelf -n}, {@code llvm-objdump} as quoted in {@code MachOFileTest}).
 */
class DebugFileFormatTest {
  static final Path LINUX =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/linux");
  static final Path MACOS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/macos");
  static final Path MOZILLA = SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");

  /** symbolic's linux/crash.sym MODULE line; the build id as readelf -n shows it. */
  static final String CRASH_DEBUG_ID = "C0BCC3F19827FE653058404B2831D9E60";

  static final String CRASH_BUILD_ID = "F1C3BCC0279865FE3058404B2831D9E64135386C";

  /** symbolic's macos/crash.sym MODULE line. */
  static final String MAC_CRASH_DEBUG_ID = "67E9247C814E392BA027DBDE6748FCBF0";

  /** Example.framework.dSYM's slices (MachOFileTest, from llvm-objdump). */
  static final String EXAMPLE_X86_64 = "3B4566E4491B3DCF94F5AE51F624DD870";

  static final String EXAMPLE_ARM64 = "2556F1515A403847BE6CE2C1B5BE4DF80";

  /** Mozilla's basic.full.sym MODULE line; its build id by readelf -n. */
  static final String BASIC_DEBUG_ID = "20AD60B0B4C68177552708AA192E77390";

  static final String BASIC_BUILD_ID = "B060AD20C6B47781552708AA192E7739FAC7C84A";

  static final long MAX = 64L << 20;

  @TempDir Path dir;

  private List<UploadFormat.Placement> place(DebugFileFormat f, Path file) throws Exception {
    Path work = Files.createTempDirectory(dir, "work");
    return f.place("global", "up-1", file, work);
  }

  private static Map<String, UploadFormat.Placement> byKey(List<UploadFormat.Placement> ps) {
    Map<String, UploadFormat.Placement> m = new LinkedHashMap<>();
    ps.forEach(p -> m.put(p.key(), p));
    return m;
  }

  static byte[] zip(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(out)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        z.putNextEntry(new ZipEntry(e.getKey()));
        z.write(e.getValue());
        z.closeEntry();
      }
    }
    return out.toByteArray();
  }

  private Path write(String name, byte[] data) throws IOException {
    return Files.write(dir.resolve(name), data);
  }

  @Test
  void anExecutableAndItsDebugFileInAZipGoToTheirNativeKeys() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("bin/crash", Files.readAllBytes(LINUX.resolve("crash")));
    entries.put("bin/crash.debug", Files.readAllBytes(LINUX.resolve("crash.debug")));
    entries.put("README", "not an object".getBytes(StandardCharsets.UTF_8));
    Path zip = write("difs.zip", zip(entries));

    Map<String, UploadFormat.Placement> placed =
        byKey(place(new DebugFileFormat(null, null, MAX), zip));

    // the debug file under the executable's name (what a Linux crash report names the module
    // by), the executable (no DWARF) by its build id only
    String debug = "crash/" + CRASH_DEBUG_ID + "/crash";
    String exe = "crash/" + CRASH_BUILD_ID + "/crash";
    assertThat(placed.keySet()).containsExactlyInAnyOrder(debug, exe);
    assertThat(Files.readAllBytes(placed.get(debug).file()))
        .isEqualTo(Files.readAllBytes(LINUX.resolve("crash.debug")));
    assertThat(Files.readAllBytes(placed.get(exe).file()))
        .isEqualTo(Files.readAllBytes(LINUX.resolve("crash")));
    assertThat(placed.values())
        .extracting(UploadFormat.Placement::module)
        .containsOnly(ModuleRef.parse("global|N|crash/" + CRASH_DEBUG_ID));
  }

  @Test
  void aSingleFileIsStoredUnderTheNameItIsSentWith() throws Exception {
    Path debug = LINUX.resolve("crash.debug");
    List<UploadFormat.Placement> placed =
        new DebugFileFormat("crash.debug", null, MAX).place("acme", "u", debug, dir);
    assertThat(placed)
        .extracting(UploadFormat.Placement::key)
        .containsExactly("scopes/acme/crash.debug/" + CRASH_DEBUG_ID + "/crash.debug");
    assertThat(placed.get(0).module().toString()).isEqualTo("acme|N|crash.debug/" + CRASH_DEBUG_ID);

    // an executable with DWARF is its own debug file and its own executable
    Map<String, UploadFormat.Placement> full =
        byKey(
            new DebugFileFormat("basic.full", null, MAX)
                .place("global", "u", MOZILLA.resolve("basic.full"), dir));
    assertThat(full.keySet())
        .containsExactlyInAnyOrder(
            "basic.full/" + BASIC_DEBUG_ID + "/basic.full",
            "basic.full/" + BASIC_BUILD_ID + "/basic.full");
  }

  @Test
  void aDsymBundleZipIsItsDwarfFile() throws Exception {
    Path bundle = MACOS.resolve("crash.dSYM/Contents");
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("crash.dSYM/Contents/Info.plist", Files.readAllBytes(bundle.resolve("Info.plist")));
    entries.put(
        "crash.dSYM/Contents/Resources/DWARF/crash",
        Files.readAllBytes(bundle.resolve("Resources/DWARF/crash")));
    List<UploadFormat.Placement> placed =
        place(new DebugFileFormat(null, null, MAX), write("crash.dSYM.zip", zip(entries)));
    assertThat(placed)
        .extracting(UploadFormat.Placement::key)
        .containsExactly("crash/" + MAC_CRASH_DEBUG_ID + "/crash");
  }

  @Test
  void aFatFileStoresEachSliceAsAThinFileUnderItsOwnId() throws Exception {
    Path fat = MACOS.resolve("Example.framework.dSYM/Contents/Resources/DWARF/Example");
    Map<String, UploadFormat.Placement> placed =
        byKey(place(new DebugFileFormat("Example", null, MAX), fat));
    assertThat(placed.keySet())
        .containsExactlyInAnyOrder(
            "Example/" + EXAMPLE_X86_64 + "/Example", "Example/" + EXAMPLE_ARM64 + "/Example");
    for (UploadFormat.Placement p : placed.values()) {
      assertThat(ObjectFiles.fatSlices(p.file())).as("a thin file").isEmpty();
      ObjectIdentity id = ObjectFiles.open(p.file(), null).identity();
      assertThat(p.key()).contains("/" + id.debugId() + "/");
      assertThat(id.arch()).isEqualTo(p.key().contains(EXAMPLE_ARM64) ? "arm64" : "x86_64");
    }
  }

  @Test
  void theUrlsIdChoosesTheSliceAndAMismatchNamesBothIds() throws Exception {
    Path fat = MACOS.resolve("Example.framework.dSYM/Contents/Resources/DWARF/Example");
    assertThat(place(new DebugFileFormat("Example", EXAMPLE_ARM64.toLowerCase(), MAX), fat))
        .extracting(UploadFormat.Placement::key)
        .containsExactly("Example/" + EXAMPLE_ARM64 + "/Example");
    // the code id (build id) names a file too
    assertThat(
            place(
                new DebugFileFormat("crash", CRASH_BUILD_ID.toLowerCase(), MAX),
                LINUX.resolve("crash")))
        .extracting(UploadFormat.Placement::key)
        .containsExactly("crash/" + CRASH_BUILD_ID + "/crash");

    assertThatThrownBy(
            () ->
                place(
                    new DebugFileFormat("crash", MAC_CRASH_DEBUG_ID, MAX),
                    LINUX.resolve("crash.debug")))
        .isInstanceOfSatisfying(
            UploadError.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.code()).isEqualTo(UploadError.INVALID_FILE);
              assertThat(e.getMessage()).contains(MAC_CRASH_DEBUG_ID).contains(CRASH_DEBUG_ID);
            });
  }

  static final Path WINDOWS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");

  /** symbolic's windows/crash.sym: MODULE and INFO CODE_ID lines (Breakpad's dump_syms.exe). */
  static final String PDB_DEBUG_ID = "3249D99D0C4049318610F4E4FB0B69361";

  static final String PE_CODE_ID = "5AB380779000";

  /**
   * A PDB goes to its debug-id key; a PE image to its code-id key and, as its PDB has another
   * name, to its debug-id key too; each under the URL's id (debug id or code id) or refused
   * naming both ids.
   */
  @Test
  void aPdbAndAPeImageGoToTheirNativeKeysCheckedAgainstTheUrl() throws Exception {
    assertThat(
            place(
                new DebugFileFormat("crash.pdb", PDB_DEBUG_ID, MAX), WINDOWS.resolve("crash.pdb")))
        .extracting(UploadFormat.Placement::key, UploadFormat.Placement::module)
        .containsExactly(
            tuple(
                "crash.pdb/" + PDB_DEBUG_ID + "/crash.pdb",
                new ModuleRef("global", TableKind.NATIVE, "crash.pdb/" + PDB_DEBUG_ID)));
    // the GUID form with dashes and a lower-case age, as Sentry writes debug ids
    assertThat(
            place(
                new DebugFileFormat("crash.pdb", "3249d99d-0c40-4931-8610-f4e4fb0b6936-1", MAX),
                WINDOWS.resolve("crash.pdb")))
        .hasSize(1);
    assertThat(
            place(new DebugFileFormat("crash.exe", PE_CODE_ID, MAX), WINDOWS.resolve("crash.exe")))
        .extracting(UploadFormat.Placement::key)
        .containsExactlyInAnyOrder(
            "crash.exe/" + PE_CODE_ID + "/crash.exe", "crash.exe/" + PDB_DEBUG_ID + "/crash.exe");
    assertThat(
            place(
                new DebugFileFormat("crash.exe", PDB_DEBUG_ID, MAX), WINDOWS.resolve("crash.exe")))
        .hasSize(2);
    for (String[] c :
        new String[][] {
          {"crash.pdb", "crash.pdb", PE_CODE_ID, PDB_DEBUG_ID},
          {"crash.exe", "crash.exe", "0123456789ABCDEF0123456789ABCDEF1", PE_CODE_ID},
          {
            "crash.pdb", "CrashWithException.pdb", PDB_DEBUG_ID, "F535C5FB2AE84BB8AA206C30BE566C5A1"
          },
        }) {
      assertThatThrownBy(() -> place(new DebugFileFormat(c[0], c[2], MAX), WINDOWS.resolve(c[1])))
          .isInstanceOfSatisfying(
              UploadError.class,
              e -> {
                assertThat(e.status()).isEqualTo(400);
                assertThat(e.code()).isEqualTo(UploadError.INVALID_FILE);
                assertThat(e.getMessage()).contains(c[2]).containsIgnoringCase(c[3]);
              });
    }
  }

  /** A zip of a PE and its PDB, as sentry-cli uploads them: each to its own keys. */
  @Test
  void aZipOfAPeAndItsPdbStoresBoth() throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("bin/crash.exe", Files.readAllBytes(WINDOWS.resolve("crash.exe")));
    entries.put("bin/crash.pdb", Files.readAllBytes(WINDOWS.resolve("crash.pdb")));
    entries.put("bin/readme.txt", "not a debug file".getBytes(StandardCharsets.UTF_8));
    assertThat(place(new DebugFileFormat(null, null, MAX), write("win.zip", zip(entries))))
        .extracting(UploadFormat.Placement::key)
        .containsExactlyInAnyOrder(
            "crash.pdb/" + PDB_DEBUG_ID + "/crash.pdb",
            "crash.exe/" + PE_CODE_ID + "/crash.exe",
            "crash.exe/" + PDB_DEBUG_ID + "/crash.exe");
  }

  @Test
  void damagedWindowsFilesAreRefusedWithAReason() throws Exception {
    byte[] pdb = Files.readAllBytes(WINDOWS.resolve("crash.pdb"));
    byte[] pe = Files.readAllBytes(WINDOWS.resolve("crash.exe"));
    refused(new DebugFileFormat("a.pdb", null, MAX), Arrays.copyOf(pdb, 4096), 400, "not a valid");
    refused(new DebugFileFormat("a.exe", null, MAX), Arrays.copyOf(pe, 300), 400, "not a valid");
    refused(
        new DebugFileFormat("a.pdb", null, MAX),
        Arrays.copyOf(Files.readAllBytes(WINDOWS.resolve("portable.pdb")), 600),
        400,
        "not a valid Portable PDB");
  }

  /**
   * The id of the Portable PDB an assembly names in its CodeView entry (its GUID and the entry's
   * stamp; the PE's own debug id has the CodeView age instead).
   */
  private static String peDebugId(String file) throws IOException {
    String id =
        DotnetImage.parse(Files.readAllBytes(WINDOWS.resolve(file)))
            .portablePdbReference()
            .orElseThrow()
            .debugId();
    return id.replace("-", "").toUpperCase(Locale.ROOT);
  }

  /**
   * A Portable PDB goes to its native key under its own id, announced as a .NET module; symbolic's
   * test_matching_ids: the PDB's id is its assembly's (integration.dll's CodeView id).
   */
  @Test
  void aPortablePdbIsStoredUnderItsIdAsADotnetModule() throws Exception {
    String id = peDebugId("integration.dll");
    List<UploadFormat.Placement> ps =
        place(new DebugFileFormat("portable.pdb", null, MAX), WINDOWS.resolve("portable.pdb"));
    assertThat(ps)
        .extracting(UploadFormat.Placement::key, UploadFormat.Placement::module)
        .containsExactly(
            tuple(
                "portable.pdb/" + id + "/portable.pdb",
                new ModuleRef("global", TableKind.DOTNET, "portable.pdb/" + id)));
    // the URL's id must be the PDB's
    assertThat(
            place(
                new DebugFileFormat("portable.pdb", id.toLowerCase(), MAX),
                WINDOWS.resolve("portable.pdb")))
        .hasSize(1);
    assertThatThrownBy(
            () ->
                place(
                    new DebugFileFormat("portable.pdb", PDB_DEBUG_ID, MAX),
                    WINDOWS.resolve("portable.pdb")))
        .isInstanceOf(UploadError.class)
        .hasMessageContaining("Portable PDB: debug id " + id);
  }

  /**
   * An assembly that embeds its PDB is stored as that PDB too (symbolic's
   * test_pe_embedded_ppdb_*: the embedded PDB's id is the assembly's), under the name its
   * CodeView entry gives; in a zip beside a standalone PDB of the same key, the standalone wins.
   */
  @Test
  void anAssemblyEmbeddingItsPdbIsStoredAsThatPdbToo() throws Exception {
    String dll = "Sentry.Samples.Console.Basic-embedded-ppdb.dll";
    String id = peDebugId(dll);
    Map<String, UploadFormat.Placement> ps =
        byKey(place(new DebugFileFormat(dll, null, MAX), WINDOWS.resolve(dll)));
    String pdbKey = "Sentry.Samples.Console.Basic.pdb/" + id + "/Sentry.Samples.Console.Basic.pdb";
    assertThat(ps).containsKey(pdbKey);
    assertThat(ps.get(pdbKey).module())
        .isEqualTo(
            new ModuleRef("global", TableKind.DOTNET, "Sentry.Samples.Console.Basic.pdb/" + id));
    assertThat(ps.values())
        .filteredOn(p -> p.module().kind() == TableKind.NATIVE)
        .as("the assembly still goes to its own keys")
        .isNotEmpty();
    // an assembly without an embedded PDB is only itself
    assertThat(
            place(
                new DebugFileFormat("integration.dll", null, MAX),
                WINDOWS.resolve("integration.dll")))
        .allMatch(p -> p.module().kind() == TableKind.NATIVE);

    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("out/integration.dll", Files.readAllBytes(WINDOWS.resolve("integration.dll")));
    entries.put("out/integration.pdb", Files.readAllBytes(WINDOWS.resolve("portable.pdb")));
    String pdbId = peDebugId("integration.dll");
    assertThat(place(new DebugFileFormat(null, null, MAX), write("net.zip", zip(entries))))
        .extracting(UploadFormat.Placement::key)
        .contains("integration.pdb/" + pdbId + "/integration.pdb");
  }

  private void refused(DebugFileFormat f, byte[] data, int status, String reason) {
    assertThatThrownBy(() -> place(f, write("bad-" + System.nanoTime(), data)))
        .isInstanceOfSatisfying(
            UploadError.class,
            e -> {
              assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
              assertThat(e.getMessage()).contains(reason);
            });
  }

  @Test
  void hostileFilesAreRefusedWithAReason() throws Exception {
    DebugFileFormat named = new DebugFileFormat("app", null, MAX);
    byte[] debug = Files.readAllBytes(LINUX.resolve("crash.debug"));
    byte[] mac = Files.readAllBytes(MACOS.resolve("crash"));
    byte[] fat =
        Files.readAllBytes(
            MACOS.resolve("Example.framework.dSYM/Contents/Resources/DWARF/Example"));

    refused(named, "MODULE Linux x86_64 00 app\n".getBytes(StandardCharsets.UTF_8), 400, ".sym");
    refused(named, "hello".getBytes(StandardCharsets.UTF_8), 400, "not an ELF or Mach-O");
    refused(named, new byte[] {0x7f, 'E', 'L', 'F'}, 400, "not a valid object file");
    refused(named, Arrays.copyOf(debug, 64), 400, "not a valid object file");
    refused(named, Arrays.copyOf(debug, debug.length / 2), 400, "not a valid object file");
    refused(named, Arrays.copyOf(mac, 40), 400, "not a valid object file");
    // a fat header whose slice lies past the end of the file
    byte[] lying = Arrays.copyOf(fat, 4096);
    refused(named, lying, 400, "not a valid object file");
    // a Java class file shares the fat magic
    byte[] clazz = ByteBuffer.allocate(16).putInt(0xcafebabe).putInt(52).array();
    refused(named, clazz, 400, "Java class");
    // a single file without a name
    refused(new DebugFileFormat(null, null, MAX), debug, 400, "DebugFile");
  }

  @Test
  void hostileZipsAreRefusedOrBounded() throws Exception {
    DebugFileFormat f = new DebugFileFormat(null, null, MAX);
    byte[] debug = Files.readAllBytes(LINUX.resolve("crash.debug"));

    refused(f, zip(Map.of("README", new byte[10])), 400, "no ELF, Mach-O, PE or PDB file");
    refused(f, Arrays.copyOf(zip(Map.of("crash.debug", debug)), 2000), 400, "not a valid zip");
    // expands past the bound, whatever the entry's header says (a zip bomb)
    byte[] bomb = new byte[4 << 20];
    System.arraycopy(debug, 0, bomb, 0, 64);
    refused(new DebugFileFormat(null, null, 1 << 20), zip(Map.of("x", bomb)), 413, "expand");
    // a truncated object inside
    refused(f, zip(Map.of("crash.debug", Arrays.copyOf(debug, 100))), 400, "crash.debug");
    // the same object twice under one name
    Map<String, byte[]> twice = new LinkedHashMap<>();
    twice.put("a/crash.debug", debug);
    twice.put("b/crash.debug", debug);
    refused(f, zip(twice), 400, "both are");
    // an entry name that climbs out is only ever its last segment
    List<UploadFormat.Placement> placed =
        place(f, write("climb.zip", zip(Map.of("../../../etc/crash.debug", debug))));
    assertThat(placed)
        .extracting(UploadFormat.Placement::key)
        .containsExactly("crash/" + CRASH_DEBUG_ID + "/crash");
    placed.forEach(p -> assertThat(p.file()).startsWith(dir));
  }

  @Test
  void badNamesAndIdsFromTheClientAre400() {
    assertThatThrownBy(() -> new DebugFileFormat("../x", null, MAX))
        .isInstanceOfSatisfying(UploadError.class, e -> assertThat(e.status()).isEqualTo(400));
    assertThatThrownBy(() -> new DebugFileFormat("x", "not-hex!", MAX))
        .isInstanceOfSatisfying(UploadError.class, e -> assertThat(e.status()).isEqualTo(400));
    for (String bad : List.of("a|b", "%2e", "a/b", "..")) {
      assertThatThrownBy(() -> new DebugFileFormat(bad, null, MAX))
          .as(bad)
          .isInstanceOfSatisfying(UploadError.class, e -> assertThat(e.status()).isEqualTo(400));
    }
  }
}

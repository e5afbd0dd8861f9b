package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class NativeIdCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = SymbolicatorCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private static Path difs(String rel) {
    return SharedFixtures.fixtures("difs").resolve(rel);
  }

  @Test
  void elfIdentityAsTheSymGoldensModuleLine() throws Exception {
    // mozilla's basic.full.sym: MODULE Linux x86_64 20AD60B0B4C68177552708AA192E77390 basic.full
    // INFO CODE_ID B060AD20C6B47781552708AA192E7739FAC7C84A
    Run r = run("native", "id", difs("mozilla-dump_syms/linux/basic.full").toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("debug_id").asText()).isEqualTo("20AD60B0B4C68177552708AA192E77390");
    assertThat(j.get("code_id").asText()).isEqualTo("b060ad20c6b47781552708aa192e7739fac7c84a");
    assertThat(j.get("arch").asText()).isEqualTo("x86_64");
    assertThat(j.get("file_format").asText()).isEqualTo("elf");
    assertThat(j.get("kind").asText()).isEqualTo("library"); // a PIE is ET_DYN with .text
    assertThat(j.get("features").toString()).isEqualTo("[\"symtab\",\"debug\",\"unwind\"]");
  }

  @Test
  void peIdentityAsSymbolicAndBreakpadWriteIt() throws Exception {
    // symbolic test_pe_32 and crash.sym: MODULE windows x86 3249D99D...69361 crash.pdb,
    // INFO CODE_ID 5AB380779000 crash.exe
    Run r = run("native", "id", difs("getsentry-symbolic/testutils/windows/crash.exe").toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("debug_id").asText()).isEqualTo("3249D99D0C4049318610F4E4FB0B69361");
    assertThat(j.get("code_id").asText()).isEqualTo("5ab380779000");
    assertThat(j.get("breakpad_code_id").asText()).isEqualTo("5AB380779000");
    assertThat(j.get("arch").asText()).isEqualTo("x86");
    assertThat(j.get("file_format").asText()).isEqualTo("pe");
    assertThat(j.get("kind").asText()).isEqualTo("executable");
    assertThat(j.get("load_address").asText()).isEqualTo("0x400000");
    assertThat(j.get("debug_file").asText())
        .isEqualTo("C:\\projects\\breakpad-tools\\windows\\Release\\crash.pdb");
  }

  @Test
  void pdbIdentityAsBreakpadsModuleLine() throws Exception {
    // crash.sym (Breakpad's dump_syms.exe): MODULE windows x86 3249D99D...69361 crash.pdb;
    // symbolic's test_pdb: debug id 3249d99d-0c40-4931-8610-f4e4fb0b6936-1
    Run r = run("native", "id", difs("getsentry-symbolic/testutils/windows/crash.pdb").toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("debug_id").asText()).isEqualTo("3249D99D0C4049318610F4E4FB0B69361");
    assertThat(j.get("debug_id_guid").asText()).isEqualTo("3249d99d-0c40-4931-8610-f4e4fb0b6936-1");
    assertThat(j.get("code_id").isNull()).isTrue();
    assertThat(j.get("arch").asText()).isEqualTo("x86");
    assertThat(j.get("file_format").asText()).isEqualTo("pdb");
    assertThat(j.get("kind").asText()).isEqualTo("debug");
  }

  /** Mozilla's basic32.pd_ (makecab): the PDB inside, as basic32.sym's MODULE line names it. */
  @Test
  void aCabCompressedPdbIsExpandedFirst() throws Exception {
    Run r = run("native", "id", difs("mozilla-dump_syms/windows/basic32.pd_").toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("debug_id").asText()).isEqualTo("34060D222DBB44E5AA72243CE8326C2F2");
    assertThat(j.get("name").asText()).isEqualTo("basic32.pdb");
  }

  @Test
  void aDamagedCabinetFailsWithAReason(@TempDir Path dir) throws Exception {
    Path cut = dir.resolve("basic32.pd_");
    byte[] full = Files.readAllBytes(difs("mozilla-dump_syms/windows/basic32.pd_"));
    Files.write(cut, Arrays.copyOf(full, 5000));
    Run r = run("native", "id", cut.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("cabinet").contains("claims 1185826 bytes");
  }

  @Test
  void debugLinkOfAnElfFile() throws Exception {
    Path gen = difs("getsentry-symbolic/testutils/linux/elf_debuglink/gen");
    Run r = run("native", "id", gen.resolve("elf_with_debuglink").toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode link = JSON.readTree(r.out()).get("debug_link");
    assertThat(link.get("file_name").asText()).isEqualTo("debug_info.txt");
    assertThat(link.get("crc").asText())
        .isEqualTo(Files.readString(gen.resolve("debug_info.txt.crc")).trim());
  }

  @Test
  void dsymBundleAndFatSlices() throws Exception {
    // symbolic's test_mach_dsym: debug id 67e9247c-814e-392b-a027-dbde6748fcbf, kind Debug
    Run r = run("native", "id", difs("getsentry-symbolic/testutils/macos/crash.dSYM").toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("debug_id").asText()).isEqualTo("67E9247C814E392BA027DBDE6748FCBF0");
    assertThat(j.get("kind").asText()).isEqualTo("debug");
    assertThat(j.get("name").asText()).isEqualTo("crash");

    Path fat = difs("getsentry-symbolic/testutils/macos/Example.framework.dSYM");
    JsonNode all = JSON.readTree(run("native", "id", fat.toString()).out());
    assertThat(all.isArray()).isTrue();
    assertThat(all).hasSize(2);
    assertThat(all.get(0).get("arch").asText()).isEqualTo("x86_64");
    assertThat(all.get(1).get("arch").asText()).isEqualTo("arm64");
    JsonNode arm = JSON.readTree(run("native", "id", fat.toString(), "--arch", "arm64").out());
    assertThat(arm.get("code_id").asText()).isEqualTo(all.get(1).get("code_id").asText());
  }

  @Test
  void dsymZip(@TempDir Path dir) throws Exception {
    Path zip = dir.resolve("crash.dSYM.zip");
    try (OutputStream os = Files.newOutputStream(zip);
        ZipOutputStream z = new ZipOutputStream(os)) {
      z.putNextEntry(new ZipEntry("crash.dSYM/Contents/Resources/DWARF/crash"));
      z.write(
          Files.readAllBytes(
              difs(
                  "getsentry-symbolic/testutils/macos/crash.dSYM/Contents/Resources/DWARF/crash")));
      z.closeEntry();
    }
    Run r = run("native", "id", zip.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(JSON.readTree(r.out()).get("debug_id").asText())
        .isEqualTo("67E9247C814E392BA027DBDE6748FCBF0");
  }

  @Test
  void unreadableAndForeignFilesFailWithAReason(@TempDir Path dir) throws Exception {
    Run missing = run("native", "id", dir.resolve("nope").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("no such file");

    Run sym =
        run("native", "id", difs("getsentry-symbolic/testutils/windows/crash.sym").toString());
    assertThat(sym.code()).isEqualTo(2);
    assertThat(sym.err()).contains("a Breakpad .sym file");

    Path cut = dir.resolve("cut.elf");
    byte[] full = Files.readAllBytes(difs("mozilla-dump_syms/linux/basic.full"));
    Files.write(cut, Arrays.copyOf(full, 100));
    Run truncated = run("native", "id", cut.toString());
    assertThat(truncated.code()).isEqualTo(2);
    assertThat(truncated.err()).contains("cut.elf").contains("outside the file");
  }

  @Test
  void help() {
    Run r = run("native", "id", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("--arch").contains("FILE");
  }
}

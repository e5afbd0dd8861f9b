package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code native dump-syms} and {@code native lookup} on debug files as compilers write them. */
class DumpSymsCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path MOZILLA =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");

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

  @Test
  void dumpSymsWritesMozillasSym() throws Exception {
    Run r = run("native", "dump-syms", "--inlines", MOZILLA.resolve("basic.full").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out().lines())
        .containsExactlyElementsOf(Files.readAllLines(MOZILLA.resolve("basic.full.inlines.sym")));
  }

  /** A PDB and its image: STACK CFI from the image's .pdata, as symbolic's snapshot has it. */
  @Test
  void dumpSymsOfAPdbWritesTheImagesUnwindInfo(@TempDir Path dir) throws Exception {
    Path windows = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    Path pdb = Files.copy(windows.resolve("CrashWithException.pdb"), dir.resolve("a.pdb"));
    Run r =
        run(
            "native",
            "dump-syms",
            pdb.toString(),
            windows.resolve("CrashWithException.exe").toString());
    assertThat(r.code()).as(r.err()).isZero();
    Path snap =
        SharedFixtures.fixtures("difs")
            .resolve(
                "getsentry-symbolic/snapshots/symbolic-cfi/tests/snapshots/test_cfi__cfi_pe_windows.snap");
    assertThat(r.out().lines().filter(l -> l.startsWith("STACK ")))
        .containsExactlyElementsOf(
            Files.readAllLines(snap).stream().filter(l -> l.startsWith("STACK ")).toList());
    assertThat(r.out()).contains("INFO CODE_ID ");
  }

  @Test
  void dumpSymsWritesToAFile(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("basic.sym");
    Run r =
        run("native", "dump-syms", MOZILLA.resolve("basic.full").toString(), "-o", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(Files.readAllLines(out))
        .containsExactlyElementsOf(Files.readAllLines(MOZILLA.resolve("basic.full.sym")));
  }

  @Test
  void lookupReadsAnElfFileByItsMagic() throws Exception {
    Run r = run("native", "lookup", "--sym", MOZILLA.resolve("basic.full").toString(), "1166");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode a = JSON.readTree(r.out().lines().findFirst().orElseThrow());
    // basic.full.inlines.sym: 1161 11 10 0 inside FUNC 114b inline_2(int), inlined inline_1
    Run viaSym =
        run(
            "native",
            "lookup",
            "--sym",
            MOZILLA.resolve("basic.full.inlines.sym").toString(),
            "1166");
    assertThat(a).isEqualTo(JSON.readTree(viaSym.out().lines().findFirst().orElseThrow()));
    assertThat(a.get("function").asText()).isEqualTo("inline_2(int)");
    assertThat(a.get("inlines")).isNotEmpty();
  }

  @Test
  void filesItCannotReadGiveAMessageAndAnExitCode(@TempDir Path dir) throws Exception {
    Run missing = run("native", "dump-syms", dir.resolve("nope").toString());
    assertThat(missing.code()).isNotZero();
    assertThat(missing.err()).contains("no such file");
    Path text = Files.writeString(dir.resolve("notes.txt"), "hello, not an object file");
    Run wrong = run("native", "dump-syms", text.toString());
    assertThat(wrong.code()).isNotZero();
    assertThat(wrong.err()).contains("not an ELF or Mach-O file");
    Path cut = dir.resolve("cut.elf");
    Files.write(
        cut, java.util.Arrays.copyOf(Files.readAllBytes(MOZILLA.resolve("basic.full")), 300));
    Run truncated = run("native", "dump-syms", cut.toString());
    assertThat(truncated.code()).isNotZero();
    assertThat(truncated.err()).contains("cut.elf");
  }

  @Test
  void helpNamesTheOptions() {
    Run r = run("native", "dump-syms", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("--inlines", "--arch", "--debug-file");
  }
}

package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.minidump.walk.HumanReadableWriter;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.objects.ObjectFile;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated minidump corpus walked from the ELF files themselves instead of Breakpad's {@code
 * .sym} files: each program and system library that {@code dump_syms} read (the corpus's {@code
 * symbol_files[].from}, the programs kept by {@code KEEP_WORK=1}) is placed in the Breakpad
 * directory layout under its debug file name, without a {@code .sym}, and every case must give
 * Breakpad's {@code minidump_stackwalk} output byte for byte, as the walk with the {@code .sym}
 * files does (issue 44: our dump_syms must make the same walks).
 */
class GeneratedCorpusDebugFileWalkTest {
  @TempDir static Path elfSymbols;

  @TestFactory
  Stream<DynamicTest> everyCaseWalksTheSameFromTheElfFiles() throws Exception {
    if (!GeneratedCorpus.present()) {
      return GeneratedCorpus.missingCorpusTest();
    }
    Path dir = GeneratedCorpus.minidump();
    JsonNode doc = new ObjectMapper().readTree(dir.resolve("cases.json").toFile());
    GeneratedCorpus.need(
        Files.isDirectory(dir.resolve(".work/build")),
        "the crash programs of the generated minidump corpus ("
            + dir
            + "/.work/build, kept by"
            + " KEEP_WORK=1)");
    int placed = placeDebugFiles(dir, doc.get("symbol_files"));
    assertThat(placed).as("debug files placed").isGreaterThanOrEqualTo(15);
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : doc.get("cases")) {
      String name = c.get("name").asText();
      boolean withContents = c.get("expected_human_cmd").asText().contains(" -s ");
      tests.add(
          DynamicTest.dynamicTest(
              name,
              () -> {
                ProcessState s =
                    StackwalkGoldenTest.process(dir.resolve(c.get("dump").asText()), elfSymbols);
                compare(
                    name + ".machine_readable.out",
                    MachineReadableWriter.write(s),
                    dir.resolve(c.get("expected_machine_readable").asText()));
                compare(
                    name + ".stackwalk.out",
                    HumanReadableWriter.write(
                        s, HumanReadableWriter.Dialect.NPM_0_26, withContents),
                    dir.resolve(c.get("expected_human").asText()));
              }));
    }
    return tests.stream();
  }

  /**
   * Puts each file dump_syms read at {@code <debug file>/<DEBUG ID>/<debug file>}, checking that
   * its identity is the one its {@code .sym} names (a system library updated since the corpus was
   * generated would otherwise give a different walk for a reason that is not ours).
   */
  private static int placeDebugFiles(Path dir, JsonNode symbolFiles) throws IOException {
    int placed = 0;
    for (JsonNode f : symbolFiles) {
      Path sym = dir.resolve(f.get("path").asText());
      Path from = dir.resolve(f.get("from").asText());
      String[] module = moduleLine(sym);
      String debugId = module[3];
      String debugFile = module[4];
      GeneratedCorpus.need(Files.isRegularFile(from), "the file " + sym + " was made from");
      ObjectFile obj = ObjectFiles.open(from, null);
      assertThat(obj.identity().debugId())
          .as(from + " is no longer the file the corpus was made from: regenerate it")
          .isEqualTo(debugId);
      Path target = elfSymbols.resolve(debugFile).resolve(debugId).resolve(debugFile);
      Files.createDirectories(target.getParent());
      Files.copy(from, target);
      placed++;
    }
    return placed;
  }

  /** The MODULE line's fields: MODULE os arch id name. */
  private static String[] moduleLine(Path sym) throws IOException {
    try (BufferedReader r = Files.newBufferedReader(sym, StandardCharsets.UTF_8)) {
      String[] fields = r.readLine().split(" ", 5);
      assertThat(fields[0]).isEqualTo("MODULE");
      return fields;
    }
  }

  private static void compare(String file, String actual, Path golden) throws IOException {
    String expected = Files.readString(golden, StandardCharsets.UTF_8);
    if (!actual.equals(expected)) {
      Path out = Paths.get("target", "minidump-corpus-elf", file);
      Files.createDirectories(out.getParent());
      Files.writeString(out, actual, StandardCharsets.UTF_8); // for a diff
    }
    assertThat(actual).as(file + " (ours in target/minidump-corpus-elf)").isEqualTo(expected);
  }
}

package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.minidump.walk.HumanReadableWriter;
import io.symbolicate.symbols.minidump.walk.MachineReadableWriter;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The corpus {@code ../shared/bench/minidumps.sh OUTDIR} generates (real Linux amd64 dumps from
 * Breakpad's client, with Breakpad's own {@code minidump_stackwalk -m} output as the golden):
 * every case must match byte for byte. The corpus is generated once per machine outside the
 * repository (see {@link GeneratedCorpus} for where it is looked for). Without it the test is
 * skipped with a message, or fails when SYMBOLICATE_REQUIRE_CORPUS=1 ({@code .ci/run}).
 */
class GeneratedCorpusTest {
  static Path corpus() {
    return GeneratedCorpus.minidump();
  }

  @TestFactory
  Stream<DynamicTest> everyCaseMatchesMinidumpStackwalkMachineReadable() throws Exception {
    if (!GeneratedCorpus.present()) {
      return GeneratedCorpus.missingCorpusTest();
    }
    Path dir = GeneratedCorpus.minidump();
    JsonNode cases = new ObjectMapper().readTree(dir.resolve("cases.json").toFile()).get("cases");
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases) {
      String name = c.get("name").asText();
      tests.add(
          DynamicTest.dynamicTest(
              name,
              () -> {
                ProcessState s =
                    StackwalkGoldenTest.process(
                        dir.resolve(c.get("dump").asText()),
                        dir.resolve(c.get("symbols").asText()));
                String expected =
                    Files.readString(
                        dir.resolve(c.get("expected_machine_readable").asText()),
                        StandardCharsets.UTF_8);
                String actual = MachineReadableWriter.write(s);
                if (!actual.equals(expected)) {
                  Path out = Paths.get("target", "minidump-corpus", name + ".machine_readable.out");
                  Files.createDirectories(out.getParent());
                  Files.writeString(out, actual, StandardCharsets.UTF_8); // for a diff
                }
                assertThat(actual)
                    .as(name + " (ours in " + "target/minidump-corpus)")
                    .isEqualTo(expected);
              }));
    }
    assertThat(tests).hasSize(cases.size()).isNotEmpty();
    return tests.stream();
  }

  /** The human report (with -s stack contents where the golden used -s), npm Breakpad's dialect. */
  @TestFactory
  Stream<DynamicTest> everyCaseMatchesMinidumpStackwalkHumanReport() throws Exception {
    if (!GeneratedCorpus.present()) {
      return GeneratedCorpus.missingCorpusTest();
    }
    Path dir = GeneratedCorpus.minidump();
    JsonNode cases = new ObjectMapper().readTree(dir.resolve("cases.json").toFile()).get("cases");
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases) {
      String name = c.get("name").asText();
      boolean withContents = c.get("expected_human_cmd").asText().contains(" -s ");
      tests.add(
          DynamicTest.dynamicTest(
              name,
              () -> {
                ProcessState s =
                    StackwalkGoldenTest.process(
                        dir.resolve(c.get("dump").asText()),
                        dir.resolve(c.get("symbols").asText()));
                String expected =
                    Files.readString(
                        dir.resolve(c.get("expected_human").asText()), StandardCharsets.UTF_8);
                String actual =
                    HumanReadableWriter.write(
                        s, HumanReadableWriter.Dialect.NPM_0_26, withContents);
                if (!actual.equals(expected)) {
                  Path out = Paths.get("target", "minidump-corpus", name + ".stackwalk.out");
                  Files.createDirectories(out.getParent());
                  Files.writeString(out, actual, StandardCharsets.UTF_8);
                }
                assertThat(actual)
                    .as(name + " (ours in target/minidump-corpus)")
                    .isEqualTo(expected);
              }));
    }
    return tests.stream();
  }
}

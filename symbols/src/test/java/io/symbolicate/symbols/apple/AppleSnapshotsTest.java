package io.symbolicate.symbols.apple;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * apple-crash-report-parser's snapshots ({@code ../shared/fixtures/apple-crash/derived/
 * test_snapshots__*.json}, its insta YAML as JSON) against our parse of the same fixture, field by
 * field. Upstream has a fourth snapshot, {@code bruno}, whose fixture is not among the shared
 * fixtures; every snapshot present is checked, and there must be at least the three we know.
 */
class AppleSnapshotsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path DIR = SharedFixtures.fixtures("apple-crash");

  static Stream<String> snapshots() throws IOException {
    try (Stream<Path> files = Files.list(DIR.resolve("derived"))) {
      List<String> names =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.startsWith("test_snapshots__") && n.endsWith(".json"))
              .map(n -> n.substring("test_snapshots__".length(), n.length() - ".json".length()))
              .sorted()
              .toList();
      assertThat(names).contains("handcrafted", "spaces", "XCDYouTubeKit-54");
      return names.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("snapshots")
  void parseMatchesSnapshotFieldByField(String name) throws Exception {
    Path fixture = DIR.resolve("apple-crash-report-parser/tests/fixtures/" + name + ".txt");
    JsonNode expected =
        MAPPER.readTree(DIR.resolve("derived/test_snapshots__" + name + ".json").toFile());
    AppleCrashReport report = AppleCrashReportParser.parse(fixture);
    JsonNode actual = MAPPER.readTree(AppleReportJson.toJson(report));
    assertThat(JsonDiff.diff(expected, actual)).as(name).isEmpty();
    assertThat(report.format()).isEqualTo(AppleCrashReport.ReportFormat.TEXT);
  }

  /** Upstream's test for this fixture only asks for a timestamp (four fraction digits). */
  @Test
  void xcode16FourFractionDigits() throws Exception {
    AppleCrashReport r =
        AppleCrashReportParser.parse(
            DIR.resolve("apple-crash-report-parser/tests/fixtures/xcode16.txt"));
    JsonNode json = MAPPER.readTree(AppleReportJson.toJson(r));
    // 2020-03-27 18:06:51.4969 -0700
    assertThat(json.get("timestamp").asText()).isEqualTo("2020-03-28T01:06:51.496900Z");
    assertThat(json.get("incident_identifier").asText())
        .isEqualTo("6156848e-344e-4d9e-84e0-87afd0d0ae7b");
    assertThat(json.get("code_type").asText()).isEqualTo("ARM-64 (Native)");
    assertThat(json.get("metadata").get("Launch Time").asText())
        .isEqualTo("2020-03-27 18:06:31.7593 -0700");
    assertThat(json.get("threads")).isEmpty();
    assertThat(json.has("application_specific_information")).isFalse();
  }
}

package io.symbolicate.symbols.apple;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The .ips samples of SYM ({@code ../shared/fixtures/apple-crash/SYM/SYMTests}) against their
 * text renderings: {@code AppleJson.ips} (JSON body) and {@code AppleConverted.log}, the text
 * report Apple renders from it; {@code AppleDemo.ips} (text body after the JSON header line).
 */
class AppleIpsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path DIR = SharedFixtures.fixtures("apple-crash").resolve("SYM/SYMTests");

  @Test
  void jsonIpsParsesAsItsTextRendering() throws Exception {
    AppleCrashReport ips = AppleCrashReportParser.parse(DIR.resolve("AppleJson.ips"));
    AppleCrashReport text = AppleCrashReportParser.parse(DIR.resolve("AppleConverted.log"));
    assertThat(ips.format()).isEqualTo(AppleCrashReport.ReportFormat.IPS_JSON);
    assertThat(text.format()).isEqualTo(AppleCrashReport.ReportFormat.TEXT);
    // the whole parse, field by field: threads, frames, registers, images, header fields
    JsonNode a = MAPPER.readTree(AppleReportJson.toJson(text));
    JsonNode b = MAPPER.readTree(AppleReportJson.toJson(ips));
    assertThat(JsonDiff.diff(a, b)).isEmpty();
    assertThat(ips.threads()).hasSize(8);
    assertThat(ips.binaryImages()).hasSize(13);
    assertThat(ips.crashedThread().id()).isEqualTo(1);
    assertThat(ips.crashedThread().registers())
        .containsEntry("x9", 0xeb1a636bd19c00aeL)
        .containsKey("esr");
    assertThat(ips.threads().get(0).dispatchQueue()).isEqualTo("com.apple.main-thread");
    assertThat(ips.threads().get(0).name()).isNull();
  }

  /** The .ips frames carry (image, offset); the text frames only an address: both convert alike. */
  @Test
  void jsonIpsConvertsAsItsTextRendering() throws Exception {
    NativeCrash ips =
        AppleNativeConverter.convert(AppleCrashReportParser.parse(DIR.resolve("AppleJson.ips")));
    NativeCrash text =
        AppleNativeConverter.convert(
            AppleCrashReportParser.parse(DIR.resolve("AppleConverted.log")));
    assertThat(ips).isEqualTo(text);
    assertThat(ips.arch()).isEqualTo("arm64");
    assertThat(ips.threads())
        .allSatisfy(
            t ->
                assertThat(t.frames())
                    .allSatisfy(f -> assertThat(f.moduleIndex()).isNotNegative()));
    NativeCrash.Module demo = ips.modules().get(6);
    assertThat(demo.debugFile()).isEqualTo("Demo");
    assertThat(demo.debugId()).isEqualTo("DB2FD9EC8DD1302198DF93DB16CF48630");
    assertThat(demo.imageSize()).isEqualTo(16400384);
    // frame 42 of thread 0: "Demo 0x100f4c4b4 0x100e88000 + 804020"
    NativeCrash.Frame f = ips.threads().get(0).frames().get(42);
    assertThat(f.moduleIndex()).isEqualTo(6);
    assertThat(f.moduleOffset()).isEqualTo(804020);
  }

  @Test
  void textIpsParsesAsItsBody() throws Exception {
    String file = Files.readString(DIR.resolve("AppleDemo.ips"), StandardCharsets.UTF_8);
    AppleCrashReport ips = AppleCrashReportParser.parse(file);
    AppleCrashReport body = AppleCrashReportParser.parse(file.substring(file.indexOf('\n') + 1));
    assertThat(ips.format()).isEqualTo(AppleCrashReport.ReportFormat.IPS_TEXT);
    assertThat(AppleReportJson.toJson(ips)).isEqualTo(AppleReportJson.toJson(body));
    assertThat(ips.incidentIdentifier()).isEqualTo("30e65f26-518c-4112-b000-b45201a4afcd");
    assertThat(ips.threads()).hasSizeGreaterThan(20);
    assertThat(ips.binaryImages()).hasSizeGreaterThan(300);
    assertThat(ips.crashedThread().id()).isZero();
    assertThat(ips.crashedThread().dispatchQueue()).isEqualTo("com.apple.main-thread");
    assertThat(ips.crashedThread().registers()).containsKeys("x0", "pc", "lr", "cpsr");
    assertThat(ips.metadata()).doesNotContainKey("x0");
  }

  /** A body without its header line (what some tools keep) parses too. */
  @Test
  void jsonBodyAlone() throws Exception {
    String file = Files.readString(DIR.resolve("AppleJson.ips"), StandardCharsets.UTF_8);
    AppleCrashReport whole = AppleCrashReportParser.parse(file);
    AppleCrashReport body = AppleCrashReportParser.parse(file.substring(file.indexOf('\n') + 1));
    assertThat(AppleReportJson.toJson(body)).isEqualTo(AppleReportJson.toJson(whole));
  }
}

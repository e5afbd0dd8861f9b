package io.symbolicate.symbols.apple;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.EndlessInput;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad and hostile input: every case ends in an {@link AppleCrashReportException} whose message
 * names the problem, never another exception, and no case allocates from a count the input
 * claims (counts and sizes are capped by {@link AppleLimits}).
 */
class AppleHostileInputTest {
  private static final Path FIXTURES = SharedFixtures.fixtures("apple-crash");
  private static final String IMAGE =
      "Binary Images:\n0x1000 - 0x1fff App arm64  <6bc32e62110531eebcdeab97b76d5507> /App\n";

  private static void rejects(String report, String reason) {
    assertThatThrownBy(() -> AppleCrashReportParser.parse(report))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining(reason);
  }

  private static String ipsHeader() {
    return "{\"bug_type\":\"309\",\"incident_id\":\"4904A8AF-6173-4A1B-B354-0A9C4FB1F673\"}\n";
  }

  @Test
  void emptyAndGarbage() {
    rejects("", "empty");
    rejects(" \n\t\n", "empty");
    rejects("hello world\nthis is not: a crash report\n", "not an Apple crash report");
    rejects("\u0000\u0001binary", "NUL");
    assertThatThrownBy(
            () -> AppleCrashReportParser.parse(new byte[] {(byte) 0xff, (byte) 0xfe, 'T', 'h'}))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("not UTF-8");
  }

  /** Umeng's own format is not Apple's: refused rather than read as an empty report. */
  @Test
  void umengReportIsNotAnAppleReport() {
    assertThatThrownBy(
            () -> AppleCrashReportParser.parse(FIXTURES.resolve("SYM/SYMTests/UmengDemo.crash")))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("not an Apple crash report");
  }

  @Test
  void randomBytesNeverEscapeAsAnotherException() {
    Random random = new Random(33);
    for (int i = 0; i < 300; i++) {
      byte[] b = new byte[random.nextInt(4000)];
      random.nextBytes(b);
      if (i % 3 == 0) {
        b[0] = '{'; // through the .ips path
      }
      try {
        AppleCrashReportParser.parse(b);
      } catch (AppleCrashReportException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
    }
  }

  /** Any prefix of a real report either parses or is refused with a reason. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SYM/SYMTests/AppleJson.ips",
        "SYM/SYMTests/AppleDemo.ips",
        "apple-crash-report-parser/tests/fixtures/handcrafted.txt",
        "symbolicator/tests/fixtures/apple_crash_report.txt"
      })
  void everyTruncationIsParsedOrRefused(String fixture) throws Exception {
    String full = Files.readString(FIXTURES.resolve(fixture), StandardCharsets.UTF_8);
    int refused = 0;
    for (int cut = 0; cut < full.length(); cut += Math.max(1, full.length() / 400)) {
      try {
        AppleCrashReportParser.parse(full.substring(0, cut));
      } catch (AppleCrashReportException e) {
        assertThat(e.getMessage()).isNotBlank();
        refused++;
      }
    }
    assertThat(refused).isPositive();
  }

  @Test
  void truncatedJsonBodyIsRefusedAsTruncated() throws Exception {
    String full =
        Files.readString(FIXTURES.resolve("SYM/SYMTests/AppleJson.ips"), StandardCharsets.UTF_8);
    for (int cut = full.indexOf('\n') + 2; cut < full.length() - 2; cut += 97) {
      String prefix = full.substring(0, cut);
      assertThatThrownBy(() -> AppleCrashReportParser.parse(prefix))
          .isInstanceOf(AppleCrashReportException.class)
          .hasMessageContaining("ips:");
    }
    rejects(full.substring(0, full.length() / 2), "truncated");
  }

  @Test
  void textCutInsideTheLastImageOrFrameLine() throws Exception {
    String full =
        Files.readString(
            FIXTURES.resolve("apple-crash-report-parser/tests/fixtures/handcrafted.txt"),
            StandardCharsets.UTF_8);
    rejects(full.substring(0, full.length() - 200), "truncated");
    int frame = full.indexOf("2   ???");
    rejects(full.substring(0, frame + 12), "truncated");
    // cut at a line end: a shorter report, parsed
    AppleCrashReport r =
        AppleCrashReportParser.parse(full.substring(0, full.indexOf("Binary Images:")));
    assertThat(r.threads()).hasSize(2);
    assertThat(r.binaryImages()).isEmpty();
  }

  @Test
  void badJsonInIps() {
    rejects(ipsHeader() + "{\"threads\": [", "truncated");
    rejects(ipsHeader() + "{\"threads\": [}", "not valid JSON");
    rejects(ipsHeader() + "{\"threads\": \"x\"}", "threads must be an array");
    rejects(
        ipsHeader() + "{\"threads\": [{\"frames\": [{\"imageIndex\": 0}]}], \"usedImages\": []}",
        "needs imageIndex");
    rejects(
        ipsHeader()
            + "{\"threads\": [{\"frames\": [{\"imageIndex\": 3, \"imageOffset\": 1}]}], \"usedImages\": []}",
        "past the 0 usedImages");
    rejects(
        ipsHeader() + "{\"threads\": [{\"frames\": [{\"imageIndex\": 0, \"imageOffset\": -5}]}]}",
        "negative");
    rejects(
        ipsHeader()
            + "{\"threads\": [{\"frames\": [{\"imageIndex\": 0, \"imageOffset\": 18446744073709551616}]}]}",
        "outside [0, 2^64 - 1]");
    rejects(
        ipsHeader() + "{\"threads\": [{\"frames\": [{\"imageIndex\": 0, \"imageOffset\": 1.5}]}]}",
        "unsigned integer");
    rejects(ipsHeader() + "{\"usedImages\": [{\"uuid\": \"not-a-uuid\"}]}", "not a UUID");
    rejects(ipsHeader() + "{\"usedImages\": [{\"name\": 7}]}", "must be a string");
    rejects(ipsHeader() + "{\"usedImages\": []} {\"more\": 1}", "after the report body");
    rejects(
        ipsHeader() + "{\"captureTime\": \"yesterday\", \"threads\": []}", "invalid captureTime");
    rejects(
        ipsHeader() + "{\"incident\": \"nope\", \"threads\": []}", "invalid incident identifier");
    rejects(ipsHeader() + "{\"bug_type\": \"288\", \"tasks\": {}}", "not a crash report");
    rejects(ipsHeader(), "only a header line");
    rejects("{\"bug_type\": \"309\"", "truncated");
    rejects("{\"a\": " + "[".repeat(AppleLimits.MAX_JSON_DEPTH + 5), "exceeds a limit");
  }

  @Test
  void hugeCounts() {
    StringBuilder threads = new StringBuilder("Process: X [1]\n");
    for (int i = 0; i <= AppleLimits.MAX_THREADS; i++) {
      threads.append("Thread ").append(i).append(":\n");
    }
    rejects(threads.toString(), "more than " + AppleLimits.MAX_THREADS + " threads");

    StringBuilder frames = new StringBuilder("Thread 0:\n");
    for (int i = 0; i <= AppleLimits.MAX_FRAMES_PER_THREAD; i++) {
      frames.append(i).append(" App 0x1000 f + 1\n");
    }
    rejects(frames.toString(), "more than " + AppleLimits.MAX_FRAMES_PER_THREAD + " frames");

    StringBuilder ips = new StringBuilder(ipsHeader()).append("{\"threads\": [");
    for (int i = 0; i <= AppleLimits.MAX_THREADS; i++) {
      ips.append(i == 0 ? "" : ",").append("{}");
    }
    rejects(ips.append("]}").toString(), "more than " + AppleLimits.MAX_THREADS + " threads");

    StringBuilder images = new StringBuilder("Binary Images:\n");
    for (int i = 0; i <= AppleLimits.MAX_IMAGES; i++) {
      images.append("0x1000 - 0x1fff App arm64  <6bc32e62110531eebcdeab97b76d5507> /App\n");
    }
    rejects(images.toString(), "more than " + AppleLimits.MAX_IMAGES + " binary images");
  }

  @Test
  void hugeInput() {
    assertThatThrownBy(() -> AppleCrashReportParser.parse(new EndlessInput("Process: X [1]\n")))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("larger than " + AppleLimits.MAX_REPORT_BYTES + " bytes");
  }

  @Test
  void veryLongLines() throws Exception {
    rejects(
        "Process: X [1]\n" + "a".repeat(AppleLimits.MAX_LINE_CHARS + 1) + "\n",
        "longer than " + AppleLimits.MAX_LINE_CHARS);
    // just under the cap: a frame with a 60 K symbol is read
    String symbol = "f".repeat(60_000);
    AppleCrashReport r =
        AppleCrashReportParser.parse("Thread 0:\n0   App  0x1000 " + symbol + " + 1\n");
    assertThat(r.threads().get(0).frames().get(0).symbol()).isEqualTo(symbol);
    // worst cases for the hand-written matchers stay linear: a line full of '<', spaces, "0x"
    AppleCrashReportParser.parse(IMAGE + "0x1 - 0x2 " + "<".repeat(60_000) + "> x\nProcess: p\n");
    rejects(IMAGE + "0x1 - 0x2 " + "<".repeat(60_000) + "\n", "truncated");
    AppleCrashReportParser.parse(IMAGE + "0x1 - 0x2 " + "a <b> ".repeat(9_000) + "\n");
    AppleCrashReportParser.parse("Thread 0:\n0 " + " 0x1".repeat(15_000) + "\n1 App 0x1 f\n");
    AppleCrashReportParser.parse("Thread 0:\n0   App 0x1 " + " (".repeat(30_000) + ":1)\n");
    AppleCrashReportParser.parse(
        "Thread 0 crashed with X86-64 Thread State:\n" + "a:".repeat(30_000) + "\n" + IMAGE);
  }

  @Test
  void badUuids() {
    rejects(
        IMAGE.replace("6bc32e62110531eebcdeab97b76d5507", "6bc32e62110531eebcdeab97b76d550z"),
        "invalid binary image identifier");
    rejects(
        IMAGE.replace("6bc32e62110531eebcdeab97b76d5507", "6bc32e62"),
        "invalid binary image identifier");
    rejects("Incident Identifier: 5C32DF84-31A0-43E7-87D0\n", "invalid incident identifier");
    rejects(
        "Incident Identifier: 5C32DF84+31A0-43E7-87D0-239F7F594940\n",
        "invalid incident identifier");
  }

  @Test
  void numbersOutOfRange() {
    rejects("Thread 0:\n0   App 0x10000000000000000 f + 1\n", "invalid frame instruction address");
    rejects("Thread 0:\n0   App 0x1 f (file.m:4294967296)\n", "invalid frame line number");
    rejects("Thread 18446744073709551616:\n", "invalid thread identifier");
    rejects("Thread 18446744073709551616 name: main\n", "invalid thread identifier");
    rejects(
        "Thread 0 crashed with X86-64 Thread State:\n  rip: 0x10000000000000000\n",
        "invalid register value");
    rejects(
        "Binary Images:\n0x10000000000000000 - 0x2 App arm64  <6bc32e62110531eebcdeab97b76d5507> /App\n",
        "invalid binary image address");
    rejects(
        "Binary Images:\n0x1 - 0x10000000000000000 App arm64  <6bc32e62110531eebcdeab97b76d5507> /App\n",
        "invalid binary image end address");
    rejects(
        "Binary Images:\n0x2 - 0x1 App arm64  <6bc32e62110531eebcdeab97b76d5507> /App\n",
        "address range");
    rejects("Report Version: 104.1\n", "invalid report version");
    rejects("Report Version: 4294967296\n", "invalid report version");
    rejects("Date/Time: 2019-02-30 10:00:00 +0000\n", "invalid timestamp");
    rejects("Date/Time: yesterday\n", "invalid timestamp");
  }

  @Test
  void errorsNameTheLine() {
    rejects("Process: X [1]\n\nThread 0:\n0   App 0x10000000000000000 f + 1\n", "line 4:");
  }
}

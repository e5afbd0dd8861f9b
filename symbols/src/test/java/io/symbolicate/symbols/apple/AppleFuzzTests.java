package io.symbolicate.symbols.apple;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.testing.Fuzzing;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the Apple crash report side (docs/fuzzing.md). In every build it replays its
 * corpus under {@code src/test/resources/.../AppleFuzzTestsInputs/report/};
 * {@code scripts/fuzz.sh apple-report} runs it coverage-guided.
 */
class AppleFuzzTests {
  /**
   * Bytes as a crash report (the text format or an .ips): parsed, written as JSON and converted
   * to the native crash shape; or {@link AppleCrashReportException}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "Incident Identifier: ",
    "Hardware Model: ",
    "Process: ",
    "OS Version: ",
    "Code Type: ",
    "Exception Type: ",
    "Crashed Thread: ",
    "Thread 0 Crashed:",
    "Thread 0:",
    "Binary Images:",
    "Thread 0 crashed with ARM Thread State (64-bit):",
    "\"bug_type\":\"309\"",
    "\"threads\":",
    "\"usedImages\":",
    "\"frames\":",
    "\"imageOffset\":",
    "\"imageIndex\":",
    "\"triggered\":true",
    "\"exception\":",
    "\"uuid\":",
    "0x"
  })
  void report(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          AppleCrashReport report = AppleCrashReportParser.parse(data);
          check(AppleReportJson.toJson(report) != null, "no JSON");
          check(AppleNativeConverter.convert(report) != null, "no native crash");
        },
        AppleCrashReportException.class);
  }
}

package io.symbolicate.signatures;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.testing.Fuzzing;
import org.junit.jupiter.api.Timeout;

/**
 * The signature generator on malformed crash data (docs/fuzzing.md): bytes as siggen's crash data
 * JSON through {@link CrashDataJson} and {@link SignatureGenerator}. Nulls, wrong JSON types and
 * huge lists must give a signature (or an explicit empty one) with notes; only input that is not
 * a JSON object within the bounds is refused. In every build the corpus under {@code
 * SignatureFuzzTestsInputs/crashData/} is replayed.
 */
class SignatureFuzzTests {
  private static final SignatureGenerator GENERATOR = SignatureGenerator.withDefaultLists();

  /**
   * Crash data, or {@link SignatureInputException}; then a signature that the post rules leave
   * printable ASCII, stripped and at most 255 characters, and JSON that signify would print.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "\"threads\"",
    "\"frames\"",
    "\"crashing_thread\"",
    "\"function\"",
    "\"module\"",
    "\"file\"",
    "\"line\"",
    "\"offset\"",
    "\"module_offset\"",
    "\"inlines\"",
    "\"unloaded_modules\"",
    "\"last_error_value\"",
    "\"abort_message\"",
    "\"oom_allocation_size\"",
    "\"hang\"",
    "\"reason\"",
    "\"os\"",
    "\"Windows NT\"",
    "\"async_shutdown_timeout\"",
    "\"ipc_channel_error\"",
    "\"ipc_message_name\"",
    "\"additional_minidumps\"",
    "\"mdsw_status_string\"",
    "\"java_stack_trace\"",
    "\"java_exception\"",
    "\"js_exception\"",
    "\"js_large_allocation_failure\"",
    "null",
    "[]",
    "{}"
  })
  void crashData(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          CrashData crash = CrashDataJson.parse(data);
          SignatureResult r = GENERATOR.generate(crash);
          String s = r.signature();
          check(s.length() <= Rules.SIGNATURE_MAX_LENGTH, "signature longer than 255");
          check(s.equals(s.strip()), "signature not stripped");
          for (int i = 0; i < s.length(); i++) {
            check(s.charAt(i) >= 0x20 && s.charAt(i) < 0x7f, "signature not printable ASCII");
          }
          check(!s.isEmpty() || !r.notes().isEmpty(), "an empty signature without a note");
          check(r.toJson().startsWith("{\n  \"signature\": "), "no signify JSON");
        },
        SignatureInputException.class);
  }
}

package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Python's json.loads, whose error messages reach the AsyncShutdownTimeout note. */
class PythonJsonTest {
  @Test
  void parsesWhatPythonParses() throws Exception {
    assertThat(
            PythonJson.loads(
                " {\"phase\": \"x\", \"conditions\": [{\"name\": \"A\"}, 1, 2.5, true, null, NaN]} "))
        .isEqualTo(
            Map.of(
                "phase",
                "x",
                "conditions",
                Arrays.asList(Map.of("name", "A"), 1L, 2.5, true, null, Double.NaN)));
    assertThat(PythonJson.loads("\"\\u00e9\\ud83d\\ude00\"")).isEqualTo("\u00e9\ud83d\ude00");
    assertThat(PythonJson.loads("[]")).isEqualTo(List.of());
  }

  @Test
  void errorMessagesAreWordForWordPythons() {
    // each message as CPython 3.11's json.loads raises it
    assertError(
        "{\"a\": 1,}",
        "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)");
    assertError("[1,]", "Expecting value: line 1 column 4 (char 3)");
    assertError("{\"a\" 1}", "Expecting ':' delimiter: line 1 column 6 (char 5)");
    assertError("\"x\" 1", "Extra data: line 1 column 5 (char 4)");
    assertError("", "Expecting value: line 1 column 1 (char 0)");
    assertError("[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)");
    assertError("{\"a\": \"\\q\"}", "Invalid \\escape: line 1 column 8 (char 7)");
    assertError("\"abc", "Unterminated string starting at: line 1 column 1 (char 0)");
    assertError("{\"a\":\n tru}", "Expecting value: line 2 column 2 (char 7)");
    assertError(
        "{{{{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)");
  }

  @Test
  void deepNestingFailsTheRuleLikePythonsRecursionLimit() {
    assertThatThrownBy(() -> PythonJson.loads("[".repeat(10_000)))
        .isInstanceOf(RuleFailure.class)
        .hasMessageContaining("maximum recursion depth exceeded");
  }

  private static void assertError(String json, String message) {
    assertThatThrownBy(() -> PythonJson.loads(json))
        .isInstanceOf(PythonJson.DecodeError.class)
        .hasMessage(message);
  }
}

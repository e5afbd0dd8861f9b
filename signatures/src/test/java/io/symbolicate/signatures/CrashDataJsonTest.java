package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** Reading crash data: the schema's fields, and hostile inputs answered with an error or bounded work. */
class CrashDataJsonTest {
  private static final SignatureGenerator GENERATOR = SignatureGenerator.withDefaultLists();

  @Test
  void readsTheSchemaFields() throws Exception {
    CrashData d =
        CrashDataJson.parse(
            """
        {"crashing_thread": "1", "os": "Windows NT", "reason": "EXCEPTION_STACK_OVERFLOW",
         "threads": [{"frames": []},
                     {"last_error_value": "ERROR_COMMITMENT_LIMIT", "thread_name": "t",
                      "frames": [{"function": "f", "module": "m.dll", "file": "a.cpp", "line": 3,
                                  "module_offset": "0x10", "offset": "0x7f10", "registers": {"rip": "0"},
                                  "inlines": [{"function": "g", "file": "b.h", "line": 9}],
                                  "unloaded_modules": [{"module": "u.dll", "offsets": ["0x1"]}]}]}],
         "oom_allocation_size": 17, "abort_message": "boom", "hang": "ui", "jit_category": "x",
         "additional_minidumps": "browser,content", "ipc_message_name": "M"}
        """);
    assertThat(d.crashingThread).isEqualTo(BigInteger.ONE);
    CrashThread t = d.crashingThreadData();
    assertThat(t.lastErrorValue()).isEqualTo("ERROR_COMMITMENT_LIMIT");
    CrashFrame f = t.frames().get(0);
    assertThat(f.function()).isEqualTo("f");
    assertThat(f.line).isEqualTo(3L);
    assertThat(f.offset).isEqualTo("0x7f10");
    assertThat(f.inlines().get(0).function()).isEqualTo("g");
    assertThat(f.unloadedModules).containsExactly("u.dll");
    assertThat(d.additionalMinidumps).containsExactly("browser", "content");
    assertThat(d.oomAllocationSize).isEqualTo(17L);
    assertThat(d.hang).isEqualTo("ui");
  }

  @Test
  void crashingThreadFollowsPythonInt() throws Exception {
    assertThat(CrashDataJson.parse("{}").crashingThread).isZero();
    assertThat(CrashDataJson.parse("{\"crashing_thread\": null}").crashingThread).isZero();
    assertThat(CrashDataJson.parse("{\"crashing_thread\": \"x\"}").crashingThread).isZero();
    assertThat(CrashDataJson.parse("{\"crashing_thread\": 2.9}").crashingThread)
        .isEqualTo(BigInteger.TWO);
    assertThat(
            CrashDataJson.parse(
                    "{\"crashing_thread\": -1, \"threads\": [{}, {\"last_error_value\": \"L\"}]}")
                .crashingThreadData()
                .lastErrorValue())
        .isEqualTo("L");
    assertThat(
            CrashDataJson.parse("{\"crashing_thread\": 99999999999999999999999, \"threads\": [{}]}")
                .crashingThreadData())
        .isNull();
  }

  @Test
  void refusesWhatIsNotCrashData() {
    assertInputError("", "empty");
    assertInputError("{\"os\": ", "not valid JSON");
    assertInputError("[1, 2]", "must be a JSON object");
    assertInputError("{\"os\": \"Linux\"} {}", "extra data");
    assertInputError("{\"os\": \"Linux\",}", "not valid JSON");
    assertInputError("{\"json_dump\": {}}", "processed crash");
  }

  @Test
  void deepNestingIsRefused() {
    String deep = "{\"x\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}";
    assertInputError(deep, "beyond a bound");
    String deepInFrame =
        "{\"threads\": [{\"frames\": [{\"registers\": "
            + "{\"a\":".repeat(70)
            + "1"
            + "}".repeat(70)
            + "}]}]}";
    assertInputError(deepInFrame, "beyond a bound");
  }

  @Test
  void absurdStringsAndNumbersAreRefused() {
    String huge = "a".repeat(CrashDataJson.MAX_STRING_CHARS + 1);
    assertInputError("{\"abort_message\": \"" + huge + "\"}", "beyond a bound");
    assertInputError(
        "{\"oom_allocation_size\": " + "9".repeat(CrashDataJson.MAX_NUMBER_CHARS + 1) + "}",
        "beyond a bound");
  }

  @Test
  void tooLargeInputIsRefusedBeforeParsing() {
    InputStream endless =
        new InputStream() {
          @Override
          public int read() {
            return ' ';
          }

          @Override
          public int read(byte[] b, int off, int len) {
            Arrays.fill(b, off, off + len, (byte) ' ');
            return len;
          }
        };
    assertThatThrownBy(() -> CrashDataJson.parse(endless))
        .isInstanceOf(SignatureInputException.class)
        .hasMessageContaining("larger than");
  }

  @Test
  void threadsPastTheBoundAreNotReadWithANote() throws Exception {
    String threads =
        "{\"crashing_thread\": 1, \"threads\": [{}, {\"frames\": [{\"function\": \"f\"}]},"
            + " {},".repeat(CrashDataJson.MAX_THREADS)
            + "{}]}";
    CrashData data = CrashDataJson.parse(threads);
    assertThat(data.threads()).hasSize(CrashDataJson.MAX_THREADS);
    SignatureResult r = SignatureGenerator.withDefaultLists().generate(data);
    assertThat(r.signature()).isEqualTo("f");
    assertThat(r.notes())
        .containsExactly(
            "CrashData: threads: "
                + (CrashDataJson.MAX_THREADS + 3)
                + " threads, only the first "
                + CrashDataJson.MAX_THREADS
                + " were read");
  }

  @Test
  void valuesPastTheBoundAreNotReadWithANote() throws Exception {
    String values =
        "{\"java_exception\": ["
            + "0,".repeat(CrashDataJson.MAX_VALUE_NODES)
            + "0], \"abort_message\": \"kept\", \"hang\": [1, 2],"
            + " \"threads\": [{\"frames\": [{\"function\": \"f\"}]}]}";
    CrashData data = CrashDataJson.parse(values);
    assertThat(data.javaException).isNull();
    assertThat(data.abortMessage).isEqualTo("kept");
    assertThat(data.hang).isNull();
    SignatureResult r = SignatureGenerator.withDefaultLists().generate(data);
    assertThat(r.signature()).isEqualTo("Abort | kept | f");
    assertThat(r.notes())
        .containsExactly(
            "CrashData: more than "
                + CrashDataJson.MAX_VALUE_NODES
                + " values: the values read whole from java_exception on were not read");
  }

  @Test
  void fieldsOfTheWrongTypeAreNotedNotRefused() throws Exception {
    SignatureResult r =
        SignatureGenerator.withDefaultLists()
            .generate(
                CrashDataJson.parse(
                    "{\"abort_message\": {\"a\": 1}, \"reason\": 5, \"additional_minidumps\": 3,"
                        + " \"threads\": {\"0\": {}}}"));
    assertThat(r.signature()).isEqualTo("EMPTY: no frame data available");
    assertThat(r.notes())
        .containsExactly(
            "CrashData: abort_message: expected a string or null, got an object; not read",
            "CrashData: reason: expected a string or null, got a number; not read",
            "CrashData: additional_minidumps: expected an array of strings, a string or null,"
                + " got int; not read",
            "CrashData: threads: expected an array or null, got an object; read as no threads",
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)");
  }

  @Test
  void malformedJsAndJavaExceptionsFailTheStackRule() throws Exception {
    SignatureResult js =
        SignatureGenerator.withDefaultLists()
            .generate(
                CrashDataJson.parse(
                    "{\"abort_message\": \"m\", \"js_exception\": {\"frames\": [{\"in_app\": \"yes\"}]}}"));
    assertThat(js.signature()).isEqualTo("Abort | m |");
    assertThat(js.notes())
        .contains(
            "SignatureGenerationRule: Rule failed: js_exception.frames[0].in_app: expected a"
                + " boolean or null");
    SignatureResult java =
        SignatureGenerator.withDefaultLists()
            .generate(
                CrashDataJson.parse(
                    "{\"java_exception\": {\"exception\": {\"values\": [{\"stacktrace\":"
                        + " {\"type\": 5}}]}}}"));
    assertThat(java.signature()).isEmpty();
    assertThat(java.notes())
        .containsExactly(
            "SignatureGenerationRule: Rule failed:"
                + " java_exception.exception.values[0].stacktrace.type: expected a string or"
                + " null, got int");
  }

  @Test
  void aMillionFramesCostASkipAndOnlyFortyAreKept() throws Exception {
    StringBuilder sb = new StringBuilder("{\"threads\": [{\"frames\": [");
    for (int i = 0; i < 1_000_000; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"function\":\"f").append(i % 10).append("\"}");
    }
    sb.append("]}]}");
    byte[] json = sb.toString().getBytes(StandardCharsets.UTF_8);
    org.assertj.core.api.Assertions.assertThat(json.length)
        .isLessThan(CrashDataJson.MAX_INPUT_BYTES);
    CrashData d =
        Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(20), () -> CrashDataJson.parse(new ByteArrayInputStream(json)));
    assertThat(d.threads().get(0).frames()).hasSize(CrashDataJson.MAX_FRAMES_KEPT);
    SignatureResult r = GENERATOR.generate(d);
    assertThat(r.signature()).isEqualTo("f0");
    assertThat(r.protoSignature().split(" \\| "))
        .hasSize(NativeSignatureTool.MAXIMUM_FRAMES_TO_CONSIDER);
  }

  @Test
  void inlinesCountTowardsTheFramesConsidered() throws Exception {
    String inlines = "[" + "{\"function\": \"i\"},".repeat(100) + "{\"function\": \"i\"}]";
    CrashData d =
        CrashDataJson.parse(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": "
                + inlines
                + "}, {\"function\": \"g\"}]}]}");
    assertThat(d.threads().get(0).frames().get(0).inlines()).hasSize(CrashDataJson.MAX_FRAMES_KEPT);
    SignatureResult r = GENERATOR.generate(d);
    assertThat(r.protoSignature()).doesNotContain("f").doesNotContain("g");
    assertThat(r.protoSignature().split(" \\| "))
        .hasSize(NativeSignatureTool.MAXIMUM_FRAMES_TO_CONSIDER);
  }

  @Test
  void absurdFunctionNamesCostBoundedWork() throws Exception {
    // 3 MB names built to be costly: nested templates, unclosed parentheses, and a name that
    // regexes starting with ".*" would scan repeatedly.
    String[] names = {
      "<".repeat(3_000_000),
      "(".repeat(3_000_000),
      "abort".repeat(600_000),
      "a<b, c>::d(e) const ".repeat(150_000),
      " ".repeat(3_000_000)
    };
    for (String name : names) {
      CrashData d =
          CrashData.builder()
              .addThread(
                  CrashThread.of(
                      List.of(
                          CrashFrame.builder().function(name).build(),
                          CrashFrame.builder().function(name).build())))
              .build();
      SignatureResult r =
          Assertions.assertTimeoutPreemptively(
              Duration.ofSeconds(20), () -> SignatureGenerator.withDefaultLists().generate(d));
      assertThat(r.signature().length()).isLessThanOrEqualTo(Rules.SIGNATURE_MAX_LENGTH);
      assertThat(r.protoSignature().length())
          .isLessThanOrEqualTo(2 * NativeSignatureTool.MAX_NORMALIZED_FRAME_CHARS + 3);
    }
  }

  @Test
  void aFunctionNameThatPythonCannotSplitFailsTheRuleAsSiggenDoes() throws Exception {
    // "const" loses its qualifier and leaves nothing to split: siggen raises IndexError, catches
    // it around the frame list and calls result.note(), which does not exist
    SignatureResult r =
        GENERATOR.generate(
            CrashDataJson.parse("{\"threads\": [{\"frames\": [{\"function\": \"const\"}]}]}"));
    assertThat(r.notes())
        .containsExactly(
            "SignatureGenerationRule: Rule failed: 'Result' object has no attribute 'note'");
    assertThat(r.signature()).isEmpty();
    assertThat(r.protoSignature()).isEmpty();
  }

  private static void assertInputError(String json, String message) {
    assertThatThrownBy(() -> CrashDataJson.parse(json))
        .isInstanceOf(SignatureInputException.class)
        .hasMessageContaining(message);
  }
}

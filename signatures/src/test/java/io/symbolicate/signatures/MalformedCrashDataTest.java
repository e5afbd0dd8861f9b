package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed crash data (null threads and frames, threads without frames, fields of the wrong JSON
 * type) is signed as siggen signs it: the rules that need the bad part fail with Python's message
 * in a note, the others still run. Expected values are siggen's output at the fixtures' commit
 * (mozilla-services/socorro-siggen@e559874, Python 3.11, with Socorro's lists), recorded by running
 * its SignatureGenerator on each input.
 */
class MalformedCrashDataTest {
  private static SignatureGenerator generator;

  @BeforeAll
  static void lists() throws Exception {
    generator = new SignatureGenerator(SignatureLists.load(SiggenFixtures.socorroLists()));
  }

  static Arguments row(String json, String signature, String proto, String... notes) {
    return Arguments.of(json, signature, proto, List.of(notes));
  }

  static Stream<Arguments> siggenCases() {
    return Stream.of(
        row(
            "{\"threads\": [null], \"abort_message\": \"###!!! ABORT: boom: file a.cpp:1\"}",
            "Abort | boom |",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'",
            "SigPrintableCharsOnly: unprintable characters removed"),
        row(
            "{\"threads\": [null]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'"),
        row(
            "{\"threads\": [{}], \"abort_message\": \"boom\"}",
            "Abort | boom | EMPTY: no frame data available",
            "",
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)"),
        row(
            "{\"threads\": [{\"frames\": null}], \"abort_message\": \"boom\"}",
            "Abort | boom |",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object is not iterable",
            "SigPrintableCharsOnly: unprintable characters removed"),
        row(
            "{\"threads\": [{\"frames\": []}]}",
            "EMPTY: no frame data available",
            "",
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)"),
        row(
            "{\"threads\": [{\"frames\": [null]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\"}, null]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": 5}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object is not iterable"),
        row(
            "{\"threads\": [{\"frames\": \"ab\"}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'str' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": \"\"}]}",
            "EMPTY: no frame data available",
            "",
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)"),
        row(
            "{\"threads\": [{\"frames\": {\"a\": 1}}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'str' object has no attribute 'get'"),
        row(
            "{\"threads\": [5], \"oom_allocation_size\": 0, \"reason\": \"STATUS_NO_MEMORY\"}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\":[{\"function\":\"f\"}]}, 5], \"crashing_thread\": 1}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'get'"),
        row(
            "{\"threads\": [null, {\"frames\":[{\"function\":\"RunWatchdog\"}]}], \"crashing_thread\": 1}",
            "RunWatchdog",
            "RunWatchdog",
            "SignatureRunWatchDog: Rule failed: 'NoneType' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": 5}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'endswith'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": [1]}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: unhashable type: 'list'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"file\": 7}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'split'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"file\": \"a.rs\"}]}], \"os\": \"Windows NT\"}",
            "f",
            "f"),
        row(
            "{\"threads\": [{\"frames\": [{\"module\": 3}]}], \"os\": \"Windows NT\"}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'lower'"),
        row(
            "{\"threads\": [{\"frames\": [{\"module\": 3}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'strip'"),
        row(
            "{\"threads\": [{\"frames\": [{\"module\": 0, \"offset\": \"0x0010\"}]}]}",
            "@0x10",
            "@0x10",
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": 5, \"file\": \"x.rs\"}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'endswith'"),
        row(
            "{\"threads\": [{\"frames\": [{\"file\": \"a/b.c\", \"line\": [1, 2]}]}]}",
            "b.c#[1, 2]",
            "b.c#[1, 2]"),
        row(
            "{\"threads\": [{\"frames\": [{\"unloaded_modules\": {\"a\": 1}}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'Result' object has no attribute 'note'"),
        row(
            "{\"threads\": [{\"frames\": [{\"unloaded_modules\": \"x\"}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'str' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": [{\"unloaded_modules\": 3}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object is not subscriptable"),
        row(
            "{\"threads\": [{\"frames\": [{\"unloaded_modules\": [3]}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": [{\"unloaded_modules\": [{\"module\": [1]}]}]}]}",
            "(unloaded [1])",
            "(unloaded [1])"),
        row("{\"threads\": [{\"frames\": [{\"offset\": [1]}]}]}", "@[1]", "@[1]"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": 3}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object is not iterable"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": \"x\"}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'str' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": [{\"function\": \"g\"}, null]}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'"),
        row("{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": {}}]}]}", "f", "f"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"line\": {\"a\": [1, \"x\"]}}]}]}",
            "f",
            "f"),
        row(
            "{\"threads\": [{\"last_error_value\": [\"x\"], \"frames\": [{\"function\": \"NS_ABORT_OOM\"}]}]}",
            "OOM | unknown | NS_ABORT_OOM",
            "NS_ABORT_OOM"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": [{\"function\": 3}]}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'endswith'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"inlines\": [{\"file\": 3}]}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'split'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\", \"module\": 3, \"inlines\": [{\"function\": \"g\"}]}]}], \"os\": \"Windows NT\"}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'int' object has no attribute 'lower'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": \"f\"}]}, null], \"crashing_thread\": -1, \"abort_message\": \"x\"}",
            "Abort | x |",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'",
            "SigPrintableCharsOnly: unprintable characters removed"),
        row(
            "{\"threads\": [null], \"crashing_thread\": 5}",
            "EMPTY: no frame data available",
            "",
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (5)"),
        row(
            "{\"threads\": [null], \"hang\": 1, \"reason\": \"EXCEPTION_STACK_OVERFLOW\", \"ipc_message_name\": \"M\"}",
            "hang: 1 | stackoverflow | | IPC_Message_Name=M",
            "",
            "SignatureGenerationRule: Rule failed: 'NoneType' object has no attribute 'get'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": true}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'bool' object has no attribute 'endswith'"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": false, \"module\": \"m.dll\"}]}]}",
            "m.dll",
            "m.dll"),
        row(
            "{\"threads\": [{\"frames\": [{\"function\": 0.5, \"file\": \"/x.rs\"}]}]}",
            "",
            "",
            "SignatureGenerationRule: Rule failed: 'float' object is not iterable"));
  }

  @ParameterizedTest
  @MethodSource("siggenCases")
  void signedAsSiggenSignsIt(String json, String signature, String proto, List<String> notes)
      throws Exception {
    SignatureResult r = generator.generate(CrashDataJson.parse(json));
    assertThat(r.signature()).as("signature").isEqualTo(signature);
    assertThat(r.protoSignature()).as("proto_signature").isEqualTo(proto);
    assertThat(r.notes()).as("notes").isEqualTo(notes);
  }

  /** siggen walks at most 40 frames: a null entry after them is never reached. */
  @ParameterizedTest
  @MethodSource("fortyFrames")
  void malformedEntriesPastFortyFramesAreNotReached(String last, String signature)
      throws Exception {
    List<String> frames = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      frames.add("{\"function\": \"f" + i + "\"}");
    }
    frames.add(last);
    SignatureResult r =
        generator.generate(
            CrashDataJson.parse(
                "{\"threads\": [{\"frames\": [" + String.join(", ", frames) + "]}]}"));
    assertThat(r.signature()).isEqualTo(signature);
    assertThat(r.notes()).isEmpty();
    assertThat(r.protoSignature()).startsWith("f0 | f1 | ").endsWith(" | f39");
  }

  static Stream<Arguments> fortyFrames() {
    return Stream.of(
        Arguments.of("null", "f0"),
        Arguments.of("5", "f0"),
        Arguments.of("{\"inlines\": 3}", "f0"));
  }
}

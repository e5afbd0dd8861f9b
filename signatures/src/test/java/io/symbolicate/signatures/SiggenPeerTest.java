package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The peer check: every test case of siggen recorded in ../shared/fixtures/siggen/derived/
 * (recorded_calls.jsonl: each API call with its inputs and outputs; parametrized_cases.json:
 * each parameter set) runs against our port and must give siggen's outputs. Rules and whole
 * stacks run with Socorro's lists from the fixtures (siggen's included lists at that commit).
 * Cases that do not fit our interfaces are in {@link #PEER_SPECIFIC} with the reason (and in
 * docs/signatures.md). The fixed parts of each siggen test (the Result signature a predicate test
 * starts from, the collapse() arguments, ...) are taken from siggen's test code, cited below.
 */
class SiggenPeerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String CONDITIONAL_SENTINEL =
      "the test installs a sentinel with a Python "
          + "condition (a lambda); list files cannot express one (siggen's own files neither), so "
          + "this case, where the condition holds, has no counterpart";

  /** Cases that do not fit our interfaces. Keys: "recorded <test id>#<n-th call>" or "param <test id>". */
  static final Map<String, String> PEER_SPECIFIC =
      Map.ofEntries(
          Map.entry(
              "recorded siggen/tests/test_rules.py::TestCSignatureTool::test_generate_4#1",
              CONDITIONAL_SENTINEL),
          Map.entry(
              "recorded siggen/tests/test_signature_generator.py::TestSignatureGenerator::test_failing_rule#0",
              "runs a user-supplied Python rule object that lacks predicate(); our rule set is fixed"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_int_or_none[-None]",
              "int_or_none serves convert_to_crash_data (Socorro processed crashes), which we do not read"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_int_or_none[5-5]",
              "int_or_none serves convert_to_crash_data (Socorro processed crashes), which we do not read"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_override_values[crash_data0-overrides0-expected0]",
              "override_values is a Python dict-path helper; CrashData.withCrashingThread is the one override the rules need"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_override_values[crash_data1-overrides1-expected1]",
              "override_values is a Python dict-path helper; CrashData.withCrashingThread is the one override the rules need"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_override_values[crash_data3-overrides3-expected3]",
              "override_values is a Python dict-path helper; CrashData.withCrashingThread is the one override the rules need"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_override_values[crash_data4-overrides4-expected4]",
              "override_values is a Python dict-path helper; CrashData.withCrashingThread is the one override the rules need"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_parse_crashid[foo-None]",
              "parse_crashid reads Crash Stats ids and URLs for siggen's fetch-data command, not signatures"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_parse_crashid[0b794045-87ec-4649-9ce1-73ec10191120-0b794045-87ec-4649-9ce1-73ec10191120]",
              "parse_crashid reads Crash Stats ids and URLs for siggen's fetch-data command, not signatures"),
          Map.entry(
              "param siggen/tests/test_utils.py::test_parse_crashid[bp-0b794045-87ec-4649-9ce1-73ec10191120-0b794045-87ec-4649-9ce1-73ec10191120]",
              "parse_crashid reads Crash Stats ids and URLs for siggen's fetch-data command, not signatures"));

  private static final AtomicInteger PASSED = new AtomicInteger();
  private static final AtomicInteger FAILED = new AtomicInteger();
  private static final Set<String> EXCLUDED_SEEN = ConcurrentHashMap.newKeySet();

  private static SignatureLists socorro;

  /** TestCSignatureTool.setup_config_c_sig_tool()'s defaults (test_rules.py), for its unconfigured calls. */
  private static SignatureLists cToolTestLists;

  @BeforeAll
  static void lists() throws SignatureListException {
    socorro = SignatureLists.load(SiggenFixtures.socorroLists());
    cToolTestLists =
        SignatureLists.of(
            Map.of(
                SignatureLists.IRRELEVANT, List.of("ignored1"),
                SignatureLists.PREFIX, List.of("pre1", "pre2"),
                SignatureLists.LINE_NUMBERS, List.of("fnNeedNumber"),
                SignatureLists.SENTINELS, List.of("sentinel")));
  }

  @AfterAll
  static void report() {
    System.out.printf(
        "siggen peer check: %d cases passed, %d failed, %d peer-specific (excluded)%n",
        PASSED.get(), FAILED.get(), EXCLUDED_SEEN.size());
  }

  @TestFactory
  Stream<DynamicTest> recordedCalls() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    Map<String, Integer> ordinal = new HashMap<>();
    for (String line : Files.readAllLines(SiggenFixtures.derived("recorded_calls.jsonl"))) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode call = JSON.readTree(line);
      String test = call.get("test").asText();
      int n = ordinal.merge(test, 1, Integer::sum) - 1;
      String key = "recorded " + test + "#" + n;
      tests.add(caseTest(key, () -> checkRecorded(call)));
    }
    assertThat(tests).hasSizeGreaterThan(100);
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> parametrizedCases() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : JSON.readTree(SiggenFixtures.derived("parametrized_cases.json").toFile())) {
      String test = c.get("test").asText();
      tests.add(caseTest("param " + test, () -> checkParametrized(test, c.get("params"))));
    }
    assertThat(tests).hasSizeGreaterThan(100);
    return tests.stream();
  }

  /** Every peer-specific key names a case that exists, so the list cannot rot. */
  @Test
  void everyPeerSpecificCaseExists() throws IOException {
    Set<String> keys = new HashSet<>();
    Map<String, Integer> ordinal = new HashMap<>();
    for (String line : Files.readAllLines(SiggenFixtures.derived("recorded_calls.jsonl"))) {
      if (!line.isBlank()) {
        String test = JSON.readTree(line).get("test").asText();
        keys.add("recorded " + test + "#" + (ordinal.merge(test, 1, Integer::sum) - 1));
      }
    }
    for (JsonNode c : JSON.readTree(SiggenFixtures.derived("parametrized_cases.json").toFile())) {
      keys.add("param " + c.get("test").asText());
    }
    assertThat(keys).containsAll(PEER_SPECIFIC.keySet());
  }

  private interface Check {
    void run() throws Exception;
  }

  private static DynamicTest caseTest(String key, Check check) {
    return DynamicTest.dynamicTest(
        key,
        () -> {
          if (PEER_SPECIFIC.containsKey(key)) {
            EXCLUDED_SEEN.add(key);
            return;
          }
          try {
            check.run();
            PASSED.incrementAndGet();
          } catch (Throwable t) {
            FAILED.incrementAndGet();
            throw t;
          }
        });
  }

  // ---------------------------------------------------------------- recorded calls

  private static void checkRecorded(JsonNode call) throws Exception {
    String kind = call.get("kind").asText();
    JsonNode args = call.get("args");
    JsonNode ret = call.get("return");
    switch (kind) {
      case "c_create_frame_list" -> {
        CrashData data =
            crashData(
                JSON.createObjectNode().set("threads", JSON.createArrayNode().add(args.get(0))));
        List<String> frames =
            new NativeSignatureTool(cToolTestLists)
                .createFrameList(data.threads().get(0), false, new ArrayList<>());
        assertThat(frames).isEqualTo(strings(ret));
      }
      case "c_normalize_frame" -> assertThat(normalizeFrame(args)).isEqualTo(ret.asText());
      case "cpp_function" ->
          assertThat(
                  new NativeSignatureTool(cToolTestLists)
                      .normalizeCppFunction(args.get(0).asText(), py(args.get(1))))
              .isEqualTo(ret.asText());
      case "rust_function" ->
          assertThat(
                  new NativeSignatureTool(cToolTestLists)
                      .normalizeRustFunction(args.get(0).asText(), py(args.get(1))))
              .isEqualTo(ret.asText());
      case "c_generate" -> {
        NativeSignatureTool tool = new NativeSignatureTool(toolConfig(call.get("tool_config")));
        NativeSignatureTool.Generated g = tool.generate(strings(args.get(0)), null);
        assertGenerated(g, ret);
      }
      case "java_generate" ->
          assertGenerated(
              JavaSignatureTool.fromStackTrace(
                  args.get(0).asText(), call.get("kwargs").get("delimiter").asText()),
              ret);
      case "java_exception_generate" ->
          assertGenerated(JavaSignatureTool.fromException(javaException(args.get(0))), ret);
      case "java_exception_normalize_frame" ->
          assertThat(JavaSignatureTool.normalizeFrame(javaFrame(args.get(0))))
              .isEqualTo(ret.asText());
      case "rule_predicate", "rule_action" -> checkRule(call, kind.equals("rule_predicate"));
      case "end_to_end" -> {
        Result r = new SignatureGenerator(socorro).run(crashData(args.get(0)), new Result());
        assertResult(r, ret);
        assertThat(includedDebug(r.debugLog)).isEqualTo(strings(ret.get("debug_log")));
      }
      default -> throw new AssertionError("unknown kind " + kind);
    }
  }

  private static String normalizeFrame(JsonNode args) {
    List<String> unloaded = new ArrayList<>();
    if (args.size() > 6 && args.get(6).isArray()) {
      for (JsonNode m : args.get(6)) {
        unloaded.add(m.hasNonNull("module") ? m.get("module").asText() : null);
      }
    }
    NativeSignatureTool tool = new NativeSignatureTool(cToolTestLists);
    String module = text(args, 0);
    String function = text(args, 1);
    String file = text(args, 2);
    Object line = args.size() > 3 ? py(args.get(3)) : null;
    Object moduleOffset = args.size() > 4 ? py(args.get(4)) : null;
    Object offset = args.size() > 5 ? py(args.get(5)) : null;
    String plain =
        tool.normalizeFrame(module, function, file, line, moduleOffset, offset, unloaded);
    if (function != null) {
      // the same with the function's forms kept between frames (the stream keeps them with a
      // cached page's name): made and kept the first time, read the second, and a kept form
      // never carries the line of the frame that made it; in a holder, or in the page name's
      // own slot (the stream's way)
      for (Object forms : List.of(new NameForms(), new KeptSlot())) {
        for (int i = 0; i < 2; i++) {
          assertThat(
                  tool.normalizeFrame(
                      module, function, forms, file, line, moduleOffset, offset, unloaded))
              .isEqualTo(plain);
        }
        Object otherLine = 987_654L;
        assertThat(
                tool.normalizeFrame(
                    module, function, forms, file, otherLine, moduleOffset, offset, unloaded))
            .isEqualTo(
                tool.normalizeFrame(
                    module, function, file, otherLine, moduleOffset, offset, unloaded));
      }
    }
    return plain;
  }

  private static String text(JsonNode args, int i) {
    return args.size() > i && !args.get(i).isNull() ? args.get(i).asText() : null;
  }

  /** The lists a TestCSignatureTool test installed; sentinels with a Python condition are dropped. */
  private static SignatureLists toolConfig(JsonNode config) throws SignatureListException {
    List<String> sentinels = new ArrayList<>();
    for (JsonNode s : config.get("signature_sentinels")) {
      if (s.isTextual()) {
        sentinels.add(s.asText());
      }
    }
    return SignatureLists.of(
        Map.of(
            SignatureLists.IRRELEVANT, List.of(config.get("irrelevant_signature_re").asText()),
            SignatureLists.PREFIX, List.of(config.get("prefix_signature_re").asText()),
            SignatureLists.LINE_NUMBERS,
                List.of(config.get("signatures_with_line_numbers_re").asText()),
            SignatureLists.SENTINELS, sentinels));
  }

  private static void assertGenerated(NativeSignatureTool.Generated g, JsonNode ret) {
    assertThat(g.signature()).isEqualTo(ret.get(0).asText());
    assertThat(g.notes()).isEqualTo(strings(ret.get(1)));
    assertThat(g.debugNotes()).isEqualTo(strings(ret.get(2)));
  }

  private static final Map<String, Supplier<Rule>> RULES = new LinkedHashMap<>();

  static {
    RULES.put("SignatureGenerationRule", () -> new SignatureGenerationRule(socorro));
    RULES.put(
        "SignatureRunWatchDog",
        () -> new Rules.SignatureRunWatchDog(new SignatureGenerationRule(socorro)));
    RULES.put("StackwalkerErrorSignatureRule", Rules.StackwalkerErrorSignatureRule::new);
    RULES.put("BadHardware", Rules.BadHardware::new);
    RULES.put("OOMSignature", Rules.OOMSignature::new);
    RULES.put("AbortSignature", Rules.AbortSignature::new);
    RULES.put("SignatureShutdownTimeout", Rules.SignatureShutdownTimeout::new);
    RULES.put("SignatureIPCChannelError", Rules.SignatureIPCChannelError::new);
    RULES.put("SignatureIPCMessageName", Rules.SignatureIPCMessageName::new);
    RULES.put("StackOverflowSignature", Rules.StackOverflowSignature::new);
    RULES.put("HungProcess", Rules.HungProcess::new);
    RULES.put("SigPrintableCharsOnly", Rules.SigPrintableCharsOnly::new);
    RULES.put("SigFixWhitespace", Rules.SigFixWhitespace::new);
    RULES.put("SigTruncate", Rules.SigTruncate::new);
  }

  private static void checkRule(JsonNode call, boolean predicate) throws Exception {
    String api = call.get("api").asText();
    String ruleName = api.substring(0, api.indexOf('.'));
    Supplier<Rule> factory = RULES.get(ruleName);
    assertThat(factory).as("rule " + ruleName).isNotNull();
    Rule rule = factory.get();
    assertThat(rule.name()).isEqualTo(ruleName);
    CrashData data = crashData(call.get("args").get(0));
    JsonNode before = call.get("result_before");
    Result result = new Result(before.get("signature").asText());
    result.notes.addAll(strings(before.get("notes")));
    if (predicate) {
      assertThat(rule.predicate(data, result)).isEqualTo(call.get("return").asBoolean());
    } else {
      assertThat(call.get("return").asBoolean()).isTrue();
      SignatureGenerator.runRule(
          new Rule() {
            @Override
            String name() {
              return rule.name();
            }

            @Override
            void action(CrashData d, Result r) {
              rule.action(d, r);
            }
          },
          data,
          result);
    }
    assertResult(result, call.get("result_after"));
  }

  private static void assertResult(Result result, JsonNode after) {
    assertThat(result.signature).isEqualTo(after.get("signature").asText());
    assertThat(result.notes).isEqualTo(strings(after.get("notes")));
    JsonNode extra = after.get("extra");
    if (extra != null) {
      assertThat(result.protoSignature)
          .isEqualTo(extra.has("proto_signature") ? extra.get("proto_signature").asText() : null);
      assertThat(result.normalizedFrames)
          .isEqualTo(
              extra.has("normalized_frames") ? strings(extra.get("normalized_frames")) : null);
    }
  }

  /** siggen's tests ran on its included lists; ours were read from the same files in a directory. */
  private static List<String> includedDebug(List<String> debug) {
    List<String> out = new ArrayList<>();
    for (String d : debug) {
      out.add(d.replace(socorro.describe(), "using included signature lists"));
    }
    return out;
  }

  // ---------------------------------------------------------------- parametrized cases

  private static void checkParametrized(String test, JsonNode p) throws Exception {
    // "path::Class::function[params]": the parameters may hold "::" and "[" themselves
    String base = test.contains("[") ? test.substring(0, test.indexOf('[')) : test;
    String function = base.substring(base.lastIndexOf("::") + 2);
    String owner = base.substring(0, base.lastIndexOf("::"));
    owner = owner.substring(Math.max(owner.lastIndexOf(':'), owner.lastIndexOf('/')) + 1);
    switch (owner + "." + function) {
      case "test_rules.py.test_fix_missing_module" -> {
        JsonNode f = p.get("frame");
        assertThat(NativeSignatureTool.fixMissingModule(str(f, "file"), str(f, "function")))
            .isEqualTo(
                p.get("expected_function").isNull() ? null : p.get("expected_function").asText());
      }
      case "TestCSignatureTool.test_normalize_frame" ->
          assertThat(normalizeFrame(p.get("args"))).isEqualTo(p.get("expected").asText());
      case "TestCSignatureTool.test_normalize_cpp_function" ->
          assertThat(
                  new NativeSignatureTool(cToolTestLists)
                      .normalizeCppFunction(p.get("function").asText(), py(p.get("line"))))
              .isEqualTo(p.get("expected").asText());
      case "TestCSignatureTool.test_normalize_rust_function" ->
          assertThat(
                  new NativeSignatureTool(cToolTestLists)
                      .normalizeRustFunction(p.get("function").asText(), py(p.get("line"))))
              .isEqualTo(p.get("expected").asText());
      case "TestJavaExceptionSignatureTool.test_bad_data" -> {
        // test_rules.py asserts the EMPTY signature and its note for every bad value
        NativeSignatureTool.Generated g =
            JavaSignatureTool.fromException(javaException(p.get("value")));
        assertThat(g.signature()).isEqualTo("EMPTY: Java exception not in expected format");
        assertThat(g.notes())
            .containsExactly("JavaExceptionSignatureTool: value not in expected format");
      }
      case "TestJavaExceptionSignatureTool.test_normalize_frame" ->
          assertThat(JavaSignatureTool.normalizeFrame(javaFrame(p.get("frame"))))
              .isEqualTo(p.get("expected").asText());
      case "TestJavaExceptionSignatureTool.test_generate" -> {
        // the test wraps the parameter as {"exception": {"values": [stacktrace]}}
        ObjectNode wrapped = JSON.createObjectNode();
        wrapped.set(
            "exception",
            JSON.createObjectNode().set("values", JSON.createArrayNode().add(p.get("stacktrace"))));
        assertThat(JavaSignatureTool.fromException(javaException(wrapped)).signature())
            .isEqualTo(p.get("expected").asText());
      }
      case "TestStackOverflowSignature.test_predicate_reason" ->
          assertPredicate(new Rules.StackOverflowSignature(), field("reason", p.get("reason")), p);
      case "TestOOMSignature.test_predicate_error_commitment_limit" ->
          assertPredicate(new Rules.OOMSignature(), p.get("crashdata"), p);
      case "TestOOMSignature.test_predicate_reason" ->
          assertPredicate(new Rules.OOMSignature(), field("reason", p.get("reason")), p);
      case "TestOOMSignature.test_predicate_js_large_allocation_failure" ->
          assertPredicate(
              new Rules.OOMSignature(), field("js_large_allocation_failure", p.get("value")), p);
      case "TestBadHardware.test_predicate_reason" ->
          assertPredicate(new Rules.BadHardware(), field("reason", p.get("reason")), p);
      case "TestAbortSignature.test_action_success_remove_unwanted_parts" -> {
        // the test starts from the signature "hello"
        Result r = new Result("hello");
        new Rules.AbortSignature().action(crashData(field("abort_message", p.get("abort_msg"))), r);
        assertThat(r.signature).isEqualTo(p.get("expected").asText());
      }
      case "TestSigPrintableCharsOnly.test_whitespace_fixing" -> {
        Result r = new Result(p.get("signature").asText());
        new Rules.SigPrintableCharsOnly().action(CrashData.builder().build(), r);
        assertThat(r.signature).isEqualTo(p.get("expected").asText());
        if (!p.get("signature").asText().equals(p.get("expected").asText())) {
          assertThat(r.notes)
              .containsExactly("SigPrintableCharsOnly: unprintable characters removed");
        }
      }
      case "TestSigFixWhitespace.test_whitespace_fixing" -> {
        Result r = new Result(p.get("signature").asText());
        new Rules.SigFixWhitespace().action(CrashData.builder().build(), r);
        assertThat(r.signature).isEqualTo(p.get("expected").asText());
      }
      case "test_utils.py.test_get_crashing_thread" ->
          assertThat(crashData(p.get("crash_data")).crashingThread)
              .isEqualTo(BigInteger.valueOf(p.get("expected").asLong()));
      case "test_utils.py.test_drop_bad_characters" ->
          assertThat(FrameText.dropBadCharacters(p.get("text").asText()))
              .isEqualTo(p.get("expected").asText());
      case "test_utils.py.test_parse_source_file" ->
          assertThat(FrameText.parseSourceFile(str(p, "source_file")))
              .isEqualTo(str(p, "expected"));
      case "test_utils.py.test_collapse" ->
          assertThat(
                  FrameText.collapse(
                      p.get("function").asText(),
                      '<',
                      '>',
                      "<T>",
                      // test_utils.py's fixed arguments
                      List.of("name omitted", "IPC::ParamTraits", " as ")))
              .isEqualTo(p.get("expected").asText());
      case "test_utils.py.test_drop_prefix_and_return_type" ->
          assertThat(FrameText.dropPrefixAndReturnType(p.get("function").asText()))
              .isEqualTo(p.get("expected").asText());
      case "test_utils.py.test_strip_leading_zeros" ->
          assertThat(FrameText.stripLeadingZeros(py(p.get("text"))))
              .isEqualTo(py(p.get("expected")));
      default -> throw new AssertionError("no mapping for " + owner + "." + function);
    }
  }

  /** Predicate tests start from the signature "Text" (test_rules.py). */
  private static void assertPredicate(Rule rule, JsonNode crashData, JsonNode p) throws Exception {
    assertThat(rule.predicate(crashData(crashData), new Result("Text")))
        .isEqualTo(p.get("expected").asBoolean());
  }

  // ---------------------------------------------------------------- conversions

  private static JsonNode field(String name, JsonNode value) {
    return JSON.createObjectNode().set(name, value);
  }

  private static CrashData crashData(JsonNode dict) throws Exception {
    return CrashDataJson.parse(JSON.writeValueAsString(dict));
  }

  private static JavaException javaException(JsonNode value) throws Exception {
    return crashData(
            field("java_exception", value == null ? JsonNodeFactory.instance.nullNode() : value))
        .javaException;
  }

  private static JavaFrame javaFrame(JsonNode f) {
    return new JavaFrame(str(f, "module"), str(f, "function"), str(f, "filename"));
  }

  private static String str(JsonNode node, String key) {
    return node.hasNonNull(key) ? node.get(key).asText() : null;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** A JSON scalar as CrashDataJson keeps it. */
  private static Object py(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isTextual()) {
      return n.asText();
    }
    if (n.isBoolean()) {
      return n.asBoolean();
    }
    if (n.isIntegralNumber()) {
      return n.canConvertToLong() ? (Object) n.asLong() : n.bigIntegerValue();
    }
    return n.asDouble();
  }
}

package io.symbolicate.symbols.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of ../shared/fixtures/jvm/cases.json, in the comparison mode the case names. Text
 * traces run in the SENTRY style (rust-proguard's presentation). For compare="exact" the output
 * must be byte-identical; for "trim"/"trim_end" we compare line by line after stripping each
 * line's leading whitespace (the relaxed check the fixture conventions suggest, because
 * rust-proguard re-indents remapped frames to four spaces) and trimming the whole text as the
 * case says.
 */
class JvmFixturesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Retracer> CACHE = new HashMap<>();

  private static Path dir() {
    return SharedFixtures.fixtures("jvm");
  }

  private static JsonNode cases() throws IOException {
    return JSON.readTree(dir().resolve("cases.json").toFile()).get("cases");
  }

  static Retracer retracer(String mapping) {
    return CACHE.computeIfAbsent(
        mapping,
        m -> {
          try {
            JvmTable t = JvmPages.fromMapping(Files.readAllBytes(dir().resolve(m)));
            return Retracer.inMemory(t);
          } catch (IOException e) {
            throw new RuntimeException(e);
          }
        });
  }

  @Test
  void corpusHasAllCases() throws IOException {
    assertThat(cases().size()).isEqualTo(46);
  }

  @TestFactory
  Stream<DynamicTest> cases_json() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases()) {
      tests.add(DynamicTest.dynamicTest(c.get("id").asText(), () -> run(c)));
    }
    return tests.stream();
  }

  private static void run(JsonNode c) {
    Retracer r = retracer(c.get("mapping").asText());
    String kind = c.get("kind").asText();
    check(r, kind, c);
    if (c.has("more")) {
      for (JsonNode m : c.get("more")) {
        check(r, m.has("kind") ? m.get("kind").asText() : kind, m);
      }
    }
  }

  private static void check(Retracer r, String kind, JsonNode c) {
    switch (kind) {
      case "stacktrace" -> stacktrace(r, c);
      case "frame" -> frame(r, c);
      case "class" ->
          assertThat(r.remapClass(c.get("input").asText())).isEqualTo(c.get("expected").asText());
      case "summary" -> summary(r, c.get("expected"));
      case "sentry_frames" -> sentryFrames(r, c);
      default -> throw new AssertionError("unknown case kind " + kind);
    }
  }

  private static void stacktrace(Retracer r, JsonNode c) {
    String input = c.get("input").asText();
    String expected = c.get("expected").asText();
    String actual = new TraceRetracer(r, TraceRetracer.Style.SENTRY).retrace(input);
    String compare = c.get("compare").asText();
    switch (compare) {
      case "exact" -> assertThat(actual).isEqualTo(expected);
      case "trim" -> assertThat(relaxed(actual.strip())).isEqualTo(relaxed(expected.strip()));
      case "trim_end" ->
          assertThat(relaxed(actual.stripTrailing())).isEqualTo(relaxed(expected.stripTrailing()));
      default -> throw new AssertionError("unknown compare mode " + compare);
    }
  }

  /** Lines with their leading whitespace removed. */
  private static List<String> relaxed(String s) {
    List<String> out = new ArrayList<>();
    for (String l : s.split("\n", -1)) {
      out.add(l.stripLeading());
    }
    return out;
  }

  private static void frame(Retracer r, JsonNode c) {
    JsonNode in = c.get("input");
    FrameResult res =
        r.retrace(in.get("class").asText(), in.get("method").asText(), in.get("line").asInt());
    JsonNode exp = c.get("expected");
    List<RetracedFrame> frames =
        res.status() == FrameResult.Status.MAPPED ? res.frames() : List.of();
    assertThat(frames).as("frame count").hasSize(exp.size());
    for (int i = 0; i < exp.size(); i++) {
      JsonNode e = exp.get(i);
      RetracedFrame f = frames.get(i);
      if (e.has("class")) {
        assertThat(f.className()).as("class of frame " + i).isEqualTo(e.get("class").asText());
      }
      if (e.has("method")) {
        assertThat(f.method()).as("method of frame " + i).isEqualTo(e.get("method").asText());
      }
      if (e.has("line")) {
        assertThat(f.line()).as("line of frame " + i).isEqualTo(e.get("line").asInt());
      }
      if (e.has("file")) {
        assertThat(f.sentryFile()).as("file of frame " + i).isEqualTo(e.get("file").asText());
      }
    }
  }

  private static void summary(Retracer r, JsonNode e) {
    JvmHeader h = r.header();
    assertThat(h.compiler()).isEqualTo(e.get("compiler").asText());
    assertThat(h.compilerVersion()).isEqualTo(e.get("compiler_version").asText());
    assertThat(h.minApi()).isEqualTo(e.get("min_api").asInt());
    assertThat(h.classCount()).isEqualTo(e.get("class_count").asInt());
    assertThat(h.methodLineCount()).isEqualTo(e.get("method_count").asInt());
  }

  private static void sentryFrames(Retracer r, JsonNode c) {
    JvmEventRemapper m = new JvmEventRemapper(r);
    JsonNode in = c.get("input");
    JsonNode exp = c.get("expected");
    JvmEventRemapper.ExceptionInfo ex =
        m.remapException(
            new JvmEventRemapper.ExceptionInfo(
                in.get("exception").get("type").asText(),
                in.get("exception").get("module").asText()));
    assertThat(ex.type()).isEqualTo(exp.get("exception").get("type").asText());
    assertThat(ex.module()).isEqualTo(exp.get("exception").get("module").asText());
    List<JvmEventRemapper.Frame> frames = new ArrayList<>();
    for (JsonNode f : in.get("frames")) {
      frames.add(
          new JvmEventRemapper.Frame(
              f.get("module").asText(),
              f.get("function").asText(),
              f.has("filename") ? f.get("filename").asText() : null,
              f.get("lineno").asInt(),
              f.get("index").asInt()));
    }
    List<JvmEventRemapper.Frame> out = m.remapFrames(frames);
    JsonNode ef = exp.get("frames");
    assertThat(out).hasSize(ef.size());
    for (int i = 0; i < ef.size(); i++) {
      JsonNode e = ef.get(i);
      JvmEventRemapper.Frame f = out.get(i);
      assertThat(f.function()).as("function " + i).isEqualTo(e.get("function").asText());
      assertThat(f.module()).as("module " + i).isEqualTo(e.get("module").asText());
      assertThat(f.lineno()).as("lineno " + i).isEqualTo(e.get("lineno").asInt());
      assertThat(f.index()).as("index " + i).isEqualTo(e.get("index").asInt());
      assertThat(f.filename())
          .as("filename " + i)
          .isEqualTo(e.has("filename") ? e.get("filename").asText() : null);
    }
  }
}

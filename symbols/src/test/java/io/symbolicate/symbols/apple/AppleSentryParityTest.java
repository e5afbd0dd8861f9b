package io.symbolicate.symbols.apple;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sentry's Symbolicator on the same Apple crash report ({@code symbolicator/tests/fixtures/
 * apple_crash_report.txt}, its snapshots in {@code derived/}): our parse and conversion yield the
 * modules it lists and place every frame in the module it places it in, at the same
 * module-relative address; crash reason, details, time, system info and registers agree.
 * Where we differ by design: our {@code imageSize} is the true size, Sentry's one less
 * ({@link NativeCrash.Module#sentryImageSize}); our debug file is the path's last segment and our
 * debug id Breakpad's (the symbol-store key), Sentry's are the path and the UUID, and we check
 * the key against the Breakpad-layout location Sentry itself tries.
 */
class AppleSentryParityTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path DIR = SharedFixtures.fixtures("apple-crash");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "integration__symbolication__apple_crash_report.json",
        "symbolicator__endpoints__applecrashreport__tests__basic.json"
      })
  void modulesFramesAndHeaderAsSymbolicator(String snapshot) throws Exception {
    JsonNode sentry = MAPPER.readTree(DIR.resolve("derived").resolve(snapshot).toFile());
    AppleCrashReport report =
        AppleCrashReportParser.parse(
            DIR.resolve("symbolicator/tests/fixtures/apple_crash_report.txt"));
    NativeCrash crash = AppleNativeConverter.convert(report);

    // modules: same count, order and identity
    JsonNode modules = sentry.get("modules");
    assertThat(crash.modules()).hasSize(modules.size());
    for (int i = 0; i < modules.size(); i++) {
      JsonNode s = modules.get(i);
      NativeCrash.Module m = crash.modules().get(i);
      assertThat(m.index()).isEqualTo(i);
      assertThat(m.type()).isEqualTo(s.get("type").asText());
      assertThat(m.codeFile()).isEqualTo(s.get("code_file").asText());
      assertThat(m.codeId()).isEqualTo(s.get("code_id").asText());
      assertThat(m.uuid()).isEqualTo(s.get("debug_id").asText());
      assertThat(AppleReportJson.hex(m.imageAddr())).isEqualTo(s.get("image_addr").asText());
      assertThat(m.sentryImageSize()).isEqualTo(s.get("image_size").asLong());
      assertThat(m.imageSize()).isEqualTo(s.get("image_size").asLong() + 1);
      String debugFile = s.get("debug_file").asText();
      assertThat(m.debugFile()).isEqualTo(debugFile.substring(debugFile.lastIndexOf('/') + 1));
      assertThat(m.debugId())
          .isEqualTo(s.get("debug_id").asText().replace("-", "").toUpperCase(Locale.ROOT) + "0");
      // the symbol store accepts the key as it is
      assertThat(DebugIdentifiers.nativeModule(m.debugFile(), m.debugId()).key())
          .isEqualTo(m.debugFile() + "/" + m.debugId());
      if (s.has("candidates")) {
        List<String> locations = new ArrayList<>();
        s.get("candidates").forEach(c -> locations.add(c.get("location").asText()));
        assertThat(locations)
            .anyMatch(
                l ->
                    l.endsWith(
                        "/" + m.debugFile() + "/" + m.debugId() + "/" + m.debugFile() + ".sym"));
      }
    }

    // frames: in Sentry's module (its package is the code file) at address - image_addr, or in none
    JsonNode stacks = sentry.get("stacktraces");
    assertThat(crash.threads()).hasSize(stacks.size());
    int placed = 0;
    int unplaced = 0;
    for (int t = 0; t < stacks.size(); t++) {
      JsonNode st = stacks.get(t);
      NativeCrash.Thread thread = crash.threads().get(t);
      AppleThread parsed = report.threads().get(t);
      assertThat(thread.id()).isEqualTo(st.get("thread_id").asLong());
      assertThat(thread.crashed()).isEqualTo(st.get("is_requesting").asBoolean());
      assertThat(thread.name())
          .isEqualTo(st.has("thread_name") ? st.get("thread_name").asText() : null);
      JsonNode frames = st.get("frames");
      assertThat(thread.frames()).hasSize(frames.size());
      for (int f = 0; f < frames.size(); f++) {
        JsonNode sf = frames.get(f);
        NativeCrash.Frame frame = thread.frames().get(sf.get("original_index").asInt());
        assertThat(AppleReportJson.hex(frame.instructionAddr()))
            .isEqualTo(sf.get("instruction_addr").asText());
        if (sf.get("status").asText().equals("unknown_image")) {
          assertThat(frame.moduleIndex()).as("thread %d frame %d", t, f).isEqualTo(-1);
          assertThat(parsed.frames().get(f).module())
              .isEqualTo(sf.has("package") ? sf.get("package").asText() : null);
          unplaced++;
        } else {
          NativeCrash.Module m = crash.modules().get(frame.moduleIndex());
          assertThat(m.codeFile()).isEqualTo(sf.get("package").asText());
          assertThat(frame.moduleOffset()).isEqualTo(frame.instructionAddr() - m.imageAddr());
          placed++;
        }
      }
      if (st.has("registers")) {
        assertThat(thread.registers()).hasSize(st.get("registers").size());
        st.get("registers")
            .fields()
            .forEachRemaining(
                e ->
                    assertThat(AppleReportJson.hex(thread.registers().get(e.getKey())))
                        .isEqualTo(e.getValue().asText()));
      } else {
        assertThat(thread.registers()).isNull();
      }
    }
    assertThat(placed).isPositive();
    assertThat(unplaced).isPositive();

    assertThat(crash.crashReason()).isEqualTo(sentry.get("crash_reason").asText());
    assertThat(crash.crashDetails()).isEqualTo(sentry.get("crash_details").asText());
    assertThat(crash.timestampSeconds()).isEqualTo(sentry.get("timestamp").asLong());
    JsonNode sys = sentry.get("system_info");
    assertThat(crash.systemInfo())
        .isEqualTo(
            new NativeCrash.SystemInfo(
                sys.get("os_name").asText(),
                sys.get("os_version").asText(),
                sys.get("os_build").asText(),
                sys.get("device_model").asText(),
                sys.get("cpu_arch").asText()));
    assertThat(crash.arch()).isEqualTo("amd64");
  }
}

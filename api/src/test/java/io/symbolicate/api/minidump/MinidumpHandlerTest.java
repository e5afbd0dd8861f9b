package io.symbolicate.api.minidump;

import static io.symbolicate.api.FakeLoaderSymbols.form;
import static io.symbolicate.api.FakeLoaderSymbols.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.FakeLoaderSymbols;
import io.symbolicate.api.JsonDiffs;
import io.symbolicate.api.sentry.SymbolicatorNative;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /minidump} without a server, on Symbolicator's Windows dump ({@code
 * ../shared/fixtures/minidump/symbolicator}): with its crash.exe symbols the answer is its
 * integration snapshot, field by field; without symbols, its endpoint snapshot.
 */
class MinidumpHandlerTest {
  static final Path ROOT = SharedFixtures.fixtures("minidump").resolve("symbolicator");
  static final Path SNAPS = ROOT.resolve("crates/symbolicator-native/tests/integration/snapshots");
  static final String CRASH_KEY = "crash.pdb/3249D99D0C4049318610F4E4FB0B69361";
  static final String B = "dumpdumpdump";

  static FakeLoaderSymbols withCrashSymbols() throws Exception {
    return new FakeLoaderSymbols()
        .with(
            CRASH_KEY,
            NativeSymbols.convert(
                ROOT.resolve(
                    "tests/fixtures/symbols/crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb")));
  }

  static JsonNode answer(FakeLoaderSymbols symbols, String dump) throws Exception {
    byte[] body =
        form(
            B,
            new Object[] {
              "upload_file_minidump",
              dump,
              Files.readAllBytes(ROOT.resolve("tests/fixtures/" + dump))
            },
            new Object[] {"sources", null, "[]"});
    return new MinidumpHandler(DetachedSymbolication.defaults())
        .answer(
            parse(body, B),
            "global",
            System.currentTimeMillis() + 5000,
            symbols.symbolicator(),
            ApiSettings.defaults());
  }

  @Test
  void windowsDumpWithSymbolsAnswersTheIntegrationSnapshot() throws Exception {
    FakeLoaderSymbols symbols = withCrashSymbols();
    JsonNode got = answer(symbols, "windows.dmp");
    JsonNode snap =
        Snapshots.read(SNAPS.resolve("integration__process_minidump__minidump_windows.snap"));
    ((ObjectNode) got).remove("status"); // the result, not the response
    // where Symbolicator's sources looked for each file: peer-specific (its source layout), we list
    // none
    snap.get("modules").forEach(m -> ((ObjectNode) m).remove("candidates"));
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
    // the walk asked for crash.exe's symbols, and for those of the other modules it walked through
    assertThat(symbols.requested).extracting(r -> r.key()).contains(CRASH_KEY);
  }

  @Test
  void windowsDumpWithoutSymbolsAnswersTheEndpointSnapshot() throws Exception {
    JsonNode got = answer(new FakeLoaderSymbols(), "windows.dmp");
    JsonNode snap =
        Snapshots.read(
            ROOT.resolve(
                "crates/symbolicator/src/endpoints/snapshots/symbolicator__endpoints__minidump__tests__basic.snap"));
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  /** Linux and macOS dumps without symbols: every frame by stack scanning, every module missing or unused. */
  @ParameterizedTest
  @ValueSource(strings = {"linux", "macos"})
  void linuxAndMacDumpsWithoutSymbolsAnswerTheirSnapshots(String os) throws Exception {
    JsonNode got = answer(new FakeLoaderSymbols(), os + ".dmp");
    JsonNode snap =
        Snapshots.read(SNAPS.resolve("integration__process_minidump__minidump_" + os + ".snap"));
    ((ObjectNode) got).remove("status");
    snap.get("modules").forEach(m -> ((ObjectNode) m).remove("candidates"));
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  @Test
  void badDumpsGetTheReadersReason() throws Exception {
    byte[] body =
        form(B, new Object[] {"upload_file_minidump", "x.dmp", "MDMP but not really a dump"});
    assertThatThrownBy(
            () ->
                new MinidumpHandler(DetachedSymbolication.defaults())
                    .answer(
                        parse(body, B),
                        "global",
                        System.currentTimeMillis() + 1000,
                        new FakeLoaderSymbols().symbolicator(),
                        ApiSettings.defaults()))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("upload_file_minidump: ")
        .extracting(e -> ((ApiException) e).status())
        .isEqualTo(400);
    byte[] none = form(B, new Object[] {"minidump", "x.dmp", "MDMP"});
    assertThatThrownBy(
            () ->
                new MinidumpHandler(DetachedSymbolication.defaults())
                    .answer(
                        parse(none, B),
                        "global",
                        System.currentTimeMillis() + 1000,
                        new FakeLoaderSymbols().symbolicator(),
                        ApiSettings.defaults()))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("no 'upload_file_minidump' part");
  }

  @Test
  void sentryDebugIds() {
    assertThat(SymbolicatorNative.debugId("3249D99D0C4049318610F4E4FB0B69361"))
        .isEqualTo("3249d99d-0c40-4931-8610-f4e4fb0b6936-1");
    assertThat(SymbolicatorNative.debugId("2D903291397D3D14BFCA52C7FB8C5E000"))
        .isEqualTo("2d903291-397d-3d14-bfca-52c7fb8c5e00");
    assertThat(SymbolicatorNative.debugId("xyz")).isEqualTo("xyz");
  }
}

package io.symbolicate.api.apple;

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
import io.symbolicate.api.Json;
import io.symbolicate.api.JsonDiffs;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code /applecrashreport} without a server: Symbolicator's own request (its fixture
 * {@code apple_crash_report.txt}, no symbols to be found) answers exactly its endpoint snapshot,
 * and its integration snapshot but for {@code candidates} (where Symbolicator's sources looked:
 * peer-specific, we do not list them); with the app's symbols, its frames are symbolicated.
 */
class AppleCrashReportHandlerTest {
  static final Path DIR = SharedFixtures.fixtures("apple-crash");
  static final String B = "xYzZY";
  static final String SOURCES =
      "[{\"id\": \"local\", \"type\": \"http\", \"url\": \"http://localhost/symbols/\"}]";

  static byte[] report() throws Exception {
    return Files.readAllBytes(DIR.resolve("symbolicator/tests/fixtures/apple_crash_report.txt"));
  }

  static JsonNode answer(FakeLoaderSymbols symbols, byte[] body) throws Exception {
    return new AppleCrashReportHandler(DetachedSymbolication.defaults())
        .answer(
            parse(body, B),
            "global",
            System.currentTimeMillis() + 5000,
            symbols.symbolicator(),
            ApiSettings.defaults());
  }

  @Test
  void answersSymbolicatorsEndpointSnapshot() throws Exception {
    JsonNode snap =
        Json.MAPPER.readTree(
            DIR.resolve("derived/symbolicator__endpoints__applecrashreport__tests__basic.json")
                .toFile());
    JsonNode got =
        answer(
            new FakeLoaderSymbols(),
            form(
                B,
                new Object[] {"apple_crash_report", "r.txt", report()},
                new Object[] {"sources", null, SOURCES}));
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  @Test
  void answersSymbolicatorsIntegrationSnapshotButForCandidates() throws Exception {
    ObjectNode snap =
        (ObjectNode)
            Json.MAPPER.readTree(
                DIR.resolve("derived/integration__symbolication__apple_crash_report.json")
                    .toFile());
    snap.get("modules").forEach(m -> ((ObjectNode) m).remove("candidates"));
    ObjectNode got =
        (ObjectNode)
            answer(
                new FakeLoaderSymbols(),
                form(B, new Object[] {"apple_crash_report", "r.txt", report()}));
    got.remove("status"); // the integration test reads the result, not the endpoint's response
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  @Test
  void framesOfAModuleWithSymbolsAreSymbolicated() throws Exception {
    String sym =
        """
        MODULE mac x86_64 2D903291397D3D14BFCA52C7FB8C5E000 YetAnotherMac
        FILE 0 /src/Game.cpp
        FUNC 522200 200 0 a_function_here
        522200 200 10 0
        FUNC 522900 100 0 tick_game
        522900 100 42 0
        """;
    CompactTable t =
        NativeSymbols.convert(
            new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
            NativeSymbols.Options.defaults());
    FakeLoaderSymbols symbols =
        new FakeLoaderSymbols().with("YetAnotherMac/2D903291397D3D14BFCA52C7FB8C5E000", t);
    JsonNode got = answer(symbols, form(B, new Object[] {"apple_crash_report", "r.txt", report()}));
    JsonNode f10 = got.get("stacktraces").get(0).get("frames").get(10);
    assertThat(f10.get("status").asText()).isEqualTo("symbolicated");
    assertThat(f10.get("function").asText()).isEqualTo("tick_game");
    assertThat(f10.get("symbol").asText()).isEqualTo("tick_game");
    // the caller's address inside its call (return address 0x108b7092b - 1), as Symbolicator shows
    // it
    assertThat(f10.get("instruction_addr").asText()).isEqualTo("0x108b7092a");
    assertThat(f10.get("sym_addr").asText()).isEqualTo("0x108b70900");
    assertThat(f10.get("filename").asText()).isEqualTo("Game.cpp");
    assertThat(f10.get("abs_path").asText()).isEqualTo("/src/Game.cpp");
    assertThat(f10.get("lineno").asInt()).isEqualTo(42);
    assertThat(got.get("stacktraces").get(0).get("frames").get(11).get("function").asText())
        .isEqualTo("a_function_here");
    JsonNode app = got.get("modules").get(0);
    assertThat(app.get("debug_status").asText()).isEqualTo("found");
    assertThat(app.get("features").get("has_symbols").asBoolean()).isTrue();
    assertThat(app.get("arch").asText())
        .isEqualTo("x86_64"); // the symbol file's, as Symbolicator's object's
    assertThat(got.get("modules").get(1).get("debug_status").asText()).isEqualTo("unused");
  }

  @Test
  void ipsReportsAnswerAsTheirTextRendering() throws Exception {
    Path sym = DIR.resolve("SYM/SYMTests");
    JsonNode ips =
        answer(
            new FakeLoaderSymbols(),
            form(
                B,
                new Object[] {
                  "apple_crash_report", "a.ips", Files.readAllBytes(sym.resolve("AppleJson.ips"))
                }));
    JsonNode text =
        answer(
            new FakeLoaderSymbols(),
            form(
                B,
                new Object[] {
                  "apple_crash_report",
                  "a.crash",
                  Files.readAllBytes(sym.resolve("AppleConverted.log"))
                }));
    assertThat(ips.get("stacktraces")).isEqualTo(text.get("stacktraces"));
    assertThat(ips.get("modules")).isEqualTo(text.get("modules"));
    assertThat(ips.get("stacktraces")).hasSize(8);
  }

  @Test
  void badRequestsGetAReason() throws Exception {
    assertThatThrownBy(
            () -> answer(new FakeLoaderSymbols(), form(B, new Object[] {"sources", null, SOURCES})))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("no 'apple_crash_report' part")
        .extracting(e -> ((ApiException) e).status())
        .isEqualTo(400);
    assertThatThrownBy(
            () ->
                answer(
                    new FakeLoaderSymbols(),
                    form(B, new Object[] {"apple_crash_report", "r", "hello\n"})))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("apple_crash_report: ")
        .hasMessageContaining("not an Apple crash report");
    assertThatThrownBy(
            () ->
                answer(
                    new FakeLoaderSymbols(),
                    form(
                        B,
                        new Object[] {"apple_crash_report", "r", report()},
                        new Object[] {"sources", null, "{\"not\": \"a list\"}"})))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("'sources' must be a JSON array");
    assertThatThrownBy(
            () ->
                answer(
                    new FakeLoaderSymbols(),
                    form(
                        B,
                        new Object[] {"apple_crash_report", "r", report()},
                        new Object[] {"options", null, "{"})))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("'options' is not valid JSON");
    assertThatThrownBy(
            () ->
                answer(
                    new FakeLoaderSymbols(),
                    form(B, new Object[] {"apple_crash_report", "r", new byte[0]})))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("is empty");
  }

  @Test
  void moreFramesThanTheServersLimitIs413() throws Exception {
    ApiSettings small =
        new ApiSettings("127.0.0.1", 0, 4, 1 << 20, 10, Duration.ofSeconds(5), 1, 0);
    assertThatThrownBy(
            () ->
                new AppleCrashReportHandler(DetachedSymbolication.defaults())
                    .answer(
                        parse(form(B, new Object[] {"apple_crash_report", "r", report()}), B),
                        "global",
                        System.currentTimeMillis() + 5000,
                        new FakeLoaderSymbols().symbolicator(),
                        small))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("http.max.frames")
        .extracting(e -> ((ApiException) e).status())
        .isEqualTo(413);
  }
}

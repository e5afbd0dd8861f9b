package io.symbolicate.api.stacktraces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.FakeLoaderSymbols;
import io.symbolicate.api.Json;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code /symbolicate} without a server: the request's rules (each refusal names its field), the
 * native event it becomes, and a .NET frame answered from a Portable PDB's table as Symbolicator's
 * {@code dotnet_integration} snapshot has it (the served version, field by field:
 * ServeSymbolicateIT in app).
 */
class SymbolicateHandlerTest {
  static final Path PORTABLE =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows/portable.pdb");

  final SymbolicateHandler handler =
      new SymbolicateHandler(DetachedSymbolication.withMaxFrames(10));

  SymbolicateRequest parse(String body) throws Exception {
    return handler.parse(Json.MAPPER.readTree(body));
  }

  void refused(String body, int status, String reason) {
    assertThatThrownBy(() -> parse(body))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining(reason)
        .extracting(e -> ((ApiException) e).status())
        .isEqualTo(status);
  }

  @Test
  void badRequestsNameTheirField() {
    refused("[]", 400, "the request body must be a JSON object");
    refused("{\"stacktraces\": {}}", 400, "stacktraces: must be an array");
    refused(
        "{\"stacktraces\": [{\"frames\": [{}]}]}", 400, "frames[0].instruction_addr: is required");
    refused(
        "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": -1}]}]}",
        400,
        "instruction_addr: must be an unsigned 64-bit value");
    refused(
        "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": \"0x1ffffffffffffffff\"}]}]}",
        400,
        "not a 64-bit hex");
    refused(
        "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": 1, \"addr_mode\": \"rel:-1\"}]}]}",
        400,
        "addr_mode: must be \"abs\" or \"rel:N\"");
    refused(
        "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": 1, \"function_id\": true}]}]}",
        400,
        "function_id: must be a hex string");
    refused("{\"modules\": [{}]}", 400, "modules[0].type: is required");
    refused("{\"modules\": [{\"type\": \"so\"}]}", 400, "modules[0].type: must be one of");
    refused(
        "{\"modules\": [{\"type\": \"elf\", \"image_addr\": \"x\"}]}",
        400,
        "modules[0].image_addr: not a 64-bit hex");
    refused("{\"options\": {\"apply_source_context\": 1}}", 400, "options.apply_source_context");
    refused("{\"stacktraces\": [{\"registers\": [], \"frames\": []}]}", 400, "registers");
    refused("{\"sources\": {}}", 400, "sources: must be an array");
  }

  @Test
  void listsOverTheLimitAre413() {
    String eleven = ", {\"instruction_addr\": 1}".repeat(10);
    refused(
        "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": 1}" + eleven + "]}]}", 413, "10");
    refused(
        "{\"modules\": [" + "{\"type\": \"elf\"},".repeat(10) + "{\"type\": \"elf\"}]}", 413, "10");
    refused(
        "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": 1}]}, {\"frames\":"
            + " [{\"instruction_addr\": 1}"
            + ", {\"instruction_addr\": 1}".repeat(9)
            + "]}]}",
        413,
        "more than 10 frames in total");
  }

  @Test
  void symbolicatorsHexValues() throws Exception {
    SymbolicateRequest r =
        parse(
            "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": \"0xA\"}, {\"instruction_addr\": \"10\"},"
                + " {\"instruction_addr\": 10}, {\"instruction_addr\": 18446744073709551615}]}]}");
    assertThat(r.stacktraces().get(0).frames())
        .extracting(SymbolicateRequest.Frame::instructionAddr)
        .containsExactly(10L, 10L, 10L, -1L);
    assertThat(r.applySourceContext()).isTrue();
    assertThat(parse("{\"options\": {\"apply_source_context\": false}}").applySourceContext())
        .isFalse();
  }

  @Test
  void debugIdsInBreakpadsForm() {
    assertThat(SymbolicateHandler.breakpadId("3249d99d-0c40-4931-8610-f4e4fb0b6936-1"))
        .isEqualTo("3249D99D0C4049318610F4E4FB0B69361");
    assertThat(SymbolicateHandler.breakpadId("20ad60b0-b4c6-8177-5527-08aa192e7739"))
        .isEqualTo("20AD60B0B4C68177552708AA192E77390");
    assertThat(SymbolicateHandler.breakpadId("3249d99d0c4049318610f4e4fb0b6936"))
        .isEqualTo("3249D99D0C4049318610F4E4FB0B69360");
    assertThat(SymbolicateHandler.breakpadId("0c1033f78632492e91c6c314b72e1920e60b819d"))
        .isEqualTo("0c1033f78632492e91c6c314b72e1920e60b819d");
  }

  /**
   * Module and frame positions are the request's: a .NET module without identity or range, a
   * .NET frame outside every module, a module without a size up to the next one.
   */
  @Test
  void theNativeEventKeepsTheRequestsPositions() throws Exception {
    SymbolicateRequest r =
        parse(
            "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": \"0x1010\"},"
                + " {\"instruction_addr\": 3, \"function_id\": 1, \"addr_mode\": \"rel:1\"},"
                + " {\"instruction_addr\": 5, \"addr_mode\": \"rel:0\", \"adjust_instruction_addr\": false}]}],"
                + " \"modules\": [{\"type\": \"elf\", \"debug_file\": \"/lib/a.so\", \"debug_id\": \"20ad60b0-b4c6-8177-5527-08aa192e7739\", \"image_addr\": \"0x1000\"},"
                + " {\"type\": \"pe_dotnet\", \"debug_file\": \"a.pdb\", \"debug_id\": \"0c1033f78632492e91c6c314b72e1920e60b819d\"},"
                + " {\"type\": \"elf\", \"image_addr\": \"0x3000\", \"image_size\": 16}]}");
    CrashEvent e = handler.events(r, "global").get(0);
    List<NativeModule> modules = e.getNative$().getModules();
    assertThat(modules.get(0).getDebugFile()).isEqualTo("a.so");
    assertThat(modules.get(0).getDebugId()).isEqualTo("20AD60B0B4C68177552708AA192E77390");
    assertThat(modules.get(0).getImageSize()).isEqualTo(0x2000L);
    assertThat(modules.get(1).getDebugId()).isNull();
    assertThat(modules.get(1).getImageAddr()).isNull();
    List<NativeFrame> frames = e.getNative$().getThreads().get(0).getFrames();
    assertThat(frames.get(0).getInstructionAddr()).isEqualTo(0x1010L);
    assertThat(frames.get(1).getModuleIndex()).isEqualTo(-1);
    assertThat(frames.get(2).getModuleIndex()).isZero();
    assertThat(frames.get(2).getModuleOffset()).isEqualTo(5L);
    assertThat(frames.get(2).getTrust()).isEqualTo("context");
    assertThat(handler.ownModules(r, "global").keySet())
        .extracting(Object::toString)
        .containsExactly("global|D|a.pdb/0C1033F78632492E91C6C314B72E1920E60B819D");
  }

  /** A module without a size ends at the next start above it, in unsigned order; the last at the top. */
  @Test
  void sizesUpToTheNextModule() throws Exception {
    SymbolicateRequest r =
        parse(
            "{\"modules\": [{\"type\": \"elf\", \"image_addr\": \"0x8000000000000000\"},"
                + " {\"type\": \"elf\", \"image_addr\": \"0x1000\"},"
                + " {\"type\": \"elf\", \"image_addr\": \"0x1000\", \"image_size\": 16},"
                + " {\"type\": \"pe_dotnet\", \"image_addr\": \"0x2000\"}]}");
    List<NativeModule> m = handler.events(r, "global").get(0).getNative$().getModules();
    assertThat(m.get(0).getImageSize()).isEqualTo(0x7fffffffffffffffL);
    assertThat(m.get(1).getImageSize()).isEqualTo(0x8000000000000000L - 0x1000L);
    assertThat(m.get(2).getImageSize()).isEqualTo(16L);
  }

  /** symbolic's assertion (method 7, IL offset 10: Program.cs line 81) through the endpoint. */
  @Test
  void dotnetFramesFromThePortablePdbsTable() throws Exception {
    PortablePdb pdb = PortablePdb.parse(Files.readAllBytes(PORTABLE));
    String id = pdb.debugId();
    FakeLoaderSymbols symbols =
        new FakeLoaderSymbols()
            .with(
                "portable.pdb/" + SymbolicateHandler.breakpadId(id).replace("-", "").toUpperCase(),
                DotnetTable.build(pdb));
    SymbolicateRequest r =
        parse(
            "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": 10, \"function_id\": 7, \"addr_mode\": \"rel:0\"},"
                + " {\"instruction_addr\": 10, \"function_id\": 999, \"addr_mode\": \"rel:0\"},"
                + " {\"instruction_addr\": 10, \"addr_mode\": \"rel:0\"},"
                + " {\"instruction_addr\": 1, \"function_id\": 1, \"addr_mode\": \"rel:1\"},"
                + " {\"instruction_addr\": 1, \"addr_mode\": \"rel:9\"}]}],"
                + " \"modules\": [{\"type\": \"pe_dotnet\", \"debug_file\": \"portable.pdb\", \"debug_id\": \""
                + id
                + "\"}, {\"type\": \"pe_dotnet\", \"debug_file\": \"other.pdb\", \"debug_id\": \""
                + id
                + "\"}, {\"type\": \"pe_dotnet\", \"debug_file\": \"unused.pdb\", \"debug_id\": \""
                + id
                + "\"}]}");
    ApiSymbolicator s = symbols.symbolicator();
    ApiSymbolicator.Result res =
        s.symbolicate(
            handler.events(r, "global"),
            handler.ownModules(r, "global"),
            System.currentTimeMillis() + 5000,
            100,
            (ev, l) -> handler.whenReady(r, ev, l));
    JsonNode got = handler.render(r, res.events(), res.stats(), res.lookup());
    JsonNode frames = got.get("stacktraces").get(0).get("frames");
    JsonNode f = frames.get(0);
    assertThat(f.get("status").asText()).isEqualTo("symbolicated");
    assertThat(f.get("filename").asText()).isEqualTo("Program.cs");
    assertThat(f.get("abs_path").asText()).endsWith("/samples/foo/Program.cs");
    assertThat(f.get("lineno").asInt()).isEqualTo(81);
    assertThat(f.get("lang").asText()).isEqualTo("csharp");
    assertThat(f.get("function_id").asText()).isEqualTo("0x7");
    assertThat(f.get("instruction_addr").asText()).isEqualTo("0xa");
    assertThat(f.get("addr_mode").asText()).isEqualTo("rel:0");
    // no such method, no function_id: missing_symbol; a module not stored: missing
    assertThat(frames.get(1).get("status").asText()).isEqualTo("missing_symbol");
    assertThat(frames.get(2).get("status").asText()).isEqualTo("missing_symbol");
    assertThat(frames.get(3).get("status").asText()).isEqualTo("missing");
    assertThat(frames.get(4).get("status").asText()).isEqualTo("unknown_image");
    JsonNode modules = got.get("modules");
    assertThat(modules.get(0).get("debug_status").asText()).isEqualTo("found");
    assertThat(modules.get(0).get("features").get("has_debug_info").asBoolean()).isTrue();
    assertThat(modules.get(1).get("debug_status").asText()).isEqualTo("missing");
    assertThat(modules.get(2).get("debug_status").asText()).isEqualTo("unused");
  }
}

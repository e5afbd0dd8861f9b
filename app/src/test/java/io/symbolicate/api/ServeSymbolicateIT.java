package io.symbolicate.api;

import static io.symbolicate.api.ApiClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.app.cli.SymbolicatorCli;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code POST /symbolicate} in {@code serve} mode through a real HTTP client, over a symbols
 * directory that holds the peers' debug files in the symbol-server and native layouts (links to
 * {@code ../shared/fixtures/difs}): the server's own loader fetches and converts each (Portable
 * PDBs, a PDB, an ELF debug file). Symbolicator's answers are its integration snapshots, compared
 * field by field but for the fields listed in docs/api/symbolicate.md; the native frames equal
 * what {@code native lookup} answers for the same files.
 */
class ServeSymbolicateIT {
  static final Path DIFS = SharedFixtures.fixtures("difs");
  static final Path SYMBOLICATOR = DIFS.resolve("getsentry-symbolicator");
  static final Path SNAPS = SYMBOLICATOR.resolve("snapshots");
  static final Path WINDOWS = DIFS.resolve("getsentry-symbolic/testutils/windows");
  static final Path BASIC = DIFS.resolve("mozilla-dump_syms/linux/basic.full");
  static final Path DSYM =
      DIFS.resolve("getsentry-symbolic/testutils/macos/crash.dSYM/Contents/Resources/DWARF/crash");
  static final long BASE = 0x5555_0000_0000L;
  static final String SOURCES_ID = "883fcdc55336d0a809b0150f09500b";
  static final String UNIFIED = "7f/" + SOURCES_ID + "0/";

  @TempDir static Path symbols;
  @TempDir static Path cache;
  private static ApiRuntime.Running api;
  private static ApiClient client;

  @BeforeAll
  static void start() throws IOException {
    // Symbolicator's Portable PDBs, in its symbol-server layout (<name>/<GUID>ffffffff/<name>)
    try (var dirs = Files.list(SYMBOLICATOR.resolve("symbols"))) {
      for (Path d : dirs.filter(p -> p.getFileName().toString().endsWith(".pdb")).toList()) {
        Files.createSymbolicLink(symbols.resolve(d.getFileName()), d);
      }
    }
    // crash.pdb: asked for as a .NET module (a Windows PDB: unsupported) and as a native one
    link(
        "crash.pdb/3249D99D0C4049318610F4E4FB0B6936ffffffff/crash.pdb",
        WINDOWS.resolve("crash.pdb"));
    link("crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb", WINDOWS.resolve("crash.pdb"));
    link(
        "crash_with_srcsrv.pdb/3249D99D0C4049318610F4E4FB0B69361/crash_with_srcsrv.pdb",
        WINDOWS.resolve("crash_with_srcsrv.pdb"));
    // the demo's .sym in Mozilla's layout, for the documented example
    Path crashy = symbols.resolve("crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym");
    Files.createDirectories(crashy.getParent());
    try (var in = ServeSymbolicateIT.class.getResourceAsStream("/demo/crashy.sym")) {
      Files.copy(in, crashy);
    }
    // an ELF file with DWARF and inlined functions, and a dSYM's Mach-O, where an upload puts them
    link("basic/20AD60B0B4C68177552708AA192E77390/basic", BASIC);
    link("crash/67E9247C814E392BA027DBDE6748FCBF0/crash", DSYM);
    // Symbolicator's source_candidates dSYM and its source bundle, in the unified layout
    link(UNIFIED + "debuginfo", SYMBOLICATOR.resolve("symbols/7f/" + SOURCES_ID + ".debug"));
    link(UNIFIED + "sourcebundle", SYMBOLICATOR.resolve("symbols/7f/" + SOURCES_ID + ".src.zip"));
    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("http.max.frames", "1000")
            .set("http.request.timeout.ms", "20000");
    api = ApiRuntime.serve(cfg);
    client = new ApiClient(api.server().uri());
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  static void link(String key, Path target) throws IOException {
    Path to = symbols.resolve(key);
    Files.createDirectories(to.getParent());
    Files.createSymbolicLink(to, target);
  }

  /** The request of Symbolicator's test {@code name}: its modules and stack traces, verbatim. */
  static String symbolicatorRequest(String test) throws IOException {
    JsonNode all =
        Json.MAPPER.readTree(SYMBOLICATOR.resolve("extracted-test-expectations.json").toFile());
    for (JsonNode t : all.get("tests")) {
      if (t.get("test").asText().equals(test)) {
        return "{\"modules\": "
            + t.get("raw_strings").get(0).asText()
            + ", \"stacktraces\": "
            + t.get("raw_strings").get(1).asText()
            + "}";
      }
    }
    throw new IllegalArgumentException(test);
  }

  static JsonNode post(String body) throws Exception {
    ApiClient.Response r = client.post("/symbolicate", body);
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    assertThat(r.json().get("status").asText()).isEqualTo("completed");
    return r.json();
  }

  /** Our answer as the integration snapshots hold it: the result, without the response's status. */
  static JsonNode result(String body) throws Exception {
    ObjectNode got = (ObjectNode) post(body);
    got.remove("status");
    return got;
  }

  /**
   * The snapshot less what we leave out (docs/api/symbolicate.md, "Compared with Symbolicator"):
   * {@code candidates}; the context of a frame with a {@code source_link}, which Symbolicator
   * fetched from that URL (we report the URL, never fetch it); {@code srcsrv_vcs}.
   */
  static JsonNode snapshot(String name) throws IOException {
    JsonNode snap = Snapshots.read(SNAPS.resolve(name));
    for (JsonNode st : snap.get("stacktraces")) {
      for (JsonNode f : st.get("frames")) {
        if (f.has("source_link")) {
          ((ObjectNode) f).remove(List.of("pre_context", "context_line", "post_context"));
        }
      }
    }
    for (JsonNode m : snap.get("modules")) {
      ((ObjectNode) m).remove("candidates");
      ObjectNode features = (ObjectNode) m.get("features");
      features.remove("srcsrv_vcs");
    }
    return snap;
  }

  /**
   * Symbolicator's {@code source_candidates} request with the debug file's name, which our store
   * keys modules by (Symbolicator finds the file by its id alone), and {@code options} if given.
   */
  static String sourceCandidates(String options) throws IOException {
    String body = symbolicatorRequest("test_source_candidates");
    body = body.replaceFirst("\"type\":", "\"debug_file\": \"sentry_example.debug\", \"type\":");
    return options == null ? body : body.substring(0, body.length() - 1) + ", " + options + "}";
  }

  /**
   * A native frame whose module has a source bundle (in the unified layout, loaded with its
   * debug file): Symbolicator's {@code source_candidates} snapshot, context lines included, and
   * the module's {@code has_sources}.
   */
  @Test
  void sourceContextFromABundleAnswersSymbolicatorsSnapshot() throws Exception {
    JsonNode got = result(sourceCandidates(null));
    JsonNode want = snapshot("integration__symbolication__source_candidates.snap");
    JsonNode frame = got.get("stacktraces").get(0).get("frames").get(0);
    JsonNode wantFrame = want.get("stacktraces").get(0).get("frames").get(0);
    for (String field :
        List.of(
            "status",
            "instruction_addr",
            "function",
            "sym_addr",
            "filename",
            "abs_path",
            "lineno",
            "pre_context",
            "context_line",
            "post_context")) {
      assertThat(frame.get(field)).as(field).isEqualTo(wantFrame.get(field));
    }
    JsonNode module = got.get("modules").get(0);
    assertThat(module.get("debug_status").asText()).isEqualTo("found");
    assertThat(module.get("arch")).isEqualTo(want.get("modules").get(0).get("arch"));
    assertThat(module.get("features").get("has_sources").asBoolean()).isTrue();
  }

  /**
   * {@code apply_source_context: false}: the same frames without context lines, native (a
   * source bundle) and .NET (sources embedded in the Portable PDB) alike.
   */
  @Test
  void applySourceContextFalseLeavesContextOut() throws Exception {
    String off = "\"options\": {\"apply_source_context\": false}";
    JsonNode on = result(sourceCandidates(null));
    JsonNode without = result(sourceCandidates(off));
    String dotnet = symbolicatorRequest("test_dotnet_embedded_sources");
    JsonNode dotnetOn = result(dotnet);
    JsonNode dotnetWithout = result(dotnet.substring(0, dotnet.length() - 1) + ", " + off + "}");
    for (JsonNode[] pair :
        List.of(new JsonNode[] {on, without}, new JsonNode[] {dotnetOn, dotnetWithout})) {
      ObjectNode withContext = (ObjectNode) pair[0].get("stacktraces").get(0).get("frames").get(0);
      JsonNode plain = pair[1].get("stacktraces").get(0).get("frames").get(0);
      assertThat(withContext.has("context_line")).isTrue();
      assertThat(plain.has("context_line")).isFalse();
      assertThat(plain.has("pre_context")).isFalse();
      assertThat(plain.has("post_context")).isFalse();
      withContext.remove(List.of("pre_context", "context_line", "post_context"));
      assertThat(plain).isEqualTo(withContext);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "dotnet_integration",
        "dotnet_embedded_sources",
        "dotnet_source_links",
        "dotnet_only_source_links"
      })
  void dotnetFramesAnswerSymbolicatorsSnapshots(String test) throws Exception {
    JsonNode got = result(symbolicatorRequest("test_" + test));
    JsonNode snap = snapshot("integration__symbolication__" + test + ".snap");
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  /** A Windows PDB asked for as a .NET module: unsupported, its frames missing. */
  @Test
  void aWindowsPdbAsDotnetIsUnsupported() throws Exception {
    JsonNode got = result(symbolicatorRequest("test_dotnet_windows_pdb"));
    JsonNode snap = snapshot("integration__symbolication__dotnet_windows_pdb.snap");
    // Symbolicator reports the features of the file it refused; we report none
    ObjectNode features = (ObjectNode) snap.get("modules").get(0).get("features");
    features.put("has_debug_info", false).put("has_unwind_info", false).put("has_symbols", false);
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  /** Symbolicator's srcsrv tests: a PE frame symbolicated from the PDB (line 0, no file). */
  @ParameterizedTest
  @ValueSource(strings = {"crash", "crash_with_srcsrv"})
  void peFramesAnswerSymbolicatorsSrcsrvSnapshots(String pdb) throws Exception {
    String body =
        """
        {"stacktraces": [{"frames": [{"instruction_addr": "0x2a2755"}]}],
         "modules": [{"type": "pe", "code_file": "C:\\\\projects\\\\breakpad-tools\\\\windows\\\\Release\\\\crash.exe",
                      "debug_id": "3249d99d-0c40-4931-8610-f4e4fb0b6936-1",
                      "debug_file": "C:\\\\projects\\\\breakpad-tools\\\\windows\\\\Release\\\\%s.pdb",
                      "image_addr": "0x2a0000", "image_size": 36864}]}
        """
            .formatted(pdb);
    JsonNode got = result(body);
    // where the PDB has inline sites (S_INLINESITE) at the address, we answer them as inlined
    // frames before the function; Symbolicator answers the function alone (docs/api/symbolicate.md)
    ArrayNode frames = (ArrayNode) got.get("stacktraces").get(0).get("frames");
    int inlined = frames.size() - 1;
    assertThat(inlined).isEqualTo(3);
    for (int i = 0; i < inlined; i++) {
      assertThat(frames.get(0).get("status").asText()).isEqualTo("symbolicated");
      frames.remove(0);
    }
    String name = pdb.equals("crash") ? "without_srcsrv" : "with_srcsrv";
    JsonNode snap = snapshot("integration__srcsrv__pdb_" + name + ".snap");
    // function and symbol with the argument list, as the snapshot has them (docs/native.md,
    // "FUNC names")
    assertThat(JsonDiffs.diff(snap, got)).isEmpty();
  }

  /** A module of each native kind: the debug file, its module in the request, its CPU. */
  enum NativeCase {
    ELF(
        BASIC,
        "elf",
        "/usr/bin/basic",
        "20ad60b0-b4c6-8177-5527-08aa192e7739",
        "x86_64",
        "amd64",
        0x1210,
        0x1271,
        0x129b,
        0x12c5),
    MACHO(
        DSYM,
        "macho",
        "/Applications/crash.app/Contents/MacOS/crash",
        "67e9247c-814e-392b-a027-dbde6748fcbf",
        "x86_64",
        "amd64",
        0x3030,
        0xf10,
        0x1bd0,
        0xcf20),
    PE(
        WINDOWS.resolve("crash.pdb"),
        "pe",
        "crash.pdb",
        "3249d99d-0c40-4931-8610-f4e4fb0b6936-1",
        "x86",
        "x86",
        0x2190,
        0x2250,
        0x2755,
        0x2450);

    final Path file;
    final String type;
    final String debugFile;
    final String debugId;
    final String arch;
    final String cliArch;
    final long[] offsets;

    NativeCase(
        Path file,
        String type,
        String debugFile,
        String debugId,
        String arch,
        String cliArch,
        long... offsets) {
      this.file = file;
      this.type = type;
      this.debugFile = debugFile;
      this.debugId = debugId;
      this.arch = arch;
      this.cliArch = cliArch;
      this.offsets = offsets;
    }
  }

  /**
   * A module's frames (the first as given, callers adjusted for its CPU, inlined functions
   * innermost first) equal {@code native lookup}'s answers for the same debug file: an ELF file
   * with DWARF, a dSYM, a PDB, each loaded by the server from its symbols directory.
   */
  @ParameterizedTest
  @EnumSource(NativeCase.class)
  void nativeFramesEqualNativeLookup(NativeCase c) throws Exception {
    long[] offsets = c.offsets;
    StringBuilder frames = new StringBuilder();
    for (long o : offsets) {
      frames
          .append(frames.isEmpty() ? "" : ", ")
          .append("{\"instruction_addr\": \"0x")
          .append(Long.toHexString(BASE + o))
          .append("\"}");
    }
    String body =
        "{\"stacktraces\": [{\"registers\": {\"rip\": \"0x"
            + Long.toHexString(BASE + offsets[0])
            + "\"}, \"frames\": ["
            + frames
            + ", {\"instruction_addr\": \"0x10\"}, {\"instruction_addr\": 4660, \"addr_mode\": \"rel:0\"}]}],"
            + " \"modules\": [{\"type\": \""
            + c.type
            + "\", \"debug_id\": \""
            + c.debugId
            + "\", \"debug_file\": \""
            + c.debugFile
            + "\", \"code_file\": \"/usr/bin/basic\", \"image_addr\": \"0x"
            + Long.toHexString(BASE)
            + "\", \"image_size\": 1048576}]}";
    JsonNode got = post(body);
    JsonNode module = got.get("modules").get(0);
    assertThat(module.get("debug_status").asText()).isEqualTo("found");
    assertThat(module.get("arch").asText()).isEqualTo(c.arch);
    assertThat(got.get("stacktraces").get(0).get("registers").get("rip").asText())
        .isEqualTo("0x" + Long.toHexString(BASE + offsets[0]));

    List<JsonNode> expected = new ArrayList<>();
    for (int i = 0; i < offsets.length; i++) {
      String[] args =
          i == 0
              ? new String[] {"native", "lookup", "--sym", c.file.toString(), hex(offsets[i])}
              : new String[] {
                "native", "lookup", "--sym", c.file.toString(), "--arch", c.cliArch, hex(offsets[i])
              };
      JsonNode peer = Json.MAPPER.readTree(cli(args));
      assertThat(peer.get("found").asBoolean()).as("native lookup %s", hex(offsets[i])).isTrue();
      long lookedUp =
          BASE
              + Long.decode(
                  peer.has("lookup_address")
                      ? peer.get("lookup_address").asText()
                      : hex(offsets[i]));
      for (JsonNode inl : peer.get("inlines")) {
        expected.add(frame(i, lookedUp, inl));
      }
      expected.add(frame(i, lookedUp, peer));
    }
    ArrayNode ours = (ArrayNode) got.get("stacktraces").get(0).get("frames");
    List<JsonNode> nativeOnes = new ArrayList<>();
    for (JsonNode f : ours) {
      if (f.get("original_index").asInt() < offsets.length) {
        nativeOnes.add(comparable(f));
      }
    }
    assertThat(nativeOnes).isEqualTo(expected);
    assertThat(expected.size()).as("inlined frames were compared").isGreaterThan(offsets.length);
    // the frame outside every module, and the relative one (a return address at 0x1234)
    JsonNode outside = null;
    for (JsonNode f : ours) {
      if (f.get("original_index").asInt() == offsets.length) {
        outside = f;
      }
    }
    assertThat(outside.get("status").asText()).isEqualTo("unknown_image");
    JsonNode relative = ours.get(ours.size() - 1);
    assertThat(relative.get("addr_mode").asText()).isEqualTo("rel:0");
    assertThat(relative.get("package").asText()).isEqualTo("/usr/bin/basic");
    if (relative.get("status").asText().equals("symbolicated")) {
      assertThat(relative.get("instruction_addr").asText()).isEqualTo("0x1233");
    }
  }

  private static ObjectNode frame(int index, long lookedUp, JsonNode peer) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("original_index", index);
    o.put("instruction_addr", "0x" + Long.toHexString(lookedUp));
    o.put("function", peer.get("function").asText());
    o.put(
        "sym_addr",
        "0x" + Long.toHexString(BASE + Long.decode(peer.get("function_base").asText())));
    o.put("abs_path", peer.path("file").isTextual() ? peer.get("file").asText() : "");
    o.put("lineno", peer.path("line").asInt());
    return o;
  }

  private static ObjectNode comparable(JsonNode f) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("original_index", f.get("original_index").asInt());
    o.put("instruction_addr", f.get("instruction_addr").asText());
    o.put("function", f.path("function").asText());
    o.put("sym_addr", f.path("sym_addr").asText());
    o.put("abs_path", f.path("abs_path").asText());
    o.put("lineno", f.path("lineno").asInt());
    return o;
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  private static String cli(String... args) {
    CommandLine cl = SymbolicatorCli.newCommandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(new StringWriter()));
    assertThat(cl.execute(args)).isZero();
    return out.toString().trim();
  }

  /** docs/api/symbolicate.md's example: its request answers its response, exactly. */
  @Test
  void theDocumentedExampleAnswers() throws Exception {
    List<String> doc = Files.readAllLines(Path.of("..", "docs", "api", "symbolicate.md"));
    int at = 0;
    while (!doc.get(at).startsWith("$ curl -s -d '")) {
      at++;
    }
    String curl = doc.get(at);
    String request = curl.substring("$ curl -s -d '".length(), curl.lastIndexOf("' http"));
    ApiClient.Response r = client.post("/symbolicate", request);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.raw().body()).isEqualTo(doc.get(at + 1));
  }

  @Test
  void badRequestsGetTheirReason() throws Exception {
    assertError(client.post("/symbolicate", "[]"), 400, "must be a JSON object");
    assertError(
        client.post("/symbolicate", "{\"stacktraces\": [{\"frames\": [{}]}]}"),
        400,
        "stacktraces[0].frames[0].instruction_addr: is required");
    assertError(
        client.post(
            "/symbolicate",
            "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": \"0xzz\"}]}]}"),
        400,
        "stacktraces[0].frames[0].instruction_addr: not a 64-bit hex");
    assertError(
        client.post(
            "/symbolicate",
            "{\"stacktraces\": [{\"frames\": [{\"instruction_addr\": 1, \"addr_mode\": \"rel:x\"}]}]}"),
        400,
        "stacktraces[0].frames[0].addr_mode: must be \"abs\" or \"rel:N\"");
    assertError(
        client.post("/symbolicate", "{\"modules\": [{\"type\": \"dylib\"}]}"),
        400,
        "modules[0].type: must be one of elf, macho, pe, pe_dotnet, wasm");
    // a scope other than the anonymous ones needs its key (docs/api/keys.md)
    assertError(
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate"))
                .header("X-Symbolicator-Scope", "acme")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build()),
        403,
        "acme");
    StringBuilder many = new StringBuilder("{\"stacktraces\": [{\"frames\": [");
    for (int i = 0; i < 1001; i++) {
      many.append(i == 0 ? "" : ",").append("{\"instruction_addr\": 1}");
    }
    assertError(client.post("/symbolicate", many + "]}]}"), 413, "1000");
  }
}

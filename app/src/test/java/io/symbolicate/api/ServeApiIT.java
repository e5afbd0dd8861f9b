package io.symbolicate.api;

import static io.symbolicate.api.ApiClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.ServerLimits;
import io.symbolicate.api.symbols.LocalTableStore;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.app.runtime.SymbolEngines;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API in {@code serve} mode over a symbols directory in Mozilla's layout, through a real
 * HTTP client: Mozilla's documented examples, the peer fixtures' API answers, hostile requests.
 */
class ServeApiIT {
  @TempDir static Path symbols;
  @TempDir static Path cache;
  private static ApiRuntime.Running api;
  private static ApiClient client;

  // Built from Mozilla's documented v5 example response: FUNC start = module_offset -
  // function_offset
  static final String XUL_V5 =
      """
      MODULE windows x86_64 0FBE970321AB8CF14C4C44205044422E1 xul.pdb
      INFO CODE_ID 6200B9E42A3C000 xul.dll
      FILE 0 hg:hg.mozilla.org/mozilla-central:dom/ipc/jsactor/JSActorManager.cpp:55c63a6c547f1fecd412505a064f21fd1e1ec48e
      FILE 1 hg:hg.mozilla.org/mozilla-central:dom/ipc/WindowGlobalChild.cpp:55c63a6c547f1fecd412505a064f21fd1e1ec48e
      FUNC 729540 400 0 mozilla::dom::WindowGlobalChild::RecvRawMessage(mozilla::dom::JSActorMessageMeta const&, mozilla::Maybe<mozilla::dom::ClonedMessageData> const&, mozilla::Maybe<mozilla::dom::ClonedMessageData> const&)
      7296f0 20 586 1
      FUNC 734660 1000 0 mozilla::dom::JSActorManager::ReceiveRawMessage(mozilla::dom::JSActorMessageMeta const&, mozilla::Maybe<mozilla::dom::ipc::StructuredCloneData>&&, mozilla::Maybe<mozilla::dom::ipc::StructuredCloneData>&&)
      734e30 20 172 0
      """;
  // From Mozilla's documented v4 example: the two function names at the two offsets
  static final String XUL_V4 =
      """
      MODULE windows x86_64 44E4EC8C2F41492B9369D6B9A059577C2 xul.pdb
      PUBLIC b2e000 0 XREMain::XRE_mainRun()
      PUBLIC b2f000 0 XREMain::XRE_main()
      """;
  static final String WNTDLL_V4 =
      """
      MODULE windows x86_64 D74F79EB1F8D4A45ABCD2F476CCABACC2 wntdll.pdb
      PUBLIC 10100 0 KiUserCallbackDispatcher
      """;

  @BeforeAll
  static void start() throws IOException {
    for (Path f : fixtureSyms()) {
      place(Files.readString(f));
    }
    place(XUL_V5);
    place(XUL_V4);
    place(WNTDLL_V4);
    // a file that is not a symbol file at all: cached as malformed
    place(
        "MODULE Linux x86_64 ABCDEF0123456789ABCDEF01234567890 broken\n",
        "garbage\u0000\u0001 not a sym file");
    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("http.max.body.bytes", String.valueOf(20 << 20))
            .set("http.max.frames", "100000")
            .set("http.request.timeout.ms", "10000")
            .set(
                "api.keys",
                ApiKeys.hash("key-a")
                    + "=tenant-a:symbolicate,"
                    + ApiKeys.hash("key-b")
                    + "=tenant-b:symbolicate");
    api = ApiRuntime.serve(cfg);
    client = new ApiClient(api.server().uri());
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  static List<Path> fixtureSyms() {
    return List.of(
        SharedFixtures.fixtures("native").resolve("mozilla-eliot/extracted/testproj.sym"),
        SharedFixtures.fixtures("native")
            .resolve("mozilla-eliot/extracted/testproj_with_inlines.sym"));
  }

  /** Writes a .sym to {@code <debug_file>/<DEBUG_ID>/<debug_file minus .pdb>.sym}. */
  static void place(String sym) throws IOException {
    place(sym, sym);
  }

  static void place(String moduleLine, String content) throws IOException {
    placeIn(symbols, moduleLine, content);
  }

  /** Writes a .sym into the symbols directory {@code root}, in Mozilla's layout. */
  static void placeIn(Path root, String sym) throws IOException {
    placeIn(root, sym, sym);
  }

  static void placeIn(Path root, String moduleLine, String content) throws IOException {
    String[] m = moduleLine.lines().findFirst().orElseThrow().trim().split(" ");
    String debugId = m[3];
    String file = m[4];
    Path dir = root.resolve(file).resolve(debugId);
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve(file.replaceFirst("\\.pdb$", "") + ".sym"), content.stripIndent());
  }

  @Test
  void healthAndMetricsAreServedBesideTheApi() throws Exception {
    client.post(
        "/symbolicate/v5",
        """
        {"jobs": [{"stacks": [[[0, 7509754]]], "memoryMap": [["xul.pdb", "0FBE970321AB8CF14C4C44205044422E1"]]}]}""");
    var health =
        client.send(HttpRequest.newBuilder(api.server().uri().resolve("/health")).GET().build());
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().path("status").asText()).isEqualTo("UP");

    HttpRequest scrape =
        HttpRequest.newBuilder(api.server().uri().resolve("/metrics")).GET().build();
    var metrics = HttpClient.newHttpClient().send(scrape, HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/plain; version=0.0.4");
    String text = metrics.body();
    assertThat(text)
        .contains(
            "symbolicate_api_in_flight",
            "symbolicate_api_refused_total",
            "symbolicate_api_claimed_bytes",
            "symbolicate_api_writing_bytes",
            "symbolicate_page_cache_entries",
            "symbolicate_ready 1.0",
            "jvm_memory_used_bytes");
    // the local fetcher's loads are counted: at least the xul module was found
    assertThat(text).containsPattern("symbolicate_loader_loads_total\\{outcome=\"found\"\\} [1-9]");
  }

  @Test
  void mozillaV5DocumentedExample() throws Exception {
    var r =
        client.post(
            "/symbolicate/v5",
            """
        {"jobs": [{"stacks": [[[1, 7556668], [1, 7509754]]],
                   "memoryMap": [["firefox.pdb", "C0A5F7D110D262364C4C44205044422E1"],
                                 ["xul.pdb", "0FBE970321AB8CF14C4C44205044422E1"]]}],
         "version": 5}""");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.raw().headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.json())
        .isEqualTo(
            ApiClient.json(
                """
        {"results": [{"stacks": [[
          {"frame": 0, "module": "xul.dll", "module_offset": "0x734e3c",
           "function": "mozilla::dom::JSActorManager::ReceiveRawMessage(mozilla::dom::JSActorMessageMeta const&, mozilla::Maybe<mozilla::dom::ipc::StructuredCloneData>&&, mozilla::Maybe<mozilla::dom::ipc::StructuredCloneData>&&)",
           "function_offset": "0x7dc",
           "file": "hg:hg.mozilla.org/mozilla-central:dom/ipc/jsactor/JSActorManager.cpp:55c63a6c547f1fecd412505a064f21fd1e1ec48e",
           "line": 172},
          {"frame": 1, "module": "xul.dll", "module_offset": "0x7296fa",
           "function": "mozilla::dom::WindowGlobalChild::RecvRawMessage(mozilla::dom::JSActorMessageMeta const&, mozilla::Maybe<mozilla::dom::ClonedMessageData> const&, mozilla::Maybe<mozilla::dom::ClonedMessageData> const&)",
           "function_offset": "0x1ba",
           "file": "hg:hg.mozilla.org/mozilla-central:dom/ipc/WindowGlobalChild.cpp:55c63a6c547f1fecd412505a064f21fd1e1ec48e",
           "line": 586}]],
          "found_modules": {"firefox.pdb/C0A5F7D110D262364C4C44205044422E1": null,
                            "xul.pdb/0FBE970321AB8CF14C4C44205044422E1": true}}]}"""));
  }

  @Test
  void mozillaV4DocumentedExampleOnBothUrls() throws Exception {
    String body =
        """
        {"memoryMap": [["xul.pdb", "44E4EC8C2F41492B9369D6B9A059577C2"],
                       ["wntdll.pdb", "D74F79EB1F8D4A45ABCD2F476CCABACC2"]],
         "stacks": [[[0, 11723767], [1, 65802]]], "version": 4}""";
    JsonNode expected =
        ApiClient.json(
            """
        {"symbolicatedStacks": [["XREMain::XRE_mainRun() (in xul.pdb)", "KiUserCallbackDispatcher (in wntdll.pdb)"]],
         "knownModules": [true, true]}""");
    for (String path : List.of("/symbolicate/v4", "/")) {
      var r = client.post(path, body);
      assertThat(r.status()).as(path).isEqualTo(200);
      assertThat(r.json()).as(path).isEqualTo(expected);
    }
  }

  @Test
  void v4DebugBlockAndNonIntegerOffsets() throws Exception {
    // a fresh module (the fixture with inlines, never asked before in this class's other tests)
    var r =
        client.post(
            "/symbolicate/v4",
            """
        {"debug": true, "memoryMap": [["testproj", "0905AE80CEE75A33E3CAB61C274274DE0"],
                                      ["nothere.pdb", "44E4EC8C2F41492B9369D6B9A059577C9"]],
         "stacks": [[[0, 31296], [0, 1.00000], [1, 4096]]], "version": 4}""");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("symbolicatedStacks"))
        .isEqualTo(
            ApiClient.json(
                "[[\"testproj::main (in testproj)\", \"1.00000\", \"0x1000 (in nothere.pdb)\"]]"));
    assertThat(r.json().get("knownModules")).isEqualTo(ApiClient.json("[true, false]"));
    JsonNode d = r.json().get("debug");
    assertThat(d.at("/modules/count").asInt()).isEqualTo(2);
    assertThat(
            d.at("/modules/stacks_per_module/testproj~10905AE80CEE75A33E3CAB61C274274DE0").asInt())
        .isEqualTo(2);
    assertThat(d.at("/stacks/count").asInt()).isEqualTo(3);
    assertThat(d.at("/stacks/real").asInt()).isEqualTo(2);
    assertThat(d.at("/cache_lookups/count").asInt()).isEqualTo(2);
    assertThat(d.at("/downloads/count").asInt())
        .as("the found module was downloaded for this request")
        .isEqualTo(1);
    assertThat(d.at("/downloads/size").asLong())
        .isEqualTo(
            Files.size(symbols.resolve("testproj/0905AE80CEE75A33E3CAB61C274274DE0/testproj.sym")));
    assertThat(d.has("time")).isTrue();
  }

  /** As Mozilla's service, v5 also turns the debug block on with a {@code Debug} header. */
  @Test
  void v5DebugBlockFromTheDebugHeader() throws Exception {
    String body =
        """
        {"jobs": [{"stacks": [[[0, 21376]]], "memoryMap": [["testproj", "D48F191186D67E69DF025AD71FB91E1F0"]]}]}""";
    var r =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .header("Content-Type", "application/json")
                .header("Debug", "true")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().at("/debug/modules/count").asInt()).isEqualTo(1);
    assertThat(r.json().at("/results/0/stacks/0/0/function").asText()).isEqualTo("testproj::main");
    assertThat(client.post("/symbolicate/v5", body).json().has("debug"))
        .as("no header, no key")
        .isFalse();
  }

  @Test
  void everyPeerApiCase() throws Exception {
    JsonNode cases =
        Json.MAPPER
            .readTree(SharedFixtures.fixtures("native").resolve("cases.json").toFile())
            .get("cases");
    int checked = 0;
    for (JsonNode c : cases) {
      for (JsonNode lookup : c.get("lookups")) {
        if (!lookup.has("api_v5_frame") && !lookup.has("api_v4_string")) {
          continue;
        }
        String[] module =
            Files.readAllLines(SharedFixtures.fixtures("native").resolve(c.get("symfile").asText()))
                .get(0)
                .split(" ");
        long address = Long.parseLong(lookup.get("address").asText().substring(2), 16);
        String mm = "[[\"" + module[4] + "\", \"" + module[3] + "\"]]";
        if (lookup.has("api_v5_frame")) {
          var r =
              client.post(
                  "/symbolicate/v5",
                  "{\"jobs\": [{\"memoryMap\": "
                      + mm
                      + ", \"stacks\": [[[0, "
                      + address
                      + "]]]}]}");
          assertThat(r.status()).isEqualTo(200);
          assertThat(r.json().at("/results/0/stacks/0/0"))
              .as(c.get("id").asText())
              .isEqualTo(lookup.get("api_v5_frame"));
          assertThat(
                  r.json()
                      .at("/results/0/found_modules/" + module[4] + "~1" + module[3])
                      .asBoolean())
              .isTrue();
          checked++;
        }
        if (lookup.has("api_v4_string")) {
          var r =
              client.post(
                  "/symbolicate/v4",
                  "{\"memoryMap\": "
                      + mm
                      + ", \"stacks\": [[[0, "
                      + address
                      + "]]], \"version\": 4}");
          assertThat(r.status()).isEqualTo(200);
          assertThat(r.json().at("/symbolicatedStacks/0/0").asText())
              .as(c.get("id").asText())
              .isEqualTo(lookup.get("api_v4_string").asText());
          checked++;
        }
      }
    }
    assertThat(checked).as("api cases in the fixtures").isGreaterThanOrEqualTo(4);
  }

  @Test
  void unknownModulesAndFramesOutsideModules() throws Exception {
    var r =
        client.post(
            "/symbolicate/v5",
            """
        {"jobs": [{"memoryMap": [["testproj", "D48F191186D67E69DF025AD71FB91E1F0"],
                                 ["absent.pdb", "1234ABCD1234ABCD1234ABCD1234ABCD1"],
                                 ["broken", "ABCDEF0123456789ABCDEF01234567890"]],
                   "stacks": [[[-1, 4096], [1, 16], [2, 32], [0, 21376], [0, 1]]]}]}""");
    assertThat(r.status()).isEqualTo(200);
    JsonNode s = r.json().at("/results/0/stacks/0");
    assertThat(s.get(0))
        .isEqualTo(
            ApiClient.json(
                "{\"frame\": 0, \"module\": \"<unknown>\", \"module_offset\": \"0x1000\"}"));
    assertThat(s.get(1))
        .isEqualTo(
            ApiClient.json(
                "{\"frame\": 1, \"module\": \"absent.pdb\", \"module_offset\": \"0x10\"}"));
    assertThat(s.get(2))
        .isEqualTo(
            ApiClient.json("{\"frame\": 2, \"module\": \"broken\", \"module_offset\": \"0x20\"}"));
    assertThat(s.get(3).get("function").asText()).isEqualTo("testproj::main");
    assertThat(s.get(4).has("function")).as("no symbol below the first FUNC").isFalse();
    assertThat(r.json().at("/results/0/found_modules"))
        .isEqualTo(
            ApiClient.json(
                """
        {"testproj/D48F191186D67E69DF025AD71FB91E1F0": true,
         "absent.pdb/1234ABCD1234ABCD1234ABCD1234ABCD1": false,
         "broken/ABCDEF0123456789ABCDEF01234567890": false}"""));
  }

  /**
   * Scope first in the API, in both orders: a tenant's own copy answers its requests even when
   * the global copy of the same module was loaded (and cached) first, and the other way round.
   */
  @Test
  void aTenantsOwnCopyWinsWhetherOrNotTheGlobalOneIsCached() throws Exception {
    String[] ids = {"5C0BE0F1000000000000000000000001A", "5C0BE0F1000000000000000000000001B"};
    for (String id : ids) {
      String module = "MODULE windows x86_64 " + id + " scoped.pdb\n";
      place(module, module + "PUBLIC 1000 0 global_copy\n");
      placeIn(symbols.resolve("scopes/tenant-a"), module, module + "PUBLIC 1000 0 tenant_copy\n");
    }
    // order 1: the global copy is loaded and cached before the tenant asks
    assertThat(scopedFunction(null, ids[0])).isEqualTo("global_copy");
    assertThat(scopedFunction("tenant-a", ids[0])).isEqualTo("tenant_copy");
    // order 2: the tenant asks first, then the global scope
    assertThat(scopedFunction("tenant-a", ids[1])).isEqualTo("tenant_copy");
    assertThat(scopedFunction(null, ids[1])).isEqualTo("global_copy");
    // and a scope without a copy of its own gets the global one
    assertThat(scopedFunction("tenant-b", ids[0])).isEqualTo("global_copy");
    // without the tenant's key, the tenant's copy is not readable at all
    var noKey =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .header(ShapeHandler.SCOPE_HEADER, "tenant-a")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jobs\": [{\"memoryMap\": [[\"scoped.pdb\", \""
                            + ids[0]
                            + "\"]], \"stacks\": [[[0, 4096]]]}]}"))
                .build());
    assertError(noKey, 403, "scope 'tenant-a' needs an API key allowed to symbolicate");
    var otherKey =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .header(ShapeHandler.SCOPE_HEADER, "tenant-a")
                .header("Authorization", "APIKey key-b")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jobs\": []}"))
                .build());
    assertError(otherKey, 403, "the API key is for scope 'tenant-b', not 'tenant-a'");
  }

  private String scopedFunction(String scope, String debugId) throws Exception {
    var b =
        HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"jobs\": [{\"memoryMap\": [[\"scoped.pdb\", \""
                        + debugId
                        + "\"]], \"stacks\": [[[0, 4096]]]}]}"));
    if (scope != null) {
      // a tenant's symbols need the tenant's key (docs/api/keys.md); its keys are key-a, key-b
      b.header(ShapeHandler.SCOPE_HEADER, scope)
          .header("Authorization", "APIKey key-" + scope.substring("tenant-".length()));
    }
    var r = client.send(b.build());
    assertThat(r.status()).isEqualTo(200);
    return r.json().at("/results/0/stacks/0/0/function").asText();
  }

  @Test
  void tenJobsShareOneModuleLookup() throws Exception {
    StringBuilder b = new StringBuilder("{\"debug\": true, \"jobs\": [");
    for (int j = 0; j < 10; j++) {
      b.append(j == 0 ? "" : ",")
          .append(
              "{\"memoryMap\": [[\"testproj\", \"D48F191186D67E69DF025AD71FB91E1F0\"]],"
                  + " \"stacks\": [[[0, 21376], [0, 21380]]]}");
    }
    var r = client.post("/symbolicate/v5", b.append("]}").toString());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("results")).hasSize(10);
    assertThat(r.json().at("/results/9/stacks/0/1/function").asText()).isEqualTo("testproj::main");
    assertThat(r.json().at("/debug/modules/count").asInt())
        .as("one module, looked up once")
        .isEqualTo(1);
    assertThat(r.json().at("/debug/cache_lookups/count").asInt()).isEqualTo(1);
  }

  @Test
  void badRequestsGetAReasonAndTheServerStaysUp() throws Exception {
    String ok = "{\"jobs\": [{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[[0, 1]]]}]}";
    assertError(
        client.post("/symbolicate/v5", "{\"jobs\": [{\"stacks\": [[[0, 12"), 400, "not valid JSON");
    assertError(client.post("/symbolicate/v5", ""), 400, "not valid JSON");
    assertError(client.post("/symbolicate/v5", "{} {}"), 400, "not valid JSON");
    assertError(
        client.post("/symbolicate/v5", ok.replace("[0, 1]", "[0, -5]")),
        400,
        "invalid module_offset");
    assertError(
        client.post("/symbolicate/v5", ok.replace("[0, 1]", "[0, \"0x10\"]")),
        400,
        "invalid module_offset");
    assertError(
        client.post("/symbolicate/v5", ok.replace("[0, 1]", "[3, 1]")),
        400,
        "module_index that isn't in modules");
    assertError(
        client.post("/symbolicate/v5", ok.replace("a.pdb", "../../etc/passwd")),
        400,
        "invalid debug_filename");
    assertError(
        client.post("/symbolicate/v5", ok.replace("a.pdb", "..")), 400, "invalid debug_filename");
    assertError(
        client.post("/symbolicate/v5", ok.replace("a.pdb", "x\u00fcl\u2603.pdb")),
        400,
        "invalid debug_filename");
    assertError(
        client.post("/symbolicate/v5", ok.replace("\"AB\"", "\"AB/../x\"")),
        400,
        "invalid debug_id");
    assertError(
        client.post("/symbolicate/v5", ok.replace("\"AB\"", "\"G1\"")), 400, "invalid debug_id");
    assertError(
        client.post(
            "/symbolicate/v5",
            "{\"jobs\": ["
                + String.join(",", Collections.nCopies(11, "{\"memoryMap\": [], \"stacks\": [[]]}"))
                + "]}"),
        400,
        "limit number of jobs");
    assertError(
        client.post("/symbolicate/v5", "{\"jobs\": [{\"stacks\": [[]]}]}"), 400, "no memoryMap");
    assertError(client.post("/symbolicate/v5", "[1, 2]"), 400, "JSON object");
    assertError(
        client.post("/symbolicate/v5", "[".repeat(5000) + "]".repeat(5000)), 400, "not valid JSON");
    assertError(
        client.post("/symbolicate/v5", ok.replace("[0, 1]", "[0, 1" + "0".repeat(2000) + "]")),
        400,
        "not valid JSON");
    assertError(
        client.post("/symbolicate/v5", ok.replace("[0, 1]", "[0, 99999999999999999999]")),
        400,
        "invalid module_offset");
    assertError(
        client.post("/symbolicate/v5", ok.replace("\"AB\"", "\"" + "A".repeat(100) + "\"")),
        400,
        "invalid debug_id");
    assertError(client.post("/symbolicate/v4", ok), 400, "no stacks");

    // 10^6 frames: within the body limit of this server (20 MB), over the frame limit
    StringBuilder many =
        new StringBuilder("{\"jobs\": [{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[");
    for (int i = 0; i < 1_000_000; i++) {
      many.append(i == 0 ? "" : ",").append("[0,").append(i).append(']');
    }
    assertError(client.post("/symbolicate/v5", many.append("]]}]}").toString()), 413, "frames");

    // ~1.7M empty stacks in 5 MB: no frame, but far over the limit of frames, stacks and modules
    String empty = "{\"memoryMap\": [], \"stacks\": [" + "[],".repeat(1_750_000) + "[]]}";
    assertError(
        client.post("/symbolicate/v5", "{\"jobs\": [" + empty + "]}"),
        413,
        "request has 0 frames, 1750001 stacks and 0 modules; each may number at most 100000 (http.max.frames)");
    assertError(client.post("/symbolicate/v4", empty), 413, "1750001 stacks");

    // 1,001 distinct modules, each used by a frame: refused before any is looked for
    StringBuilder mods = new StringBuilder("{\"jobs\": [{\"memoryMap\": [");
    StringBuilder frames = new StringBuilder("], \"stacks\": [[");
    for (int i = 0; i < 1001; i++) {
      mods.append(i == 0 ? "" : ",")
          .append("[\"m")
          .append(i)
          .append(".pdb\", \"")
          .append(String.format("%032X1", i))
          .append("\"]");
      frames.append(i == 0 ? "" : ",").append('[').append(i).append(",16]");
    }
    String manyModules = mods.append(frames).append("]]}]}").toString();
    assertError(
        client.post("/symbolicate/v5", manyModules),
        413,
        "request needs 1001 modules; the limit is 1000");

    // 100 MB: refused from its Content-Length, before it is read
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) ' ');
    var big =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .POST(
                    HttpRequest.BodyPublishers.fromPublisher(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () -> new RepeatingInput(chunk, 100)),
                        100L << 20))
                .build());
    assertError(big, 413, "exceeds the limit");
    // the same without a length (chunked): refused once the limit is read
    var chunked =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(() -> new RepeatingInput(chunk, 100)))
                .build());
    assertError(chunked, 413, "exceeds the limit");

    assertError(
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5")).GET().build()),
        405,
        "POST");
    assertError(client.post("/nothing-here", ok), 404, "no such endpoint");
    // CORS by default: any origin, but no scope header (a tenant's private symbols)
    var preflight =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .header("Origin", "https://elsewhere.example")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(preflight.status()).isEqualTo(204);
    assertThat(preflight.raw().headers().firstValue("Access-Control-Allow-Methods"))
        .hasValue("POST, OPTIONS");
    assertThat(preflight.raw().headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
    assertThat(preflight.raw().headers().firstValue("Access-Control-Allow-Headers"))
        .hasValue("Content-Type");
    assertThat(preflight.raw().headers().firstValue("Vary"))
        .as("the same answer for every origin")
        .isEmpty();
    var scoped =
        client.send(
            HttpRequest.newBuilder(api.server().uri().resolve("/symbolicate/v5"))
                .header("Origin", "https://elsewhere.example")
                .header(ShapeHandler.SCOPE_HEADER, "tenant-a")
                .POST(HttpRequest.BodyPublishers.ofString(ok))
                .build());
    assertError(scoped, 403, ShapeHandler.SCOPE_HEADER + " is not allowed from origin");
    // still up and answering
    assertThat(client.post("/symbolicate/v5", ok).status()).isEqualTo(200);
  }

  @Test
  void overloadIsRefusedWith503AndAStuckModuleIsAnsweredAtTheDeadline(@TempDir Path dir)
      throws Exception {
    // symbols whose loader never answers: a request waits for its module until the deadline
    try (LocalTableStore store = new LocalTableStore(dir)) {
      ApiSymbols never = neverLoaded(store);
      ApiSettings s =
          new ApiSettings("127.0.0.1", 0, 2, 1 << 20, 1000, Duration.ofMillis(4000), 7, 0);
      Symbolication routes =
          new Symbolication(new ApiSymbolicator(SymbolEngines.steps(), never), s);
      try (ApiServer server =
          ApiServer.start(s, ApiRuntime.routes(ApiRuntime.Parts.symbolication(routes)))) {
        ApiClient c = new ApiClient(server.uri());
        String body =
            "{\"jobs\": [{\"memoryMap\": [[\"slow.pdb\", \"AB\"]], \"stacks\": [[[0, 1]]]}]}";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
          List<Future<ApiClient.Response>> slow = new ArrayList<>();
          for (int i = 0; i < 2; i++) {
            slow.add(pool.submit(() -> c.post("/symbolicate/v5", body)));
          }
          awaitInFlight(routes, 2); // both admitted and waiting for their module
          ApiClient.Response refused = c.post("/symbolicate/v5", body);
          assertError(refused, 503, "too many requests");
          assertThat(refused.raw().headers().firstValue("Retry-After")).hasValue("7");
          for (Future<ApiClient.Response> f : slow) {
            ApiClient.Response r = f.get();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().at("/results/0/found_modules/slow.pdb~1AB").asBoolean(true))
                .isFalse();
          }
          // permits are back
          assertThat(routes.inFlight()).isZero();
          assertThat(routes.refused()).isEqualTo(1);
        } finally {
          pool.shutdownNow();
        }
      }
    }
  }

  /**
   * Requests are admitted by the heap their bodies may claim as well as by count: with room for
   * four requests but a budget of 110 KB, one 2 KB request in flight (65 KB claimed, and 1 KB for
   * each of its frame, stack and module) leaves no room for another of its size, nor for a small
   * one of many empty stacks (32 KB for its body, 1 KB per stack), and room for a small one.
   */
  @Test
  void requestDataInFlightIsBoundedByTheHeapBudget(@TempDir Path dir) throws Exception {
    try (LocalTableStore store = new LocalTableStore(dir)) {
      ApiSymbols never = neverLoaded(store);
      ApiSettings s =
          new ApiSettings("127.0.0.1", 0, 4, 1 << 20, 1000, Duration.ofMillis(3000), 3, 110 << 10);
      Symbolication routes =
          new Symbolication(new ApiSymbolicator(SymbolEngines.steps(), never), s);
      try (ApiServer server =
          ApiServer.start(s, ApiRuntime.routes(ApiRuntime.Parts.symbolication(routes)))) {
        ApiClient c = new ApiClient(server.uri());
        // 2 KB: the stuck module's request, padded with JSON whitespace
        String big =
            "{\"jobs\": [{\"memoryMap\": [[\"slow.pdb\", \"AB\"]], \"stacks\": [[[0, 1]]]}]}"
                + " ".repeat(2000);
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
          Future<ApiClient.Response> slow = pool.submit(() -> c.post("/symbolicate/v5", big));
          awaitInFlight(routes, 1);
          ApiClient.Response refused = c.post("/symbolicate/v5", big);
          assertError(refused, 503, "too much request data");
          assertThat(refused.raw().headers().firstValue("Retry-After")).hasValue("3");
          // no frame at all, but each empty stack is claimed for as a frame is
          String stacks = String.join(",", Collections.nCopies(40, "[]"));
          assertError(
              c.post(
                  "/symbolicate/v5",
                  "{\"jobs\": [{\"memoryMap\": [], \"stacks\": [" + stacks + "]}]}"),
              503,
              "this request has 0 frames, 40 stacks and 0 modules");
          ApiClient.Response small =
              c.post("/symbolicate/v5", "{\"jobs\": [{\"memoryMap\": [], \"stacks\": [[]]}]}");
          assertThat(small.status()).isEqualTo(200);
          assertThat(slow.get().status()).isEqualTo(200);
          assertThat(routes.inFlight()).isZero();
          assertThat(routes.refused()).isEqualTo(2);
        } finally {
          pool.shutdownNow();
        }
      }
    }
  }

  /** Origins listed by name get their own origin back, and may send a scope; others get nothing. */
  @Test
  void listedOriginsMayCallWithAScopeAndOthersMayNot(@TempDir Path dir) throws Exception {
    try (LocalTableStore store = new LocalTableStore(dir)) {
      ApiSettings s =
          new ApiSettings("127.0.0.1", 0, 2, 1 << 20, 1000, Duration.ofMillis(1000), 1, 0)
              .withCors(CorsPolicy.parse("https://profiler.firefox.com"));
      Symbolication routes =
          new Symbolication(new ApiSymbolicator(SymbolEngines.steps(), neverLoaded(store)), s)
              .withAccess(
                  new ScopeAccess(
                      ApiKeys.parse(ApiKeys.hash("key-a") + "=tenant-a:symbolicate"),
                      Set.of(DebugIdentifiers.GLOBAL_SCOPE)));
      Handler up =
          (request, response) ->
              Exchanges.json(response, 200, Json.MAPPER.createObjectNode().put("status", "UP"));
      try (ApiServer server =
          ApiServer.start(
              s, ApiRuntime.routes(ApiRuntime.Parts.symbolication(routes).withHealth(up)))) {
        ApiClient c = new ApiClient(server.uri());
        String empty = "{\"jobs\": [{\"memoryMap\": [], \"stacks\": [[]]}]}";
        for (String path : List.of("/symbolicate/v5", "/symbolicate-js")) {
          var listed =
              c.send(
                  HttpRequest.newBuilder(server.uri().resolve(path))
                      .header("Origin", "https://profiler.firefox.com")
                      .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                      .build());
          assertThat(listed.status()).isEqualTo(204);
          assertThat(listed.raw().headers().firstValue("Access-Control-Allow-Origin"))
              .hasValue("https://profiler.firefox.com");
          assertThat(listed.raw().headers().firstValue("Access-Control-Allow-Headers"))
              .hasValue("Content-Type, Authorization, " + ShapeHandler.SCOPE_HEADER);
          assertThat(listed.raw().headers().firstValue("Vary")).hasValue("Origin");
          var other =
              c.send(
                  HttpRequest.newBuilder(server.uri().resolve(path))
                      .header("Origin", "https://elsewhere.example")
                      .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                      .build());
          assertThat(other.raw().headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
          assertThat(other.raw().headers().firstValue("Access-Control-Allow-Headers")).isEmpty();
        }
        var posted =
            c.send(
                HttpRequest.newBuilder(server.uri().resolve("/symbolicate/v5"))
                    .header("Origin", "https://profiler.firefox.com")
                    .header(ShapeHandler.SCOPE_HEADER, "tenant-a")
                    .header("Authorization", "APIKey key-a")
                    .POST(HttpRequest.BodyPublishers.ofString(empty))
                    .build());
        assertThat(posted.status()).isEqualTo(200);
        assertThat(posted.raw().headers().firstValue("Access-Control-Allow-Origin"))
            .hasValue("https://profiler.firefox.com");
        // a scope from any other page is refused by the server too, not only by the preflight
        var scopedElsewhere =
            c.send(
                HttpRequest.newBuilder(server.uri().resolve("/symbolicate/v5"))
                    .header("Origin", "https://elsewhere.example")
                    .header(ShapeHandler.SCOPE_HEADER, "tenant-a")
                    .POST(HttpRequest.BodyPublishers.ofString(empty))
                    .build());
        assertError(scopedElsewhere, 403, "not allowed from origin https://elsewhere.example");
        // a key of a tenant from any other page: no private symbols either
        assertError(
            c.send(
                HttpRequest.newBuilder(server.uri().resolve("/symbolicate/v5"))
                    .header("Origin", "https://elsewhere.example")
                    .header("Authorization", "APIKey key-a")
                    .POST(HttpRequest.BodyPublishers.ofString(empty))
                    .build()),
            403,
            "not readable from origin");
        // no Origin (not a browser): a scope as usual, with its key
        assertThat(
                c.send(
                        HttpRequest.newBuilder(server.uri().resolve("/symbolicate/v5"))
                            .header(ShapeHandler.SCOPE_HEADER, "tenant-a")
                            .header("Authorization", "APIKey key-a")
                            .POST(HttpRequest.BodyPublishers.ofString(empty))
                            .build())
                    .status())
            .isEqualTo(200);
        var refused =
            c.send(
                HttpRequest.newBuilder(server.uri().resolve("/symbolicate/v5"))
                    .header("Origin", "https://elsewhere.example")
                    .POST(HttpRequest.BodyPublishers.ofString("{"))
                    .build());
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.raw().headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        // health and metrics answer no other origin, whatever the policy
        var health =
            c.send(
                HttpRequest.newBuilder(server.uri().resolve("/health"))
                    .header("Origin", "https://profiler.firefox.com")
                    .GET()
                    .build());
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.raw().headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
      }
    }
  }

  /**
   * Clients that send half a request used to hold a handler thread each for ever: as many of
   * them as the server had threads stopped it. Now headers are parsed on Jetty's selectors and a
   * symbolication body is received before it takes a thread or a permit; a body behind the
   * minimum rate is cut off (408) after the body grace, and the server answers throughout.
   */
  @Test
  void clientsThatNeverFinishTheirRequestAreCutOff(@TempDir Path dir) throws Exception {
    try (LocalTableStore store = new LocalTableStore(dir)) {
      ApiSymbols none = neverLoaded(store);
      ApiSettings s =
          new ApiSettings("127.0.0.1", 0, 1, 1 << 20, 1000, Duration.ofMillis(1000), 1, 0);
      Symbolication routes = new Symbolication(new ApiSymbolicator(SymbolEngines.steps(), none), s);
      ServerLimits limits =
          ServerLimits.defaults()
              .withTimeouts(
                  Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(2), 1024);
      try (ApiServer server =
          ApiServer.start(s, ApiRuntime.routes(ApiRuntime.Parts.symbolication(routes)), limits)) {
        List<Socket> stalled = new ArrayList<>();
        try {
          // more than the admission limit (1): a body started, or half a header, each
          for (int i = 0; i < 6; i++) {
            Socket c = new Socket("127.0.0.1", server.port());
            c.getOutputStream()
                .write(
                    (i % 2 == 0
                            ? "POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"
                            : "POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Le")
                        .getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
            stalled.add(c);
          }
          // meanwhile a complete request is admitted and answered: nothing holds the permit
          ApiClient.Response ok =
              new ApiClient(server.uri())
                  .post("/symbolicate/v5", "{\"jobs\": [{\"memoryMap\": [], \"stacks\": [[]]}]}");
          assertThat(ok.status()).isEqualTo(200);
          assertThat(routes.inFlight()).isZero();
          long t0 = System.nanoTime();
          for (int i = 0; i < stalled.size(); i++) {
            Socket c = stalled.get(i);
            c.setSoTimeout(20_000);
            String got;
            try {
              got = new String(c.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            } catch (SocketException reset) {
              got = ""; // closed with our unread bytes still in its buffer: a reset
            }
            if (i % 2 == 0) {
              assertThat(got)
                  .as("a body behind the minimum rate")
                  .startsWith("HTTP/1.1 408 ")
                  .contains("too slowly");
            } else {
              assertThat(got).as("headers never finished: closed").isEmpty();
            }
          }
          assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
          assertThat(routes.claimedBytes()).isZero();
          ApiClient.Response r =
              new ApiClient(server.uri())
                  .post("/symbolicate/v5", "{\"jobs\": [{\"memoryMap\": [], \"stacks\": [[]]}]}");
          assertThat(r.status()).isEqualTo(200);
        } finally {
          for (Socket c : stalled) {
            c.close();
          }
        }
      }
    }
  }

  /** Waits (up to 3 s) until {@code n} requests are admitted, and checks they are. */
  private static void awaitInFlight(Symbolication routes, int n) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (routes.inFlight() < n && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    assertThat(routes.inFlight()).isEqualTo(n);
  }

  /** Symbols whose loader never answers: a request waits for its modules until its deadline. */
  private static ApiSymbols neverLoaded(LocalTableStore store) {
    return new ApiSymbols() {
      @Override
      public TableReader tables() {
        return store;
      }

      @Override
      public PageCache pageCache() {
        return new PageCache(1 << 20);
      }

      @Override
      public void request(ModuleRef ref, RequestReason reason) {}
    };
  }

  /** {@code n} copies of a chunk, without holding them in memory. */
  static final class RepeatingInput extends InputStream {
    private final byte[] chunk;
    private int left;
    private int pos;

    RepeatingInput(byte[] chunk, int n) {
      this.chunk = chunk;
      this.left = n;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = Math.min(len, chunk.length - pos);
      System.arraycopy(chunk, pos, b, off, n);
      pos += n;
      if (pos == chunk.length) {
        pos = 0;
        left--;
      }
      return n;
    }
  }
}

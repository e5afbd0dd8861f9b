package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.ApiServer;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.api.server.ServerLimits;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.events.SampleSymbols;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upload routes on real JDK servers over directory stores (two servers share them, as two
 * instances share the bucket): parts assemble into the files the loader reads, with one
 * announcement; every refusal gets the document's JSON error and leaves nothing behind; parts
 * of a file that never completes are swept after the expiry.
 */
class UploadHandlersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "QzJqQ1Q0WUI1NlR0QVl4NTlZcXg6Y0xhcFN1S2tTSXlyTFlNTUloclJvdw==";
  private static final String READ_ONLY_KEY = "only-symbolicate";
  static final String JS_DEBUG_ID = "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10";
  static final String CRASHY = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym";
  static final String LIBC = "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900/libc.so.6.sym";

  @TempDir Path symbols;
  @TempDir Path staging;
  private final List<String> announced = new CopyOnWriteArrayList<>();
  private final List<ApiServer> servers = new ArrayList<>();
  private final List<UploadService> services = new ArrayList<>();
  private final HttpClient client = HttpClient.newHttpClient();

  private URI start(UploadLimits limits) throws IOException {
    return start(limits, ServerLimits.defaults());
  }

  private URI start(UploadLimits limits, ServerLimits server) throws IOException {
    ApiKeys keys =
        ApiKeys.parse(
            ApiKeys.hash(KEY)
                + "=acme:upload,"
                + ApiKeys.hash(READ_ONLY_KEY)
                + "=acme:symbolicate");
    UploadService service =
        new UploadService(
            new DirectoryUploadStore(symbols),
            new DirectoryUploadStore(staging),
            m -> announced.add(m.toString()),
            limits);
    services.add(service);
    RouteTable routes =
        RouteTable.builder()
            .add(
                Route.SYMBOLS_RANGES,
                new SymbfileUploadHandler(SymbfileFormat.RANGES, keys, service))
            .add(
                Route.SYMBOLS_RETURNPADS,
                new SymbfileUploadHandler(SymbfileFormat.RETURN_PADS, keys, service))
            .add(Route.SYMBOLS_BREAKPAD, new BreakpadUploadHandler(keys, service))
            .add(
                Route.SYMBOLS_SOURCEMAP,
                new JsUploadHandler(JsFormat.Kind.SOURCEMAP, keys, service))
            .add(Route.SYMBOLS_MINIFIED, new JsUploadHandler(JsFormat.Kind.MINIFIED, keys, service))
            .add(Route.SYMBOLS_PROGUARD, new ProguardUploadHandler(keys, service))
            .add(Route.SYMBOLS_DEBUGFILE, new DebugFileUploadHandler(keys, service))
            .add(Route.SYMBOLS_PATH, new SymbolPathUploadHandler(keys, service))
            .build();
    ApiServer s = ApiServer.start(ApiSettings.defaults().withPort(0), routes, server);
    servers.add(s);
    return s.uri();
  }

  @AfterEach
  void stop() {
    servers.forEach(ApiServer::close);
    services.forEach(UploadService::close);
  }

  static byte[] ranges() throws IOException {
    return Files.readAllBytes(
        SharedFixtures.fixtures("symbfile")
            .resolve(
                "otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile"));
  }

  static byte[] demo(String key) {
    return SampleSymbols.uploads().stream()
        .filter(u -> u.key().equals(key))
        .findFirst()
        .map(SampleSymbols.Upload::body)
        .orElseThrow();
  }

  private HttpResponse<String> post(
      URI base, String route, Map<String, String> headers, byte[] body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(route))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> part(
      URI base, String route, FileId id, int part, int parts, byte[] body, String key)
      throws Exception {
    Map<String, String> h =
        new HashMap<>(
            Map.of(
                "FileID",
                id.toBase64(),
                "FilePart",
                Integer.toString(part),
                "FileParts",
                Integer.toString(parts)));
    if (key != null) {
      h.put("Authorization", "APIKey " + key);
    }
    return post(base, route, h, body);
  }

  /**
   * The files in both stores, but the marks of stored uploads (the parts' digests, kept in the
   * staging area until the expiry so that a part sent again stages nothing).
   */
  private List<Path> files() throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path root : List.of(symbols, staging)) {
      try (Stream<Path> s = Files.walk(root)) {
        s.filter(Files::isRegularFile)
            .filter(p -> !p.toString().endsWith(UploadService.DONE_SUFFIX))
            .forEach(out::add);
      }
    }
    return out;
  }

  static void assertOk(HttpResponse<String> r) throws IOException {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(JSON.readTree(r.body()))
        .isEqualTo(JSON.readTree("{\"success\":true,\"status\":200}"));
  }

  static void assertError(HttpResponse<String> r, int status, String code, String text)
      throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode j = JSON.readTree(r.body());
    assertThat(j.get("success").asBoolean()).isFalse();
    assertThat(j.get("status").asInt()).isEqualTo(status);
    assertThat(j.get("uuid").asText()).matches("[0-9a-f-]{36}");
    assertThat(j.get("error").get("Code").asText()).isEqualTo(code);
    assertThat(j.get("error").get("Text").asText()).contains(text);
  }

  @Test
  void threePartsSentToTwoInstancesAssembleIntoTheLoadersFile() throws Exception {
    URI a = start(UploadLimits.defaults());
    URI b = start(UploadLimits.defaults());
    byte[] file = ranges();
    FileId id = FileId.of(file);
    int cut1 = file.length / 3;
    int cut2 = 2 * file.length / 3;
    byte[][] parts = {
      Arrays.copyOfRange(file, 0, cut1),
      Arrays.copyOfRange(file, cut1, cut2),
      Arrays.copyOfRange(file, cut2, file.length)
    };
    // out of order, over both instances; part 1 sent twice (a retry is harmless)
    for (int i : new int[] {2, 1, 1}) {
      assertOk(part(i == 1 ? b : a, "/api/symbols-ranges", id, i, 3, parts[i], KEY));
    }
    assertThat(announced).isEmpty();
    assertThat(files()).hasSize(2);
    assertOk(part(a, "/api/symbols-ranges", id, 0, 3, parts[0], KEY));
    Path stored = symbols.resolve(SymbfileKeys.ranges("acme", id));
    assertThat(stored).hasBinaryContent(file);
    assertThat(files()).containsExactly(stored); // the parts are gone
    assertThat(announced).containsExactly("acme|N|" + SymbfileKeys.moduleKey(id));
  }

  /** A client that stops sending is refused as the client's fault (it was a 500 before). */
  @Test
  void aBodyThatStopsArrivingIs408AndStagesNothing() throws Exception {
    // 1 s of grace, then at least 1 KiB/s
    URI a =
        start(
            UploadLimits.defaults(),
            ServerLimits.defaults()
                .withTimeouts(
                    Duration.ofSeconds(20), Duration.ofSeconds(1), Duration.ofSeconds(1), 1024));
    try (Socket slow = new Socket("127.0.0.1", a.getPort())) {
      slow.setSoTimeout(10_000);
      slow.getOutputStream()
          .write(
              ("POST /api/symbols-ranges HTTP/1.1\r\nHost: x\r\nAuthorization: APIKey "
                      + KEY
                      + "\r\nFileID: "
                      + FileId.of(new byte[] {1}).toBase64()
                      + "\r\nFilePart: 0\r\nFileParts: 1\r\nContent-Length: 100000\r\n\r\n"
                      + "x".repeat(100))
                  .getBytes(StandardCharsets.US_ASCII));
      slow.getOutputStream().flush();
      String answer = new String(slow.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 408 ");
      JsonNode j = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
      assertThat(j.get("error").get("Code").asText()).isEqualTo(UploadError.BAD_REQUEST);
      assertThat(j.get("error").get("Text").asText()).contains("stopped after 100 bytes");
    }
    assertThat(files()).isEmpty();
    assertThat(services.get(0).answers(408)).as("counted for the metrics").isEqualTo(1);
    assertThat(services.get(0).answers(500)).isZero();
  }

  @Test
  void aMissingWrongOrReadOnlyKeyIsRefusedAndStoresNothing() throws Exception {
    URI a = start(UploadLimits.defaults());
    FileId id = FileId.of(new byte[] {1});
    assertError(part(a, "/api/symbols-ranges", id, 0, 1, ranges(), null), 401, "1001", "APIKey");
    assertError(
        part(a, "/api/symbols-ranges", id, 0, 1, ranges(), KEY + "x"), 403, "1002", "not valid");
    assertError(
        part(a, "/api/symbols-ranges", id, 0, 1, ranges(), READ_ONLY_KEY),
        403,
        "1002",
        "may not upload");
    assertError(
        post(
            a,
            "/api/symbols-breakpad",
            Map.of("Authorization", "APIKey " + READ_ONLY_KEY),
            demo(CRASHY)),
        403,
        "1002",
        "may not upload");
    assertThat(files()).isEmpty();
    assertThat(announced).isEmpty();
  }

  @Test
  void aCorruptFileIsRefusedWhenItCompletesAndLeavesNothing() throws Exception {
    URI a = start(UploadLimits.defaults());
    byte[] file = ranges();
    FileId id = FileId.of(file);
    byte[] first = Arrays.copyOfRange(file, 0, 100);
    byte[] corrupt = Arrays.copyOfRange(file, 100, file.length - 4); // the last message cut short
    assertOk(part(a, "/api/symbols-returnpads", id, 0, 2, first, KEY));
    assertError(
        part(a, "/api/symbols-returnpads", id, 1, 2, corrupt, KEY),
        400,
        "1006",
        "not a valid symbfile");
    assertThat(files()).isEmpty();
    assertThat(announced).isEmpty();
  }

  @Test
  void oversizedPartsTooManyPartsAndBadHeadersAreRefused() throws Exception {
    URI a = start(UploadLimits.defaults().withPartBytes(100).withParts(4));
    FileId id = FileId.of(new byte[] {1});
    assertError(
        part(a, "/api/symbols-ranges", id, 0, 1, new byte[101], KEY),
        413,
        "1004",
        "limit of 100 bytes");
    assertError(
        part(a, "/api/symbols-ranges", id, 0, 5, new byte[10], KEY),
        413,
        "1004",
        "limit of 4 parts");
    assertError(
        part(a, "/api/symbols-ranges", id, 3, 3, new byte[10], KEY), 400, "1003", "FilePart");
    assertError(
        post(
            a,
            "/api/symbols-ranges",
            Map.of(
                "Authorization",
                "APIKey " + KEY,
                "FileID",
                "not-a-file-id",
                "FilePart",
                "0",
                "FileParts",
                "1"),
            new byte[10]),
        400,
        "1003",
        "FileID");
    assertError(
        post(
            a,
            "/api/symbols-ranges",
            Map.of("Authorization", "APIKey " + KEY, "FileID", id.toBase64()),
            new byte[10]),
        400,
        "1003",
        "FileParts");
    assertError(
        post(
            a,
            "/api/symbols-breakpad",
            Map.of("Authorization", "APIKey " + KEY, "FilePart", "0", "FileParts", "2"),
            new byte[10]),
        400,
        "1003",
        "UploadID");
    assertError(
        post(
            a,
            "/api/symbols-breakpad",
            Map.of(
                "Authorization",
                "APIKey " + KEY,
                "FilePart",
                "0",
                "FileParts",
                "2",
                "UploadID",
                "../x"),
            new byte[10]),
        400,
        "1003",
        "upload id");
    HttpResponse<String> get =
        client.send(
            HttpRequest.newBuilder(a.resolve("/api/symbols-ranges")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(get, 405, "1003", "POST");
    assertThat(files()).isEmpty();
  }

  @Test
  void tooManyRequestsOrFilesInFlightAre429() throws Exception {
    URI busy = start(UploadLimits.defaults().withRequestsInFlight(0));
    assertError(
        part(busy, "/api/symbols-ranges", FileId.of(new byte[] {1}), 0, 1, new byte[10], KEY),
        429,
        "1005",
        "requests in flight");
    URI a = start(UploadLimits.defaults().withFilesInFlight(1));
    byte[] file = ranges();
    FileId id = FileId.of(file);
    int cut = file.length / 2;
    assertOk(part(a, "/api/symbols-ranges", id, 0, 2, Arrays.copyOfRange(file, 0, cut), KEY));
    assertError(
        part(a, "/api/symbols-returnpads", id, 0, 2, new byte[10], KEY),
        429,
        "1005",
        "more than 1 files are being uploaded in scope acme");
    // the file in flight goes on, and once it is complete another may start
    assertOk(
        part(a, "/api/symbols-ranges", id, 1, 2, Arrays.copyOfRange(file, cut, file.length), KEY));
    assertThat(announced).hasSize(1);
    assertOk(part(a, "/api/symbols-returnpads", id, 0, 2, new byte[10], KEY));
  }

  @Test
  void partsOfAFileThatNeverCompletesAreSweptAfterTheExpiry() throws Exception {
    start(UploadLimits.defaults());
    UploadService service = services.get(0);
    byte[] file = ranges();
    FileId id = FileId.of(file);
    Path part =
        Files.write(staging.resolveSibling("part-" + id.toHex()), Arrays.copyOfRange(file, 0, 10));
    assertThat(service.receive("acme", SymbfileFormat.RANGES, id.toBase64(), 0, 3, part)).isEmpty();
    assertThat(service.receive("beta", SymbfileFormat.RANGES, id.toBase64(), 1, 3, part)).isEmpty();
    long now = System.currentTimeMillis();
    assertThat(service.sweep(now)).isZero();
    assertThat(files()).hasSize(2);
    // a younger part keeps its file: the expiry counts from a file's last part
    Path acmePart = staging.resolve("acme/symbfile-ranges." + id.toBase64() + "/0-of-3");
    Files.setLastModifiedTime(acmePart, FileTime.fromMillis(now - Duration.ofHours(25).toMillis()));
    assertThat(service.sweep(now)).isEqualTo(1);
    assertThat(files()).extracting(Path::toString).singleElement().asString().contains("beta");
    assertThat(service.sweep(now + Duration.ofHours(24).toMillis() + 60_000)).isEqualTo(1);
    assertThat(files()).isEmpty();
    assertThat(staging).isEmptyDirectory();
    assertThat(announced).isEmpty();
  }

  private Map<String, String> key(String... more) {
    Map<String, String> h = new HashMap<>(Map.of("Authorization", "APIKey " + KEY));
    for (int i = 0; i < more.length; i += 2) {
      h.put(more[i], more[i + 1]);
    }
    return h;
  }

  static byte[] zip(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(bytes)) {
      for (var e : entries.entrySet()) {
        z.putNextEntry(new ZipEntry(e.getKey()));
        z.write(e.getValue());
        z.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  @Test
  void breakpadFilesAndZipsArePlacedByTheirModuleLines() throws Exception {
    URI a = start(UploadLimits.defaults());
    URI b = start(UploadLimits.defaults());
    byte[] sym = demo(CRASHY);
    // one .sym in two parts over both instances, grouped by the client's UploadID
    int cut = sym.length / 2;
    assertOk(
        post(
            a,
            "/api/symbols-breakpad",
            key("FilePart", "1", "FileParts", "2", "UploadID", "build-7"),
            Arrays.copyOfRange(sym, cut, sym.length)));
    assertOk(
        post(
            b,
            "/api/symbols-breakpad",
            key("FilePart", "0", "FileParts", "2", "UploadID", "build-7"),
            Arrays.copyOfRange(sym, 0, cut)));
    assertThat(symbols.resolve("scopes/acme/" + CRASHY)).hasBinaryContent(sym);
    assertThat(announced).containsExactly("acme|N|crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0");

    byte[] libc = SampleSymbols.lateUpload().body();
    assertOk(
        post(
            a,
            "/api/symbols-breakpad",
            key(),
            zip(
                Map.of(
                    CRASHY,
                    sym,
                    LIBC,
                    libc,
                    "README.txt",
                    "not a symbol file".getBytes(StandardCharsets.UTF_8)))));
    assertThat(symbols.resolve("scopes/acme/" + LIBC)).hasBinaryContent(libc);
    assertThat(announced).hasSize(3).contains("acme|N|libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900");
    assertThat(files()).hasSize(2);
  }

  @Test
  void breakpadFilesThatAreNotWhereTheySayOrNotSymFilesAreRefused() throws Exception {
    URI a = start(UploadLimits.defaults());
    byte[] sym = demo(CRASHY);
    assertError(
        post(a, "/api/symbols-breakpad", key(), zip(Map.of("crashy/0000/crashy.sym", sym))),
        400,
        "1006",
        "is not where its MODULE line puts it");
    assertError(
        post(a, "/api/symbols-breakpad", key(), zip(Map.of("notes.txt", sym))),
        400,
        "1006",
        "no .sym");
    assertError(
        post(
            a, "/api/symbols-breakpad", key(), "<html>503</html>".getBytes(StandardCharsets.UTF_8)),
        400,
        "1006",
        "not a Breakpad symbol file");
    assertError(
        post(
            a,
            "/api/symbols-breakpad",
            key(),
            "MODULE Linux x86_64 XYZ crashy\n".getBytes(StandardCharsets.UTF_8)),
        400,
        "1006",
        "invalid MODULE line");
    byte[] truncatedZip = Arrays.copyOf(zip(Map.of(CRASHY, sym)), 60);
    assertError(post(a, "/api/symbols-breakpad", key(), truncatedZip), 400, "1006", "zip");
    assertThat(files()).isEmpty();
    assertThat(announced).isEmpty();
  }

  @Test
  void sourcemapsAndMinifiedFilesGoByDebugIdOrByRelease() throws Exception {
    URI a = start(UploadLimits.defaults());
    byte[] map = demo("js/debug-id/" + JS_DEBUG_ID + "/sourcemap");
    assertOk(
        post(
            a,
            "/api/symbols-sourcemap",
            key("DebugID", JS_DEBUG_ID.toUpperCase().replace("-", "")),
            map));
    assertThat(symbols.resolve("scopes/acme/" + JsSymbolKeys.sourcemapByDebugId(JS_DEBUG_ID)))
        .hasBinaryContent(map);
    assertThat(announced).containsExactly("acme|J|" + JS_DEBUG_ID);

    byte[] min =
        "function a(){}\n//# sourceMappingURL=app.min.js.map\n".getBytes(StandardCharsets.UTF_8);
    String url = "https://example.com/static/app.min.js";
    assertOk(post(a, "/api/symbols-minified", key("Release", "web@1.0", "URL", url), min));
    assertOk(
        post(a, "/api/symbols-sourcemap", key("Release", "web@1.0", "URL", url + ".map"), map));
    assertThat(symbols.resolve("scopes/acme/" + JsSymbolKeys.releaseFile("web@1.0", null, url)))
        .hasBinaryContent(min);
    assertThat(
            symbols.resolve(
                "scopes/acme/" + JsSymbolKeys.releaseFile("web@1.0", null, url + ".map")))
        .hasBinaryContent(map);
    String releaseModule = "acme|J|" + new JsReleaseModule("web@1.0", null, url).key();
    assertThat(announced).containsExactly("acme|J|" + JS_DEBUG_ID, releaseModule, releaseModule);

    assertError(
        post(
            a,
            "/api/symbols-sourcemap",
            key("DebugID", "e7e8ae59-0000-0000-0000-000000000001"),
            "{\"version\":3,\"mappings\":".getBytes(StandardCharsets.UTF_8)),
        400,
        "1006",
        "not a valid sourcemap");
    assertError(
        post(a, "/api/symbols-sourcemap", key("DebugID", "nope"), map), 400, "1003", "DebugID");
    assertError(
        post(a, "/api/symbols-sourcemap", key(), map),
        400,
        "1003",
        "DebugID header, or Release and URL");
    assertThat(files()).hasSize(3);
  }

  @Test
  void proguardMappingsGoByTheirUuid() throws Exception {
    URI a = start(UploadLimits.defaults());
    String uuid = "5d3f7b0e-1c2a-4e6b-9a8d-0f1e2d3c4b5a";
    byte[] mapping = demo("jvm/proguard/" + uuid + "/mapping.txt");
    assertOk(post(a, "/api/symbols-proguard", key("UUID", uuid.toUpperCase()), mapping));
    assertThat(symbols.resolve("scopes/acme/" + MappingLocator.byUuid(uuid)))
        .hasBinaryContent(mapping);
    // without a UUID: the one Sentry's tools give the bytes
    assertOk(post(a, "/api/symbols-proguard", key(), mapping));
    String derived = MappingLocator.proguardUuid(mapping);
    assertThat(symbols.resolve("scopes/acme/" + MappingLocator.byUuid(derived)))
        .hasBinaryContent(mapping);
    assertThat(announced).containsExactly("acme|P|" + uuid, "acme|P|" + derived);
    assertError(
        post(
            a,
            "/api/symbols-proguard",
            key("UUID", uuid),
            "hello\n".getBytes(StandardCharsets.UTF_8)),
        400,
        "1006",
        "not a valid ProGuard mapping");
    assertError(post(a, "/api/symbols-proguard", key("UUID", "12"), mapping), 400, "1003", "UUID");
    assertThat(files()).hasSize(2);
  }

  private HttpResponse<String> send(
      URI base, String method, String route, Map<String, String> headers, byte[] body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(route))
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aDebugFileSentToItsPathIsCheckedAgainstTheUrlAndStoredInTheNativeLayout() throws Exception {
    URI a = start(UploadLimits.defaults());
    URI b = start(UploadLimits.defaults());
    byte[] debug = Files.readAllBytes(DebugFileFormatTest.LINUX.resolve("crash.debug"));
    String id = DebugFileFormatTest.CRASH_DEBUG_ID;
    String macId = DebugFileFormatTest.MAC_CRASH_DEBUG_ID;

    // refusals first: nothing of them may stay
    assertError(
        send(a, "PUT", "/api/symbols/crash/" + macId + "/crash", key(), debug),
        400,
        "1006",
        "the URL names debug id " + macId + " but the file is the file: debug id " + id);
    assertError(
        send(a, "PUT", "/api/symbols/crash/" + id, key(), debug), 400, "1003", "the path must be");
    assertError(
        send(a, "PUT", "/api/symbols/crash/" + id + "/other", key(), debug), 400, "1003", "twice");
    assertError(
        send(a, "PUT", "/api/symbols/crash/xyz/crash", key(), debug), 400, "1003", "hexadecimal");
    assertError(
        send(a, "PUT", "/api/symbols/a%7Cb/" + id + "/a%7Cb", key(), debug), 400, "1003", "'|'");
    // an encoded slash: the server refuses the URL itself (ambiguous), before any handler
    assertThat(
            send(a, "PUT", "/api/symbols/..%2F..%2Fx/" + id + "/..%2F..%2Fx", key(), debug)
                .statusCode())
        .isEqualTo(400);
    assertError(
        send(a, "PUT", "/api/symbols/crash/" + id + "/crash", key(), "hi".getBytes()),
        400,
        "1006",
        "not an ELF, Mach-O, PE or PDB");
    assertError(
        send(a, "DELETE", "/api/symbols/crash/" + id + "/crash", key(), new byte[0]),
        405,
        "1003",
        "PUT or POST");
    assertThat(files()).isEmpty();
    assertThat(announced).isEmpty();

    // in two parts over both instances (lower-case GUID form of the id in the URL)
    String url = "/api/symbols/crash/c0bcc3f1-9827-fe65-3058-404b2831d9e6-0/crash";
    int cut = debug.length / 2;
    assertOk(
        send(
            a,
            "PUT",
            url,
            key("FilePart", "1", "FileParts", "2", "UploadID", "dif-1"),
            Arrays.copyOfRange(debug, cut, debug.length)));
    assertOk(
        send(
            b,
            "POST",
            url,
            key("FilePart", "0", "FileParts", "2", "UploadID", "dif-1"),
            Arrays.copyOfRange(debug, 0, cut)));
    Path stored = symbols.resolve("scopes/acme/crash/" + id + "/crash");
    assertThat(stored).hasBinaryContent(debug);
    assertThat(files()).containsExactly(stored);
    assertThat(announced).containsExactly("acme|N|crash/" + id);
  }

  @Test
  void debugFilesAndZipsOfThemAreToldByTheirMagic() throws Exception {
    URI a = start(UploadLimits.defaults());
    Path fat =
        DebugFileFormatTest.MACOS.resolve(
            "Example.framework.dSYM/Contents/Resources/DWARF/Example");
    byte[] dsym =
        zip(
            Map.of(
                "Example.framework.dSYM/Contents/Resources/DWARF/Example",
                Files.readAllBytes(fat),
                "Example.framework.dSYM/Contents/Info.plist",
                Files.readAllBytes(fat.resolve("../../../Info.plist").normalize())));
    assertOk(send(a, "POST", "/api/symbols-debugfile", key(), dsym));
    String x64 = "Example/" + DebugFileFormatTest.EXAMPLE_X86_64;
    String arm = "Example/" + DebugFileFormatTest.EXAMPLE_ARM64;
    assertThat(symbols.resolve("scopes/acme/" + x64 + "/Example")).isRegularFile();
    assertThat(symbols.resolve("scopes/acme/" + arm + "/Example")).isRegularFile();
    assertThat(announced).containsExactlyInAnyOrder("acme|N|" + x64, "acme|N|" + arm);

    byte[] full = Files.readAllBytes(DebugFileFormatTest.MOZILLA.resolve("basic.full"));
    assertError(send(a, "POST", "/api/symbols-debugfile", key(), full), 400, "1003", "DebugFile");
    assertError(
        send(
            a,
            "POST",
            "/api/symbols-debugfile",
            key("DebugFile", "basic.full", "DebugID", DebugFileFormatTest.CRASH_DEBUG_ID),
            full),
        400,
        "1006",
        DebugFileFormatTest.BASIC_DEBUG_ID);
    assertThat(files()).hasSize(2);
    assertOk(send(a, "POST", "/api/symbols-debugfile", key("DebugFile", "basic.full"), full));
    assertThat(
            symbols.resolve(
                "scopes/acme/basic.full/" + DebugFileFormatTest.BASIC_DEBUG_ID + "/basic.full"))
        .hasBinaryContent(full);
    assertThat(files()).hasSize(4); // and under its build id
  }

  /** A PDB and its PE image through both routes: checked against the URL, stored natively. */
  @Test
  void aPdbAndItsPeImageAreUploadedToTheirPaths() throws Exception {
    URI a = start(UploadLimits.defaults());
    byte[] pdb = Files.readAllBytes(DebugFileFormatTest.WINDOWS.resolve("crash.pdb"));
    byte[] exe = Files.readAllBytes(DebugFileFormatTest.WINDOWS.resolve("crash.exe"));
    String id = DebugFileFormatTest.PDB_DEBUG_ID;
    String code = DebugFileFormatTest.PE_CODE_ID;
    assertError(
        send(a, "PUT", "/api/symbols/crash.pdb/" + code + "/crash.pdb", key(), pdb),
        400,
        "1006",
        "the URL names debug id " + code + " but the file is the file: debug id " + id);
    assertThat(files()).isEmpty();
    assertOk(send(a, "PUT", "/api/symbols/crash.pdb/" + id + "/crash.pdb", key(), pdb));
    assertThat(symbols.resolve("scopes/acme/crash.pdb/" + id + "/crash.pdb")).hasBinaryContent(pdb);
    assertOk(
        send(
            a,
            "POST",
            "/api/symbols-debugfile",
            key("DebugFile", "crash.exe", "DebugID", code),
            exe));
    assertThat(symbols.resolve("scopes/acme/crash.exe/" + code + "/crash.exe"))
        .hasBinaryContent(exe);
    assertThat(symbols.resolve("scopes/acme/crash.exe/" + id + "/crash.exe")).hasBinaryContent(exe);
    assertThat(announced).contains("acme|N|crash.pdb/" + id);
  }
}

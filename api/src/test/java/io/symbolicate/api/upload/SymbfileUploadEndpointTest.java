package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The symbfile upload routes on a real JDK server over a directory store (two endpoints on two
 * servers share it, as two instances share the bucket): three parts assemble into the file the
 * loader reads and one announcement; a wrong key, a corrupt part and an oversized part get the
 * document's JSON error and leave nothing behind.
 */
class SymbfileUploadEndpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "QzJqQ1Q0WUI1NlR0QVl4NTlZcXg6Y0xhcFN1S2tTSXlyTFlNTUloclJvdw==";

  @TempDir Path root;
  private final List<String> announced = new CopyOnWriteArrayList<>();
  private final List<HttpServer> servers = new java.util.ArrayList<>();
  private final HttpClient client = HttpClient.newHttpClient();

  private URI start(UploadLimits limits) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    ApiKeys keys = ApiKeys.parse(ApiKeys.hash(KEY) + "=acme");
    DirectoryUploadStore store = new DirectoryUploadStore(root);
    SymbfileUploadEndpoint.Announcer a = (scope, module) -> announced.add(scope + "|" + module);
    s.createContext("/api/symbols-ranges",
        new SymbfileUploadEndpoint(SymbfileUploadEndpoint.Kind.RANGES, keys, store, a, limits));
    s.createContext("/api/symbols-returnpads",
        new SymbfileUploadEndpoint(SymbfileUploadEndpoint.Kind.RETURN_PADS, keys, store, a, limits));
    s.start();
    servers.add(s);
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  private static byte[] fixture() throws IOException {
    return Files.readAllBytes(SharedFixtures.fixtures("symbfile")
        .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile"));
  }

  private HttpResponse<String> post(URI base, String route, FileId id, int part, int parts, byte[] body,
      String key) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(route))
        .header("FileID", id.toBase64()).header("FilePart", Integer.toString(part))
        .header("FileParts", Integer.toString(parts))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (key != null) {
      b.header("Authorization", "APIKey " + key);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  private static void assertError(HttpResponse<String> r, int status, String code, String text) throws Exception {
    assertThat(r.statusCode()).isEqualTo(status);
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
    byte[] file = fixture();
    FileId id = FileId.of(file); // any id: the file's own
    int cut1 = file.length / 3;
    int cut2 = 2 * file.length / 3;
    byte[][] parts = {Arrays.copyOfRange(file, 0, cut1), Arrays.copyOfRange(file, cut1, cut2),
        Arrays.copyOfRange(file, cut2, file.length)};
    // out of order, over both instances; part 1 sent twice (a retry is harmless)
    for (int i : new int[] {2, 1, 1}) {
      HttpResponse<String> r = post(i == 1 ? b : a, "/api/symbols-ranges", id, i, 3, parts[i], KEY);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(JSON.readTree(r.body())).isEqualTo(JSON.readTree("{\"success\":true,\"status\":200}"));
    }
    assertThat(announced).isEmpty();
    assertThat(post(a, "/api/symbols-ranges", id, 0, 3, parts[0], KEY).statusCode()).isEqualTo(200);
    Path stored = root.resolve(SymbfileKeys.ranges("acme", id));
    assertThat(stored).hasBinaryContent(file);
    assertThat(files()).containsExactly(stored); // the parts are gone
    assertThat(announced).containsExactly("acme|" + SymbfileKeys.moduleKey(id));
  }

  @Test
  void aMissingOrWrongKeyIsRefusedAndStoresNothing() throws Exception {
    URI a = start(UploadLimits.defaults());
    FileId id = FileId.of(new byte[] {1});
    assertError(post(a, "/api/symbols-ranges", id, 0, 1, fixture(), null), 401, "1001", "APIKey");
    assertError(post(a, "/api/symbols-ranges", id, 0, 1, fixture(), KEY + "x"), 403, "1002", "not valid");
    assertThat(files()).isEmpty();
    assertThat(announced).isEmpty();
  }

  @Test
  void aCorruptFileIsRefusedWhenItCompletesAndLeavesNothing() throws Exception {
    URI a = start(UploadLimits.defaults());
    byte[] file = fixture();
    FileId id = FileId.of(file);
    byte[] first = Arrays.copyOfRange(file, 0, 100);
    byte[] corrupt = Arrays.copyOfRange(file, 100, file.length - 4); // the last message cut short
    assertThat(post(a, "/api/symbols-returnpads", id, 0, 2, first, KEY).statusCode()).isEqualTo(200);
    assertError(post(a, "/api/symbols-returnpads", id, 1, 2, corrupt, KEY), 400, "1006", "not a valid symbfile");
    assertThat(files()).isEmpty();
    assertThat(announced).isEmpty();
  }

  @Test
  void oversizedPartsTooManyPartsAndBadHeadersAreRefused() throws Exception {
    URI a = start(new UploadLimits(100, 4, 8));
    FileId id = FileId.of(new byte[] {1});
    assertError(post(a, "/api/symbols-ranges", id, 0, 1, new byte[101], KEY), 413, "1004", "limit of 100 bytes");
    assertError(post(a, "/api/symbols-ranges", id, 0, 5, new byte[10], KEY), 413, "1004", "limit of 4 parts");
    assertError(post(a, "/api/symbols-ranges", id, 3, 3, new byte[10], KEY), 400, "1003", "FilePart");
    HttpResponse<String> noId = client.send(HttpRequest.newBuilder(a.resolve("/api/symbols-ranges"))
        .header("Authorization", "APIKey " + KEY).header("FileID", "not-a-file-id")
        .header("FilePart", "0").header("FileParts", "1")
        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[10])).build(), HttpResponse.BodyHandlers.ofString());
    assertError(noId, 400, "1003", "FileID");
    assertThat(files()).isEmpty();
  }

  @Test
  void tooManyUploadsInFlightAre429() throws Exception {
    URI a = start(new UploadLimits(100, 4, 0));
    assertError(post(a, "/api/symbols-ranges", FileId.of(new byte[] {1}), 0, 1, new byte[10], KEY), 429, "1005",
        "in flight");
  }

  @Test
  void keysAreConfiguredAsHashes() {
    ApiKeys k = ApiKeys.parse(ApiKeys.hash("secret") + "=acme, " + ApiKeys.hash("other"));
    assertThat(k.scopeOf("secret")).isEqualTo("acme");
    assertThat(k.scopeOf("other")).isEqualTo("global");
    assertThat(k.scopeOf("SECRET")).isNull();
    assertThat(k.scopeOf(ApiKeys.hash("secret"))).as("the hash itself is not a key").isNull();
    assertThatThrownBy(() -> ApiKeys.parse("secret=acme")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("64 hex digits");
  }
}

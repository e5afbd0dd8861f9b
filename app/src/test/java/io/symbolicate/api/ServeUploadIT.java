package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.events.SampleSymbols;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} with uploads enabled over an empty symbols directory: a Breakpad {@code .sym}, a
 * zip of one in Mozilla's layout, a sourcemap by debug id and a ProGuard mapping by UUID, each
 * uploaded through its route, are found by the next request to the symbolication endpoints.
 */
class ServeUploadIT {
  static final String KEY = "serve-upload-key";
  static final String QUOTA_KEY = "serve-upload-quota-key";
  static final long QUOTA = 1L << 20;
  static final String CRASHY_ID = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
  static final String LIBC_ID = "A1B2C3D4E5F60718293A4B5C6D7E8F900";
  static final String JS_ID = "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10";
  static final String JVM_UUID = "5d3f7b0e-1c2a-4e6b-9a8d-0f1e2d3c4b5a";
  static final String URL = "https://app.example.com/static/app.min.js";

  @TempDir static Path symbols;
  @TempDir static Path cache;
  private static ApiRuntime.Running api;
  private static ApiClient client;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("upload.enabled", "true")
            .set("upload.dir.max.scope.bytes", String.valueOf(QUOTA))
            .set(
                "api.keys",
                ApiKeys.hash(KEY) + "=global:upload," + ApiKeys.hash(QUOTA_KEY) + "=q:upload");
    api = ApiRuntime.serve(cfg);
    client = new ApiClient(api.server().uri());
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  static byte[] demo(String key) {
    return SampleSymbols.uploads().stream()
        .filter(u -> u.key().equals(key))
        .findFirst()
        .map(SampleSymbols.Upload::body)
        .orElseThrow();
  }

  private void upload(String route, byte[] body, String... headers) throws Exception {
    HttpResponse<String> r = send(KEY, route, body, headers);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  private HttpResponse<String> send(String key, String route, byte[] body, String... headers)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(api.server().uri().resolve(route))
            .header("Authorization", "APIKey " + key)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A Breakpad file of about {@code bytes} bytes: a MODULE line and PUBLIC records. */
  static byte[] bigSym(String id, int bytes) {
    StringBuilder b = new StringBuilder("MODULE Linux x86_64 " + id + " big\n");
    for (int i = 0; b.length() < bytes; i++) {
      b.append("PUBLIC ").append(Integer.toHexString(0x1000 + 16 * i)).append(" 0 f").append(i);
      b.append('\n');
    }
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void anUploadPastTheScopesQuotaIs507AndLeavesNothing() throws Exception {
    String first = "11111111111111111111111111111111A";
    String second = "22222222222222222222222222222222B";
    HttpResponse<String> ok = send(QUOTA_KEY, "/api/symbols-breakpad", bigSym(first, 600_000));
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    HttpResponse<String> r = send(QUOTA_KEY, "/api/symbols-breakpad", bigSym(second, 600_000));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(507);
    assertThat(r.body()).contains("1007", "upload.dir.max.scope.bytes", String.valueOf(QUOTA));
    assertThat(Files.exists(symbols.resolve("scopes/q/big/" + first + "/big.sym"))).isTrue();
    assertThat(Files.exists(symbols.resolve("scopes/q/big/" + second))).isFalse();
    try (Stream<Path> s = Files.walk(symbols.resolve("upload-staging"))) {
      assertThat(s.filter(p -> p.toString().contains("/q/")).filter(Files::isRegularFile))
          .as("the refused upload's staging")
          .allMatch(p -> p.getFileName().toString().endsWith(".assembled"));
    }
  }

  @Test
  void breakpadFileAndZipUploadsAreFoundByTheMozillaApi() throws Exception {
    upload("/api/symbols-breakpad", demo("crashy/" + CRASHY_ID + "/crashy.sym"));
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      z.putNextEntry(new ZipEntry("libc.so.6/" + LIBC_ID + "/libc.so.6.sym"));
      z.write(SampleSymbols.lateUpload().body());
      z.closeEntry();
    }
    upload("/api/symbols-breakpad", zip.toByteArray());
    ApiClient.Response r =
        client.post(
            "/symbolicate/v5",
            "{\"jobs\":[{\"memoryMap\":[[\"crashy\",\""
                + CRASHY_ID
                + "\"],[\"libc.so.6\",\""
                + LIBC_ID
                + "\"]],\"stacks\":[[[0,6699],[1,171408]]]}]}");
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    JsonNode result = r.json().get("results").get(0);
    assertThat(result.get("found_modules"))
        .isEqualTo(
            ApiClient.json(
                "{\"crashy/" + CRASHY_ID + "\":true,\"libc.so.6/" + LIBC_ID + "\":true}"));
    JsonNode frames = result.get("stacks").get(0);
    assertThat(frames.get(0).get("function").asText()).isEqualTo("main");
    assertThat(frames.get(1).get("function").asText()).isEqualTo("__libc_start_call_main");
  }

  @Test
  void aSymbfileUploadIsFoundByTheMozillaApiByItsFileId() throws Exception {
    Path testdata =
        SharedFixtures.fixtures("symbfile")
            .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata");
    byte[] ranges = Files.readAllBytes(testdata.resolve("inline-no-tco.ranges.symbfile"));
    String id = FileId.of(testdata.resolve("inline-no-tco")).toBase64();
    upload("/api/symbols-ranges", ranges, "FileID", id, "FilePart", "0", "FileParts", "1");
    ApiClient.Response r =
        client.post(
            "/symbolicate/v5",
            "{\"jobs\":[{\"memoryMap\":[[\"symbfile\",\"" + id + "\"]],\"stacks\":[[[0,1616]]]}]}");
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    JsonNode result = r.json().get("results").get(0);
    assertThat(result.get("found_modules").get("symbfile/" + id).asBoolean())
        .as(result.toString())
        .isTrue();
    assertThat(result.get("stacks").get(0).get(0).toString()).contains("main").contains("d_inline");
  }

  @Test
  void aSourcemapUploadIsFoundByTheJsApi() throws Exception {
    upload("/api/symbols-sourcemap", demo("js/debug-id/" + JS_ID + "/sourcemap"), "DebugID", JS_ID);
    ApiClient.Response r =
        client.post(
            "/symbolicate-js",
            "{\"stacktraces\":[{\"frames\":[{\"abs_path\":\""
                + URL
                + "\",\"lineno\":1,\"colno\":1043}]}],\"modules\":[{\"type\":\"sourcemap\",\"code_file\":\""
                + URL
                + "\",\"debug_id\":\""
                + JS_ID
                + "\"}]}");
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    JsonNode frame = r.json().get("stacktraces").get(0).get("frames").get(0);
    assertThat(frame.get("lineno").asInt()).as(frame.toString()).isEqualTo(15);
    assertThat(frame.get("abs_path").asText()).endsWith("src/cart.js");
  }

  @Test
  void aProguardUploadIsFoundByTheJvmApi() throws Exception {
    upload(
        "/api/symbols-proguard",
        demo("jvm/proguard/" + JVM_UUID + "/mapping.txt"),
        "UUID",
        JVM_UUID);
    ApiClient.Response r =
        client.post(
            "/symbolicate-jvm",
            "{\"exceptions\":[{\"type\":\"a\",\"module\":\"io.example.b\"}],"
                + "\"stacktraces\":[{\"frames\":[{\"function\":\"a\",\"module\":\"io.example.a.b\",\"lineno\":12,\"index\":0}]}],"
                + "\"modules\":[{\"type\":\"proguard\",\"uuid\":\""
                + JVM_UUID
                + "\"}]}");
    assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
    JsonNode frame = r.json().get("stacktraces").get(0).get("frames").get(0);
    assertThat(frame.get("module").asText())
        .as(frame.toString())
        .isEqualTo("com.example.crashy.CheckoutActivity");
    assertThat(frame.get("function").asText()).isEqualTo("onPayClicked");
    assertThat(frame.get("lineno").asInt()).isEqualTo(66);
  }
}

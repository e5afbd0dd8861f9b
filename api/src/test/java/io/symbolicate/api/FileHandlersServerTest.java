package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.apple.AppleCrashReportHandler;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.minidump.MinidumpHandler;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /applecrashreport} and {@code /minidump} on the real server: a client's multipart
 * request answered in Symbolicator's shape, and each refusal a 4xx with a JSON reason.
 */
class FileHandlersServerTest {
  static final String B = "----formboundary7MA4YWxkTrZu0gW";
  private ApiServer server;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() throws Exception {
    ApiSettings settings = ApiSettings.defaults().withPort(0);
    Symbolication symbolication =
        new Symbolication(new FakeLoaderSymbols().symbolicator(), settings)
            .withAccess(
                new ScopeAccess(
                    ApiKeys.parse(ApiKeys.hash("acme-read") + "=acme:symbolicate"),
                    Set.of("global")));
    server =
        ApiServer.start(
            settings,
            RouteTable.builder()
                .add(
                    Route.APPLE_CRASH_REPORT, new AppleCrashReportHandler(symbolication, 64 * 1024))
                .add(Route.MINIDUMP, new MinidumpHandler(symbolication))
                .build());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> post(String path, String contentType, byte[] body) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      r.header("Content-Type", contentType);
    }
    return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String error(HttpResponse<String> r) throws Exception {
    return Json.MAPPER.readTree(r.body()).get("error").asText();
  }

  @Test
  void answersBothRoutesOverHttp() throws Exception {
    byte[] report =
        Files.readAllBytes(
            SharedFixtures.fixtures("apple-crash")
                .resolve("symbolicator/tests/fixtures/apple_crash_report.txt"));
    HttpResponse<String> a =
        post(
            "/applecrashreport",
            "multipart/form-data; boundary=" + B,
            FakeLoaderSymbols.form(
                B,
                new Object[] {"apple_crash_report", "r.crash", report},
                new Object[] {"sources", null, "[]"}));
    assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
    JsonNode ja = Json.MAPPER.readTree(a.body());
    assertThat(ja.get("status").asText()).isEqualTo("completed");
    assertThat(ja.get("stacktraces")).hasSize(2);
    assertThat(ja.get("crash_reason").asText()).isEqualTo("SIGSEGV");

    byte[] dump =
        Files.readAllBytes(
            SharedFixtures.fixtures("minidump").resolve("symbolicator/tests/fixtures/windows.dmp"));
    HttpResponse<String> m =
        post(
            "/minidump",
            "multipart/form-data; boundary=" + B,
            FakeLoaderSymbols.form(B, new Object[] {"upload_file_minidump", "w.dmp", dump}));
    assertThat(m.statusCode()).as(m.body()).isEqualTo(200);
    JsonNode jm = Json.MAPPER.readTree(m.body());
    assertThat(jm.get("crash_reason").asText())
        .isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE / 0x45");
    assertThat(jm.get("stacktraces").get(0).get("is_requesting").asBoolean()).isTrue();
  }

  @Test
  void refusalsAreClear() throws Exception {
    HttpResponse<String> json = post("/minidump", "application/json", "{}".getBytes());
    assertThat(json.statusCode()).isEqualTo(400);
    assertThat(error(json)).contains("multipart/form-data");

    HttpResponse<String> noBoundary = post("/minidump", "multipart/form-data", "x".getBytes());
    assertThat(noBoundary.statusCode()).isEqualTo(400);
    assertThat(error(noBoundary)).contains("no boundary");

    HttpResponse<String> noFile =
        post(
            "/minidump",
            "multipart/form-data; boundary=" + B,
            FakeLoaderSymbols.form(B, new Object[] {"sources", null, "[]"}));
    assertThat(noFile.statusCode()).isEqualTo(400);
    assertThat(error(noFile)).contains("'upload_file_minidump'");

    HttpResponse<String> garbage =
        post(
            "/minidump",
            "multipart/form-data; boundary=" + B,
            FakeLoaderSymbols.form(
                B,
                new Object[] {"upload_file_minidump", "x", new byte[] {1, 2, 3, 4, 5, 6, 7, 8}}));
    assertThat(garbage.statusCode()).isEqualTo(400);
    assertThat(error(garbage)).startsWith("upload_file_minidump: ");

    HttpResponse<String> tooBig =
        post(
            "/applecrashreport",
            "multipart/form-data; boundary=" + B,
            FakeLoaderSymbols.form(
                B, new Object[] {"apple_crash_report", "r", new byte[100 * 1024]}));
    assertThat(tooBig.statusCode()).isEqualTo(413);
    assertThat(error(tooBig)).contains("exceeds the limit of " + (64 * 1024));

    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/applecrashreport"))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);

    HttpResponse<String> scope =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/applecrashreport"))
                .header("Content-Type", "multipart/form-data; boundary=" + B)
                .header("X-Symbolicator-Scope", "../etc")
                .POST(
                    HttpRequest.BodyPublishers.ofByteArray(
                        FakeLoaderSymbols.form(B, new Object[] {"apple_crash_report", "r", "x"})))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(scope.statusCode()).isEqualTo(400);
    assertThat(error(scope)).contains("X-Symbolicator-Scope");
  }

  @Test
  void aTenantsScopeNeedsItsKeyOnTheFileRoutesToo() throws Exception {
    byte[] dump =
        Files.readAllBytes(
            SharedFixtures.fixtures("minidump").resolve("symbolicator/tests/fixtures/windows.dmp"));
    byte[] body = FakeLoaderSymbols.form(B, new Object[] {"upload_file_minidump", "w.dmp", dump});
    for (String path : new String[] {"/minidump", "/applecrashreport"}) {
      HttpRequest.Builder named =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
              .timeout(Duration.ofSeconds(20))
              .header("Content-Type", "multipart/form-data; boundary=" + B)
              .header("X-Symbolicator-Scope", "acme")
              .POST(HttpRequest.BodyPublishers.ofByteArray(body));
      HttpResponse<String> anonymous =
          http.send(named.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(anonymous.statusCode()).as(path + " " + anonymous.body()).isEqualTo(403);
      assertThat(error(anonymous)).contains("acme");
      HttpResponse<String> wrongKey =
          http.send(
              named.header("Authorization", "APIKey nope").build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(wrongKey.statusCode()).as(path + " " + wrongKey.body()).isEqualTo(403);
    }
    HttpRequest.Builder keyed =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/minidump"))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "multipart/form-data; boundary=" + B)
            .header("X-Symbolicator-Scope", "acme")
            .header("Authorization", "APIKey acme-read")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    HttpResponse<String> ok = http.send(keyed.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
  }
}

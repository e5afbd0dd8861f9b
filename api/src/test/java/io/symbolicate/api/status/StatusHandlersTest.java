package io.symbolicate.api.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiServer;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.Json;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The four routes on the API server: types, the policy headers, the JSON's names, the assets. */
class StatusHandlersTest {
  private ApiServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    StatusSource source = () -> StatusHtmlTest.snapshot(StatusHtmlTest.crashers());
    server =
        ApiServer.start(
            ApiSettings.defaults().withPort(0),
            RouteTable.builder()
                .add(Route.STATUS, new StatusPageHandler(source))
                .add(Route.STATUS_JSON, new StatusJsonHandler(source))
                .add(
                    Route.STATUS_JS,
                    new StatusAssetHandler("status.js", "text/javascript; charset=utf-8"))
                .add(
                    Route.STATUS_CSS,
                    new StatusAssetHandler("status.css", "text/css; charset=utf-8"))
                .build());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path, String method) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void everyRouteAnswersUnderThePolicy() throws Exception {
    for (String[] r :
        new String[][] {
          {"/status", "text/html; charset=utf-8"},
          {"/status.json", "application/json"},
          {"/status.js", "text/javascript; charset=utf-8"},
          {"/status.css", "text/css; charset=utf-8"}
        }) {
      HttpResponse<String> a = get(r[0], "GET");
      assertThat(a.statusCode()).as(r[0]).isEqualTo(200);
      assertThat(a.headers().firstValue("Content-Type")).as(r[0]).hasValue(r[1]);
      assertThat(a.headers().firstValue("Content-Security-Policy"))
          .hasValue(StatusResponses.CONTENT_SECURITY_POLICY);
      assertThat(a.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      assertThat(a.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(a.body()).as(r[0]).isNotEmpty();
      assertThat(get(r[0], "HEAD").body()).isEmpty();
    }
  }

  @Test
  void theJsonUsesTheNamesTheScriptReads() throws Exception {
    JsonNode s = Json.MAPPER.readTree(get("/status.json", "GET").body());
    assertThat(s.path("events").path("in_total").asLong()).isEqualTo(120);
    assertThat(s.path("events").path("out_per_second").asDouble()).isEqualTo(2.5);
    assertThat(s.path("dead_letters").path("by_reason").path("undecodable").asLong()).isEqualTo(2);
    assertThat(s.path("loads").path("running").path(0).path("running_millis").asLong())
        .isEqualTo(12_345);
    assertThat(s.path("caches").path(1).path("hit_rate").isNull()).isTrue();
    assertThat(s.path("missing_modules").path("modules").path(0).path("module").asText())
        .isEqualTo(StatusHtmlTest.MODULE);
    JsonNode c = s.path("top_crashers").path("crashers").path(0);
    assertThat(c.path("example_event_id").asText()).isEqualTo("<e>");
    assertThat(c.path("hours").toString()).isEqualTo("[0,5,10]");
    // the script polls the route of the table, and every field it reads is spelled in it
    String script = get("/status.js", "GET").body();
    assertThat(script).contains("fetch('" + Route.STATUS_JSON.path() + "'");
    String page = get("/status", "GET").body();
    assertThat(page)
        .contains("href=\"" + Route.STATUS_CSS.path() + "\"")
        .contains("src=\"" + Route.STATUS_JS.path() + "\"");
    for (String field :
        new String[] {
          "in_per_second",
          "out_total",
          "by_reason",
          "by_platform",
          "in_flight",
          "mean_millis",
          "running_millis",
          "hit_rate",
          "last_seen",
          "first_seen",
          "example_event_id",
          "generated_at"
        }) {
      assertThat(script).as(field).contains(field);
      assertThat(get("/status.json", "GET").body()).as(field).contains("\"" + field + "\"");
    }
  }
}

package io.symbolicate.app.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page of {@code serve} (no Kafka): the parts it runs (loads, caches) have figures,
 * the stream's parts say they do not run here, and the top-crashers section, asking this very
 * server, gets its 404 and says "top crashers not enabled".
 */
class ServeStatusIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path symbols;
  @TempDir Path cache;

  @Test
  void servesWhatServeRunsAndSaysWhatItDoesNot() throws Exception {
    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.host", "0.0.0.0")
            .set("http.cache.dir", cache.toString());
    HttpClient http = HttpClient.newHttpClient();
    try (ApiRuntime.Running api = ApiRuntime.serve(cfg)) {
      URI base = URI.create("http://127.0.0.1:" + api.server().port());
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("/api/top-crashers")).build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode())
          .as("no aggregation in serve")
          .isEqualTo(404);
      JsonNode s =
          JSON.readTree(
              http.send(
                      HttpRequest.newBuilder(base.resolve("/status.json")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body());
      assertThat(s.get("events").isNull()).isTrue();
      assertThat(s.get("dead_letters").isNull()).isTrue();
      assertThat(s.get("missing_modules").isNull()).isTrue();
      assertThat(s.path("loads").path("in_flight").asInt()).isZero();
      assertThat(s.path("caches").findValuesAsText("layer")).contains("page_cache");
      assertThat(s.path("top_crashers").path("enabled").asBoolean()).isFalse();
      assertThat(s.path("top_crashers").path("note").asText())
          .isEqualTo("top crashers not enabled");

      HttpResponse<String> page =
          http.send(
              HttpRequest.newBuilder(base.resolve("/status")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body())
          .contains("top crashers not enabled")
          .contains("not running on this instance")
          .contains("data-k=\"loads.finished\">0<");
      HttpResponse<String> post =
          http.send(
              HttpRequest.newBuilder(base.resolve("/status"))
                  .POST(HttpRequest.BodyPublishers.ofString("x"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }
  }
}

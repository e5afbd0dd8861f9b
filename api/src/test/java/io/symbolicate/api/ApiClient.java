package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A real HTTP client (the JDK's) for the API tests. */
final class ApiClient {
  record Response(int status, JsonNode json, HttpResponse<String> raw) {}

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI base;

  ApiClient(URI base) {
    this.base = base;
  }

  Response post(String path, String body) throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  Response send(HttpRequest req) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    JsonNode json = r.body().isEmpty() ? null : Json.MAPPER.readTree(r.body());
    return new Response(r.statusCode(), json, r);
  }

  /** An error answer: the status and a JSON {@code error} containing the reason. */
  static void assertError(Response r, int status, String reason) {
    assertThat(r.status()).as(r.raw().body()).isEqualTo(status);
    assertThat(r.json().get("error").asText()).contains(reason);
  }

  static JsonNode json(String s) throws IOException {
    return Json.MAPPER.readTree(s);
  }
}

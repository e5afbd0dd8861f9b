package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The API inside {@code run}, on the real broker and S3 server: a module the API asks for goes
 * through {@code symbols.requests} and the loader into the global store, and the request that
 * triggered it gets the symbolicated answer; a module absent from S3 is answered as not found.
 */
class RunApiIT {
  @TempDir Path s3Dir;
  @TempDir Path stateDir;

  @Test
  void apiRequestLoadsTheModuleThroughTheLoader() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(s3Dir)) {
      byte[] sym;
      try (InputStream in = RunApiIT.class.getResourceAsStream("/demo/crashy.sym")) {
        sym = in.readAllBytes();
      }
      try (var c = s3.client()) {
        c.createBucket(b -> b.bucket("symbols"));
        c.putObject(
            b -> b.bucket("symbols").key("crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym"),
            RequestBody.fromBytes(sym));
      }
      System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
      System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
      AppConfig cfg =
          AppConfig.defaults()
              .set("bootstrap.servers", kafka.bootstrapServers())
              .set("application.id", "runapi")
              .set("state.dir", stateDir.toString())
              .set("topics.partitions", "1")
              .set("streams.commit.interval.ms", "100")
              .set("symbols.s3.bucket", "symbols")
              .set("symbols.s3.endpoint", s3.endpoint().toString())
              .set("symbols.s3.path-style", "true")
              .set("symbols.fetch.timeout.ms", "2000")
              .set("loader.attempts", "1")
              .set("park.request.retry.ms", "1000")
              .set("http.enabled", "true")
              .set("http.port", "0")
              .set("http.request.timeout.ms", "20000");
      try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
        assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
        ApiClient client = new ApiClient(app.api().server().uri());
        String body =
            """
            {"jobs": [{"memoryMap": [["crashy", "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0"],
                                     ["absent.pdb", "1234ABCD1234ABCD1234ABCD1234ABCD1"]],
                       "stacks": [[[0, 6688], [0, 7170], [1, 16]]]}], "debug": true}""";
        var r = client.post("/symbolicate/v5", body);
        assertThat(r.status()).as(r.raw().body()).isEqualTo(200);
        JsonNode stack = r.json().at("/results/0/stacks/0");
        assertThat(stack.get(0).get("function").asText()).isEqualTo("main");
        assertThat(stack.get(0).get("function_offset").asText()).isEqualTo("0x20");
        assertThat(stack.get(1).get("function").asText()).isEqualTo("crash_handler(int)");
        assertThat(stack.get(2).has("function")).isFalse();
        assertThat(r.json().at("/results/0/found_modules"))
            .isEqualTo(
                ApiClient.json(
                    """
            {"crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0": true,
             "absent.pdb/1234ABCD1234ABCD1234ABCD1234ABCD1": false}"""));
        assertThat(r.json().at("/debug/cache_lookups/hits").asInt())
            .as("cold: nothing was loaded before")
            .isZero();
        assertThat(app.loader().stats().downloads.get())
            .as("loaded by the stream app's loader")
            .isEqualTo(1);

        // warm now: answered from the global store without loading again (the API only reports
        // the module as used, so the loader does not evict it)
        var warm = client.post("/symbolicate/v5", body);
        assertThat(warm.json().at("/results/0/stacks/0/1/function").asText())
            .isEqualTo("crash_handler(int)");
        assertThat(warm.json().at("/debug/cache_lookups/hits").asInt()).isEqualTo(2);
        assertThat(warm.json().at("/debug/downloads/count").asInt()).isZero();
        assertThat(app.loader().stats().found.get()).isEqualTo(1);
        assertThat(List.of(app.loader().stats().downloads.get())).containsExactly(1L);

        // the same server answers readiness and the app's meters (Kafka Streams' included)
        var health =
            client.send(
                HttpRequest.newBuilder(app.api().server().uri().resolve("/health")).GET().build());
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().path("streams").asText()).isEqualTo("RUNNING");
        var scrape =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(app.api().server().uri().resolve("/metrics"))
                        .GET()
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body())
            .contains(
                "kafka_stream_",
                "symbolicate_api_in_flight",
                "symbolicate_loader_downloads_total 1.0");
      }
    }
  }
}

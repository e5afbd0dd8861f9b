package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answer that a client reads slowly stays claimed against {@code http.max.in.flight.bytes}
 * until it is written: otherwise every slow reader would let the next large request in, and
 * their answers would pile up on the heap.
 */
class ApiSlowReaderIT {
  @TempDir Path symbols;
  @TempDir Path cache;

  /** A Mozilla v5 request of {@code frames} frames in xul.pdb, each symbolicated to a long C++ name. */
  private static String xulRequest(int frames) {
    StringBuilder stacks = new StringBuilder();
    for (int i = 0; i < frames; i++) {
      stacks.append(i == 0 ? "" : ", ").append("[0, 7509754]");
    }
    return "{\"jobs\": [{\"stacks\": [["
        + stacks
        + "]], \"memoryMap\": [[\"xul.pdb\", "
        + "\"0FBE970321AB8CF14C4C44205044422E1\"]]}]}";
  }

  /** {@code serve} over xul.pdb with a heap budget of {@code budget} bytes. */
  private ApiRuntime.Running serve(long budget) throws Exception {
    ServeApiIT.placeIn(symbols, ServeApiIT.XUL_V5);
    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("http.max.in.flight.bytes", String.valueOf(budget));
    return ApiRuntime.serve(cfg);
  }

  @Test
  void anAnswerBeingReadSlowlyCountsAgainstTheHeapBudget() throws Exception {
    // 100,000 frames: a 1.4 MB body claims ~145 MB (alone, so admitted) and its answer is tens of
    // MB
    String body = xulRequest(100_000);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    try (ApiRuntime.Running api = serve(120L << 20)) {
      ApiClient client = new ApiClient(api.server().uri());
      Symbolication routes = api.symbolication();
      try (Socket slow = new Socket()) {
        slow.setReceiveBufferSize(4096);
        slow.connect(new InetSocketAddress(api.server().uri().getHost(), api.server().port()));
        OutputStream out = slow.getOutputStream();
        out.write(
            ("POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: "
                    + bytes.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        // the answer is done and its writing is stuck on the client that does not read
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (routes.writingBytes() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(routes.writingBytes()).as("the slow client's answer").isGreaterThan(10L << 20);
        assertThat(routes.inFlight()).as("it holds its permit").isEqualTo(1);
        assertThat(routes.claimedBytes())
            .as("and as much of its claim as the answer takes")
            .isEqualTo(routes.writingBytes());

        // the same request from a reading client is no longer alone: refused until the answer is
        // out
        ApiClient.Response refused = client.post("/symbolicate/v5", body);
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.json().path("error").asText())
            .contains("too much request data in flight");
        assertThat(refused.raw().headers().firstValue("Retry-After")).isPresent();
      }
      // the slow client went away: its answer is given back, and the request is admitted alone
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (routes.writingBytes() != 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(routes.writingBytes()).isZero();
      ApiClient.Response ok = client.post("/symbolicate/v5", body);
      assertThat(ok.status()).isEqualTo(200);
      assertThat(ok.json().path("results").get(0).path("stacks").get(0)).hasSize(100_000);
      assertThat(routes.writingBytes()).isZero();
      assertThat(routes.claimedBytes()).isZero();
      assertThat(routes.inFlight()).isZero();
    }
  }

  /**
   * A client that sends its next request as soon as it has read an answer finds everything free,
   * even when each request claims the whole budget and is admitted only alone: the answer gives
   * its permit and claim back before its last byte.
   */
  @Test
  void aClientSendingLargeRequestsOneAfterAnotherIsNeverRefused() throws Exception {
    // 1.4 KB of body claims 45 KB and its 100 frames 100 KB more: over the budget, so each
    // request is admitted only while nothing else holds a claim
    String body = xulRequest(100);
    try (ApiRuntime.Running api = serve(64 << 10)) {
      ApiClient client = new ApiClient(api.server().uri());
      int refused = 0;
      for (int i = 0; i < 1000; i++) {
        ApiClient.Response r = client.post("/symbolicate/v5", body);
        if (r.status() != 200) {
          refused++;
        }
      }
      assertThat(refused).isZero();
      assertThat(api.symbolication().claimedBytes()).isZero();
    }
  }
}

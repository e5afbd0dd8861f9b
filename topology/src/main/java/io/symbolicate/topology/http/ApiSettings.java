package io.symbolicate.topology.http;

import java.time.Duration;

/**
 * The API server's settings (the CLI fills them from {@code http.*} keys).
 *
 * @param host address to bind (loopback by default)
 * @param port port to bind (0: any free port)
 * @param maxInFlight requests symbolicated at once; more get 503 with Retry-After
 * @param maxBodyBytes larger request bodies get 413
 * @param maxFrames requests with more frames in total get 413
 * @param requestTimeout how long a request waits for modules to load; then they are not found
 * @param retryAfterSeconds the Retry-After of a 503
 */
public record ApiSettings(String host, int port, int maxInFlight, long maxBodyBytes, int maxFrames,
    Duration requestTimeout, int retryAfterSeconds) {

  public ApiSettings {
    if (maxInFlight < 1 || maxBodyBytes < 1 || maxFrames < 1 || port < 0 || port > 65535) {
      throw new IllegalArgumentException("http.max.in.flight, http.max.body.bytes and http.max.frames must be "
          + "positive, http.port in 0..65535");
    }
  }

  public static ApiSettings defaults() {
    return new ApiSettings("127.0.0.1", 8000, 16, 5L << 20, 100_000, Duration.ofSeconds(10), 1);
  }

  public ApiSettings withPort(int p) {
    return new ApiSettings(host, p, maxInFlight, maxBodyBytes, maxFrames, requestTimeout, retryAfterSeconds);
  }
}

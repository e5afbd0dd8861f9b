package io.symbolicate.api;

import java.time.Duration;

/**
 * The API server's settings (the CLI fills them from {@code http.*} keys).
 *
 * @param host address to bind (loopback by default)
 * @param port port to bind (0: any free port)
 * @param maxInFlight requests symbolicated at once; more get 503 with Retry-After
 * @param maxBodyBytes larger request bodies get 413
 * @param maxFrames requests with more frames, more stacks or more modules than this get 413
 * @param requestTimeout how long a request waits for modules to load; then they are not found
 * @param retryAfterSeconds the Retry-After of a 503
 * @param maxInFlightBytes heap the requests in flight may claim, each {@link #HEAP_PER_BODY_BYTE}
 *     times its body and {@link #HEAP_PER_ITEM} per frame, stack and module; more get 503 with
 *     Retry-After. 0: half the max heap
 * @param maxModules requests whose frames need more distinct modules get 413 (each module not
 *     loaded yet is a fetch from every source)
 * @param cors which other origins' pages may call the symbolication endpoints from a browser
 */
public record ApiSettings(
    String host,
    int port,
    int maxInFlight,
    long maxBodyBytes,
    int maxFrames,
    Duration requestTimeout,
    int retryAfterSeconds,
    long maxInFlightBytes,
    int maxModules,
    CorsPolicy cors) {

  public static final int DEFAULT_MAX_MODULES = 1_000;

  /**
   * What a request may claim of the heap per byte of its body while it is answered: the parsed
   * JSON, the events, their answers, and the answer's JSON tree and bytes. A sourcemap request's
   * answer alone is about 5 times its body (a 4.4 MB request of 50,000 frames: a 20 MB answer).
   */
  public static final int HEAP_PER_BODY_BYTE = 32;

  /**
   * ... and per frame, stack and module, claimed once the request is parsed: a Mozilla request of
   * 100,000 frames is only 1.1 MB of JSON, but each frame's answer is several objects and a JSON
   * node; an empty stack ({@code []}, 3 bytes) is a list in the request, the event and the answer.
   */
  public static final int HEAP_PER_ITEM = 1024;

  public ApiSettings {
    if (maxInFlight < 1
        || maxBodyBytes < 1
        || maxFrames < 1
        || maxModules < 1
        || port < 0
        || port > 65535
        || maxInFlightBytes < 0) {
      throw new IllegalArgumentException(
          "http.max.in.flight, http.max.body.bytes, http.max.frames and "
              + "http.max.modules must be positive, http.max.in.flight.bytes not negative, http.port in 0..65535");
    }
    if (cors == null) {
      throw new IllegalArgumentException("http.cors.origins is not set");
    }
  }

  /** Any origin may call (the global scope only: {@link CorsPolicy#ANY}). */
  public ApiSettings(
      String host,
      int port,
      int maxInFlight,
      long maxBodyBytes,
      int maxFrames,
      Duration requestTimeout,
      int retryAfterSeconds,
      long maxInFlightBytes,
      int maxModules) {
    this(
        host,
        port,
        maxInFlight,
        maxBodyBytes,
        maxFrames,
        requestTimeout,
        retryAfterSeconds,
        maxInFlightBytes,
        maxModules,
        CorsPolicy.ANY);
  }

  /** With the default module limit. */
  public ApiSettings(
      String host,
      int port,
      int maxInFlight,
      long maxBodyBytes,
      int maxFrames,
      Duration requestTimeout,
      int retryAfterSeconds,
      long maxInFlightBytes) {
    this(
        host,
        port,
        maxInFlight,
        maxBodyBytes,
        maxFrames,
        requestTimeout,
        retryAfterSeconds,
        maxInFlightBytes,
        DEFAULT_MAX_MODULES);
  }

  public static ApiSettings defaults() {
    return new ApiSettings("127.0.0.1", 8000, 16, 5L << 20, 100_000, Duration.ofSeconds(10), 1, 0);
  }

  public ApiSettings withPort(int p) {
    return new ApiSettings(
        host,
        p,
        maxInFlight,
        maxBodyBytes,
        maxFrames,
        requestTimeout,
        retryAfterSeconds,
        maxInFlightBytes,
        maxModules,
        cors);
  }

  public ApiSettings withMaxFrames(int max) {
    return new ApiSettings(
        host,
        port,
        maxInFlight,
        maxBodyBytes,
        max,
        requestTimeout,
        retryAfterSeconds,
        maxInFlightBytes,
        maxModules,
        cors);
  }

  public ApiSettings withMaxModules(int max) {
    return new ApiSettings(
        host,
        port,
        maxInFlight,
        maxBodyBytes,
        maxFrames,
        requestTimeout,
        retryAfterSeconds,
        maxInFlightBytes,
        max,
        cors);
  }

  public ApiSettings withCors(CorsPolicy c) {
    return new ApiSettings(
        host,
        port,
        maxInFlight,
        maxBodyBytes,
        maxFrames,
        requestTimeout,
        retryAfterSeconds,
        maxInFlightBytes,
        maxModules,
        c);
  }

  /** {@link #maxInFlightBytes}, with 0 resolved to half this JVM's max heap. */
  public long inFlightBytesBudget() {
    return maxInFlightBytes > 0 ? maxInFlightBytes : Runtime.getRuntime().maxMemory() / 2;
  }
}

package io.symbolicate.api.server;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The HTTP server's own limits (the CLI fills them from {@code http.*} keys): how long slow
 * clients may take, how many threads handlers get, and TLS.
 *
 * @param idleTimeout a connection with nothing sent or read for this long is closed (keep-alive
 *     between requests; a blocked read or write of a handler fails)
 * @param headerTimeout a new connection must send its first request's headers within this
 *     (the headers are parsed on the selector: a slow one holds a connection, never a thread)
 * @param bodyTimeout grace for a request body: after it, the body must have arrived at
 *     {@code minBodyRate} bytes per second counted from its start, or it is cut off (408)
 * @param minBodyRate see {@code bodyTimeout}
 * @param maxThreads the server's thread pool (selectors, and handlers while they run)
 * @param h2c HTTP/2 without TLS (prior knowledge or upgrade) beside HTTP/1.1
 * @param tls null for plain HTTP
 * @param maxConnections open connections in all: beyond, the server stops accepting (new ones
 *     wait in the accept queue) and idle ones are closed sooner
 * @param maxConnectionsPerAddress open connections from one client address (0: no limit; leave
 *     it off behind a proxy): one more is closed at once
 */
public record ServerLimits(
    Duration idleTimeout,
    Duration headerTimeout,
    Duration bodyTimeout,
    long minBodyRate,
    int maxThreads,
    boolean h2c,
    Tls tls,
    int maxConnections,
    int maxConnectionsPerAddress) {

  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(10);

  /** 4 KiB/s: a 5 MB body over the slowest mobile link still arrives; a trickle does not. */
  public static final long DEFAULT_MIN_BODY_RATE = 4096;

  public static final int DEFAULT_MAX_THREADS = 200;

  /** Far more than the threads: a connection that waits for its client holds no thread. */
  public static final int DEFAULT_MAX_CONNECTIONS = 4096;

  /** Off: behind a load balancer every client has its address. */
  public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 0;

  /** While connections are at {@code maxConnections}, an idle one is closed after this. */
  public static final long LIMITED_IDLE_MILLIS = 1_000;

  /** Jetty's selectors and acceptors take threads from the pool before any handler runs. */
  public static final int MIN_THREADS = 16;

  /** A keystore (PKCS12 or JKS, by its content) holding the server's key and certificate. */
  public record Tls(Path keystore, String password) {
    public Tls {
      if (keystore == null || password == null) {
        throw new IllegalArgumentException(
            "http.tls.keystore.path needs http.tls.keystore.password");
      }
    }
  }

  public ServerLimits {
    if (isNotPositive(idleTimeout)
        || isNotPositive(headerTimeout)
        || isNotPositive(bodyTimeout)
        || minBodyRate < 1
        || maxThreads < MIN_THREADS
        || maxConnections < 1
        || maxConnectionsPerAddress < 0) {
      throw new IllegalArgumentException(
          "http.idle.timeout.ms, http.header.timeout.ms and http.body.timeout.ms "
              + "must be positive, http.body.min.rate.bytes at least 1, http.max.threads at least "
              + MIN_THREADS
              + ", http.max.connections at least 1, http.max.connections.per.address 0 or more");
    }
  }

  /** With the default connection limits. */
  public ServerLimits(
      Duration idleTimeout,
      Duration headerTimeout,
      Duration bodyTimeout,
      long minBodyRate,
      int maxThreads,
      boolean h2c,
      Tls tls) {
    this(
        idleTimeout,
        headerTimeout,
        bodyTimeout,
        minBodyRate,
        maxThreads,
        h2c,
        tls,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
  }

  /**
   * h2c is off: the JDK HttpClient (HTTP/2 by default) offers {@code Upgrade: h2c} on its first
   * request, and Jetty's upgrade of a request whose large body is still arriving loses the body.
   */
  public static ServerLimits defaults() {
    return new ServerLimits(
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_HEADER_TIMEOUT,
        DEFAULT_BODY_TIMEOUT,
        DEFAULT_MIN_BODY_RATE,
        DEFAULT_MAX_THREADS,
        false,
        null);
  }

  public ServerLimits withH2c(boolean on) {
    return new ServerLimits(
        idleTimeout,
        headerTimeout,
        bodyTimeout,
        minBodyRate,
        maxThreads,
        on,
        tls,
        maxConnections,
        maxConnectionsPerAddress);
  }

  public ServerLimits withTls(Tls t) {
    return new ServerLimits(
        idleTimeout,
        headerTimeout,
        bodyTimeout,
        minBodyRate,
        maxThreads,
        h2c,
        t,
        maxConnections,
        maxConnectionsPerAddress);
  }

  public ServerLimits withTimeouts(Duration idle, Duration header, Duration body, long minRate) {
    return new ServerLimits(
        idle,
        header,
        body,
        minRate,
        maxThreads,
        h2c,
        tls,
        maxConnections,
        maxConnectionsPerAddress);
  }

  public ServerLimits withConnections(int total, int perAddress) {
    return new ServerLimits(
        idleTimeout,
        headerTimeout,
        bodyTimeout,
        minBodyRate,
        maxThreads,
        h2c,
        tls,
        total,
        perAddress);
  }

  /**
   * Bytes a body that started {@code elapsedNanos} ago must have delivered by now: nothing
   * within the grace, then {@code minBodyRate} per second since its start.
   */
  public long bytesDueAfter(long elapsedNanos) {
    if (elapsedNanos <= bodyTimeout.toNanos()) {
      return 0;
    }
    return (long) (elapsedNanos / 1e9 * minBodyRate);
  }

  private static boolean isNotPositive(Duration d) {
    return d == null || d.isZero() || d.isNegative();
  }
}

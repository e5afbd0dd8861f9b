package io.symbolicate.app.metrics;

import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.JettyServer;
import io.symbolicate.api.server.ServerLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small HTTP server (the API's Jetty, with its default limits, a few threads and no TLS) with
 * just {@code /metrics} and {@code /health} (config {@code metrics.port}), for when the API
 * server is not running; the API server mounts the same two handlers.
 */
public final class MetricsServer implements AutoCloseable {
  /** Both handlers are quick: a few threads beside the selectors. */
  static final int THREADS = ServerLimits.MIN_THREADS;

  private final JettyServer server;

  private MetricsServer(JettyServer server) {
    this.server = server;
  }

  /** Binds {@code host:port} (0: an ephemeral port) and serves the two handlers. */
  public static MetricsServer start(String host, int port, Handler metrics, Handler health) {
    ServerLimits d = ServerLimits.defaults();
    ServerLimits limits =
        new ServerLimits(
            d.idleTimeout(),
            d.headerTimeout(),
            d.bodyTimeout(),
            d.minBodyRate(),
            THREADS,
            false,
            null);
    Map<String, Handler> routes = new LinkedHashMap<>();
    routes.put("/metrics", metrics);
    routes.put("/health", health);
    try {
      return new MetricsServer(JettyServer.start("metrics", host, port, limits, routes));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}

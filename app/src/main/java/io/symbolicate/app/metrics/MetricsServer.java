package io.symbolicate.app.metrics;

import io.symbolicate.api.server.JettyServer;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.api.server.ServerLimits;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A small HTTP server (the API's Jetty, with its default limits, a few threads and no TLS) with
 * just {@code /metrics} and {@code /health} (config {@code metrics.port}), for when the API
 * server is not running; the API server mounts the same two handlers. Its table is the app's
 * ({@code ApiRuntime.routes}) with those two parts only.
 */
public final class MetricsServer implements AutoCloseable {
  /** Both handlers are quick: a few threads beside the selectors. */
  static final int THREADS = ServerLimits.MIN_THREADS;

  private final JettyServer server;

  private MetricsServer(JettyServer server) {
    this.server = server;
  }

  /** Binds {@code host:port} (0: an ephemeral port) and serves {@code routes}. */
  public static MetricsServer start(String host, int port, RouteTable routes) {
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

package io.symbolicate.app.metrics;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

/**
 * A minimal JDK HTTP server with just {@code /metrics} and {@code /health} (config
 * {@code metrics.port}), for when the API server is not running; the API server mounts the same
 * two handlers.
 */
public final class MetricsServer implements AutoCloseable {
  private final HttpServer server;

  private MetricsServer(HttpServer server) {
    this.server = server;
  }

  /** Binds {@code host:port} (0: an ephemeral port) and serves the two handlers. */
  public static MetricsServer start(String host, int port, HttpHandler metrics, HttpHandler health) {
    io.symbolicate.api.JdkServerDefaults.ensure();
    HttpServer s;
    try {
      s = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    s.createContext("/metrics", metrics);
    s.createContext("/health", health);
    s.start(); // requests are answered on the server's own dispatcher thread: both handlers are quick
    return new MetricsServer(s);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

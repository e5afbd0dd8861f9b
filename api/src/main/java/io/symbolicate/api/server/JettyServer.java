package io.symbolicate.api.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty serving a {@link RouteTable}: HTTP/1.1 with keep-alive, HTTP/2
 * (h2c in the clear; h2 by ALPN over TLS), and the {@link ServerLimits} for slow clients.
 */
public final class JettyServer implements AutoCloseable {
  /** Connections waiting to be accepted. */
  static final int ACCEPT_QUEUE = 128;

  private final Server server;
  private final ServerConnector connector;
  private final boolean tls;

  private JettyServer(Server server, ServerConnector connector, boolean tls) {
    this.server = server;
    this.connector = connector;
    this.tls = tls;
  }

  /** Binds {@code host:port} (0: any free port) and serves {@code routes}; threads are named {@code name-N}. */
  public static JettyServer start(
      String name, String host, int port, ServerLimits limits, RouteTable routes)
      throws IOException {
    QueuedThreadPool pool = new QueuedThreadPool(limits.maxThreads(), ServerLimits.MIN_THREADS);
    pool.setName(name);
    pool.setDaemon(true);
    Server server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    HttpConnectionFactory h1 = new HttpConnectionFactory(http);
    ServerConnector connector;
    if (limits.tls() != null) {
      // no SNI host check: clients reach the server by address or by names the certificate lacks
      http.addCustomizer(new SecureRequestCustomizer(false));
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setKeyStorePath(limits.tls().keystore().toString());
      ssl.setKeyStorePassword(limits.tls().password());
      ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
      alpn.setDefaultProtocol(h1.getProtocol());
      connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(ssl, alpn.getProtocol()),
              alpn,
              new HTTP2ServerConnectionFactory(http),
              h1);
    } else if (limits.h2c()) {
      connector = new ServerConnector(server, h1, new HTTP2CServerConnectionFactory(http));
    } else {
      connector = new ServerConnector(server, h1);
    }
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(limits.idleTimeout().toMillis());
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    connector.addBean(
        new HeaderTimeout(connector.getScheduler(), limits.headerTimeout().toMillis()));
    server.addConnector(connector);
    NetworkConnectionLimit total = new NetworkConnectionLimit(limits.maxConnections(), server);
    total.setEndPointIdleTimeout(ServerLimits.LIMITED_IDLE_MILLIS);
    server.addBean(total);
    if (limits.maxConnectionsPerAddress() > 0) {
      connector.addBean(new ConnectionsPerAddress(limits.maxConnectionsPerAddress()));
    }
    server.setHandler(new Router(routes, limits));
    server.setErrorHandler(new JsonErrorHandler());
    server.setStopTimeout(0);
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } catch (Exception ignored) {
        // it did not start
      }
      throw new IOException(e.getMessage(), e);
    }
    return new JettyServer(server, connector, limits.tls() != null);
  }

  public int port() {
    return connector.getLocalPort();
  }

  public String host() {
    String h = connector.getHost();
    return h == null ? "0.0.0.0" : h;
  }

  /** The bound address (the wildcard when bound to every interface). */
  public InetSocketAddress address() {
    return new InetSocketAddress(host(), port());
  }

  public URI uri() {
    String h = host();
    return URI.create(
        (tls ? "https://" : "http://") + (h.contains(":") ? "[" + h + "]" : h) + ":" + port());
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      // stopping: nothing more to do
    }
  }
}

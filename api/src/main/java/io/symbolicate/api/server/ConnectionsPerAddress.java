package io.symbolicate.api.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SocketChannelEndPoint;

/**
 * At most {@code max} open connections from one client address: one more is closed as soon as it
 * opens. Only network connections count (TLS and ALPN wrappers share their socket's endpoint).
 * Behind a proxy or a load balancer every client has the proxy's address: leave it off there.
 */
final class ConnectionsPerAddress implements Connection.Listener {
  private final int max;
  private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
  private final AtomicLong refused = new AtomicLong();

  ConnectionsPerAddress(int max) {
    this.max = max;
  }

  @Override
  public void onOpened(Connection c) {
    InetAddress a = address(c);
    if (a == null) {
      return;
    }
    int now = open.merge(a, 1, Integer::sum);
    if (now > max) {
      refused.incrementAndGet();
      c.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection c) {
    InetAddress a = address(c);
    if (a != null) {
      open.computeIfPresent(a, (k, n) -> n <= 1 ? null : n - 1);
    }
  }

  /** Connections closed at once for being over the limit. */
  long refused() {
    return refused.get();
  }

  private static InetAddress address(Connection c) {
    if (!(c.getEndPoint() instanceof SocketChannelEndPoint)) {
      return null;
    }
    SocketAddress s = c.getEndPoint().getRemoteSocketAddress();
    return s instanceof InetSocketAddress i ? i.getAddress() : null;
  }
}

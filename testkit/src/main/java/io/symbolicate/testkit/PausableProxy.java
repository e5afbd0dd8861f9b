package io.symbolicate.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on a free loopback port in front of a server (an {@link EmbeddedS3}, say) that a
 * test can pause: while paused it accepts connections but forwards no byte in either direction,
 * so the clients' requests hang as they do against a store that stopped answering (not one that
 * refuses connections). {@link #resume()} lets the held bytes through; nothing is dropped.
 */
public final class PausableProxy implements AutoCloseable {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Object gate = new Object();
  private boolean paused;
  private volatile boolean closed;

  private PausableProxy(ServerSocket server, InetSocketAddress target) {
    this.server = server;
    this.target = target;
    Thread acceptor =
        new Thread(this::acceptLoop, "pausable-proxy-accept-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Starts a proxy to {@code 127.0.0.1:targetPort}. */
  public static PausableProxy start(int targetPort) {
    try {
      ServerSocket s = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
      return new PausableProxy(s, new InetSocketAddress("127.0.0.1", targetPort));
    } catch (IOException e) {
      throw new IllegalStateException("could not open the proxy's port: " + e, e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Holds every byte from now on, in both directions, on open and new connections. */
  public void pause() {
    synchronized (gate) {
      paused = true;
    }
  }

  /** Lets bytes through again. */
  public void resume() {
    synchronized (gate) {
      paused = false;
      gate.notifyAll();
    }
  }

  public boolean isPaused() {
    synchronized (gate) {
      return paused;
    }
  }

  private void awaitOpen() throws InterruptedException {
    synchronized (gate) {
      while (paused && !closed) {
        gate.wait(1000);
      }
    }
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        Thread t = new Thread(() -> connect(client), "pausable-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (!closed) {
          // a failed accept does not end the proxy; a closed server socket does
          continue;
        }
      }
    }
  }

  private void connect(Socket client) {
    Socket upstream = new Socket();
    try {
      awaitOpen();
      sockets.add(upstream);
      upstream.connect(target, 10_000);
      Thread back = new Thread(() -> pump(upstream, client), "pausable-proxy-down");
      back.setDaemon(true);
      back.start();
      pump(client, upstream);
    } catch (IOException | InterruptedException e) {
      closeQuietly(client);
      closeQuietly(upstream);
    }
  }

  /** Copies until end-of-stream, holding each chunk while paused. */
  private void pump(Socket from, Socket to) {
    byte[] buf = new byte[BUFFER_BYTES];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        awaitOpen();
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // one side closed or reset: the other follows below
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void closeQuietly(Socket s) {
    sockets.remove(s);
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    closed = true;
    resume();
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}

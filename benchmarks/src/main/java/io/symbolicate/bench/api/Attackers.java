package io.symbolicate.bench.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow clients beside the normal ones, each on its own connection, reconnecting whenever the
 * server cuts it off: slow headers (one header byte a second), slow bodies (a body of 4,000
 * bytes announced, one byte a second) and idle announced lengths (4,194,000 bytes announced,
 * nothing sent). Counts the connections and how the server ended them.
 */
final class Attackers implements AutoCloseable {
  enum Kind {
    SLOW_HEADER,
    SLOW_BODY,
    IDLE_LENGTH
  }

  /** What one kind of attacker saw. */
  static final class Tally {
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger answered408 = new AtomicInteger();
    final AtomicInteger answeredOther = new AtomicInteger();
    final AtomicInteger closedSilently = new AtomicInteger();
    final AtomicInteger refusedConnect = new AtomicInteger();

    @Override
    public String toString() {
      return connections
          + " connections; cut off with 408: "
          + answered408
          + ", other answer: "
          + answeredOther
          + ", closed without answer: "
          + closedSilently
          + ", connect failed: "
          + refusedConnect;
    }
  }

  private final URI server;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  final Tally slowHeader = new Tally();
  final Tally slowBody = new Tally();
  final Tally idleLength = new Tally();

  Attackers(URI server) {
    this.server = server;
  }

  void start(int slowHeaders, int slowBodies, int idleLengths) {
    spawn(Kind.SLOW_HEADER, slowHeaders, slowHeader);
    spawn(Kind.SLOW_BODY, slowBodies, slowBody);
    spawn(Kind.IDLE_LENGTH, idleLengths, idleLength);
  }

  private void spawn(Kind kind, int n, Tally t) {
    for (int i = 0; i < n; i++) {
      Thread th = new Thread(() -> attack(kind, t), "attacker-" + kind + "-" + i);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
  }

  private void attack(Kind kind, Tally t) {
    while (!stop.get()) {
      try (Socket s = new Socket(server.getHost(), server.getPort())) {
        t.connections.incrementAndGet();
        s.setSoTimeout(1000);
        OutputStream out = s.getOutputStream();
        InputStream in = s.getInputStream();
        String head =
            switch (kind) {
              case SLOW_HEADER -> "POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\n";
              case SLOW_BODY ->
                  "POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + "Content-Length: 4000\r\n\r\n";
              case IDLE_LENGTH ->
                  "POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + "Content-Length: 4194000\r\n\r\n";
            };
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        int sent = 0;
        while (!stop.get()) {
          int b;
          try {
            b = in.read(); // waits a second for the server to end this
          } catch (SocketTimeoutException e) {
            if (kind != Kind.IDLE_LENGTH) {
              // one more byte: a header line that never ends, or the body's next byte
              out.write(kind == Kind.SLOW_HEADER ? 'X' : (sent == 0 ? '{' : ' '));
              out.flush();
              sent++;
            }
            continue;
          }
          if (b < 0) {
            t.closedSilently.incrementAndGet();
          } else {
            byte[] rest = in.readNBytes(11);
            String status = (char) b + new String(rest, StandardCharsets.US_ASCII);
            (status.startsWith("HTTP/1.1 408") ? t.answered408 : t.answeredOther).incrementAndGet();
          }
          break;
        }
      } catch (IOException e) {
        // reset by the server while we wrote, or could not connect
        if (e.getMessage() != null && e.getMessage().contains("refused")) {
          t.refusedConnect.incrementAndGet();
          sleep();
        } else {
          t.closedSilently.incrementAndGet();
        }
      }
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(3000);
    }
  }
}

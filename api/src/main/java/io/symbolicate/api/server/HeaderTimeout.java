package io.symbolicate.api.server;

import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection that has not completed its first request's headers within the limit.
 * The selector parses headers as bytes come, so a slow sender holds no thread; this bounds how
 * long it holds a connection (the idle timeout alone restarts with every byte).
 */
final class HeaderTimeout implements Connection.Listener {
  private final Scheduler scheduler;
  private final long millis;

  HeaderTimeout(Scheduler scheduler, long millis) {
    this.scheduler = scheduler;
    this.millis = millis;
  }

  @Override
  public void onOpened(Connection c) {
    // connections that count requests (HTTP/1 and HTTP/2); TLS and ALPN wrappers report -1
    if (c.getMessagesIn() < 0) {
      return;
    }
    scheduler.schedule(
        () -> {
          if (c.getMessagesIn() == 0 && c.getEndPoint().isOpen()) {
            c.getEndPoint().close();
          }
        },
        millis,
        TimeUnit.MILLISECONDS);
  }
}

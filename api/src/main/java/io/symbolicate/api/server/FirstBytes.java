package io.symbolicate.api.server;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Waits, on no thread, until the first bytes of a request body have arrived, then runs the
 * handler on a pool thread; a body of which nothing arrives within the grace is refused (408)
 * and its connection closed. A client that sends headers and then nothing so holds a
 * connection for the grace, never a thread nor what the handler would take.
 */
final class FirstBytes implements Runnable {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final ServerLimits limits;
  private final Runnable handler;
  private final AtomicBoolean decided = new AtomicBoolean();

  FirstBytes(
      Request request,
      Response response,
      Callback callback,
      ServerLimits limits,
      Runnable handler) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.limits = limits;
    this.handler = handler;
  }

  void start() {
    request
        .getComponents()
        .getScheduler()
        .schedule(this::expire, limits.bodyTimeout().toMillis(), TimeUnit.MILLISECONDS);
    request.demand(this);
  }

  /** Something arrived (bytes, the end, or a failure the handler's read reports). */
  @Override
  public void run() {
    if (decided.compareAndSet(false, true)) {
      request.getComponents().getThreadPool().execute(handler);
    }
  }

  private void expire() {
    if (decided.compareAndSet(false, true)) {
      Responses.error(
          response,
          callback,
          408,
          "no request body within " + limits.bodyTimeout().toMillis() + " ms of the headers");
    }
  }
}

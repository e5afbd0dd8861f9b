package io.symbolicate.api.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Reads a request body as it arrives, on no thread while it waits: each chunk is claimed from
 * the receive budget, and a body behind the minimum rate is cut off (408) by a timer. Once
 * whole the handler gets it, its claim given back (the handler claims what the work needs); past
 * the handler's limit it is read on and discarded, then refused (413).
 */
final class BodyReceiver implements Runnable {
  /** How often a body still arriving is checked against the minimum rate. */
  static final long CHECK_MILLIS = 500;

  /** The first buffer, whatever length the request announces (nothing is allocated from it). */
  static final int FIRST_BUFFER = 16 << 10;

  /**
   * A body past the handler's limit is read on and discarded up to this, so that the client
   * sees the 413 (closing a connection with unread data resets it); beyond, the 413 is sent at once.
   */
  static final long DISCARD_CAP = 256L << 20;

  private final Request request;
  private final Response response;
  private final Callback callback;
  private final ReadsWholeBody route;
  private final ServerLimits limits;
  private final Consumer<InputStream> dispatch;
  private final long startNanos = System.nanoTime();
  private ByteArrayOutputStream buffer = new ByteArrayOutputStream(FIRST_BUFFER);
  private long held;
  private long received;
  private boolean discarding;
  private boolean done;

  BodyReceiver(
      Request request,
      Response response,
      Callback callback,
      ReadsWholeBody route,
      ServerLimits limits,
      Consumer<InputStream> dispatch) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.route = route;
    this.limits = limits;
    this.dispatch = dispatch;
  }

  void start() {
    scheduleCheck();
    run();
  }

  /** Reads what has arrived; asks to be called again when more does. */
  @Override
  public void run() {
    InputStream ready = null;
    synchronized (this) {
      while (!done) {
        Content.Chunk c = request.read();
        if (c == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(c)) {
          // the connection failed, or a read timed out (idle): nothing more will come
          finish();
          Responses.error(response, callback, 408, "request body not received: " + c.getFailure());
          return;
        }
        ByteBuffer b = c.getByteBuffer();
        int n = b.remaining();
        received += n;
        if (discarding) {
          boolean last = c.isLast();
          c.release();
          if (last || received > DISCARD_CAP) {
            finish();
            Responses.error(
                response,
                callback,
                413,
                "request body exceeds the limit of " + route.maxBodyBytes() + " bytes");
            return;
          }
          continue;
        }
        if (n > 0 && !route.receiveBudget().tryClaim(held, n)) {
          c.release();
          finish();
          response.getHeaders().put("Retry-After", String.valueOf(route.retryAfterSeconds()));
          Responses.error(
              response, callback, 503, "too much request data being received; retry later");
          return;
        }
        held += n;
        byte[] bytes = new byte[n];
        b.get(bytes);
        buffer.write(bytes, 0, n);
        boolean last = c.isLast();
        c.release();
        if (last) {
          ready = new ByteArrayInputStream(buffer.toByteArray());
          finish();
        } else if (buffer.size() > route.maxBodyBytes()) {
          // too large: refused once the rest is read and discarded, on no thread
          discarding = true;
          route.receiveBudget().giveBack(held);
          held = 0;
          buffer = null;
        }
      }
    }
    if (ready != null) {
      dispatch.accept(ready);
    }
  }

  /** Done receiving: the claim is given back (called once, holding the lock). */
  private void finish() {
    done = true;
    buffer = null;
    route.receiveBudget().giveBack(held);
    held = 0;
  }

  private void scheduleCheck() {
    request
        .getComponents()
        .getScheduler()
        .schedule(this::check, CHECK_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void check() {
    synchronized (this) {
      if (done) {
        return;
      }
      long due = limits.bytesDueAfter(System.nanoTime() - startNanos);
      if (received >= due) {
        scheduleCheck();
        return;
      }
      long got = received;
      finish();
      Responses.error(
          response,
          callback,
          408,
          "request body arrived too slowly: "
              + got
              + " bytes in "
              + (System.nanoTime() - startNanos) / 1_000_000
              + " ms (at least "
              + limits.minBodyRate()
              + " bytes/s after "
              + limits.bodyTimeout().toMillis()
              + " ms)");
    }
  }
}

package io.symbolicate.api.server;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Receives the start of a streamed body on no thread before its handler runs ({@link
 * StreamsBody#receivedFirst}): the whole body when it ends sooner, else its first bytes, each
 * chunk claimed from the route's budget as it arrives. Then the handler runs on a pool thread and
 * reads those bytes first, the rest from the connection ({@link StartedBody}). Meanwhile the body
 * is held to the minimum rate from the request's start, by a timer: one that falls behind (or of
 * which nothing arrives within the grace) gets 408 on no thread and its connection closed. A
 * client that trickles its body so holds a connection and the bytes it sent, never a thread nor
 * what the handler takes for the work (the collector's slot).
 */
final class BodyStart implements Runnable {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final ServerLimits limits;
  private final long startNanos;
  private final int wanted;
  private final ReadsWholeBody.ReceiveBudget budget;
  private final Consumer<InputStream> handler;
  private byte[] buffer = new byte[0];
  private int size;
  private long held;
  private boolean done;

  BodyStart(
      Request request,
      Response response,
      Callback callback,
      ServerLimits limits,
      long startNanos,
      StreamsBody route,
      Consumer<InputStream> handler) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.limits = limits;
    this.startNanos = startNanos;
    this.wanted = Math.max(1, route.receivedFirst());
    this.budget = route.receiveBudget();
    this.handler = handler;
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
          // the connection failed, or a read timed out: nothing more will come
          fail(408, "request body not received: " + c.getFailure());
          return;
        }
        ByteBuffer b = c.getByteBuffer();
        int n = b.remaining();
        // spent budget: the body goes to its handler with what it has (as if it were whole)
        boolean claimed = n == 0 || budget == null || budget.tryClaim(held, n);
        if (claimed && budget != null) {
          held += n;
        }
        if (size + n > buffer.length) {
          buffer = Arrays.copyOf(buffer, Math.max(size + n, Math.min(wanted, 2 * buffer.length)));
        }
        b.get(buffer, size, n);
        size += n;
        boolean last = c.isLast();
        c.release();
        if (last || size >= wanted || !claimed) {
          done = true;
          ready =
              new StartedBody(
                  buffer,
                  size,
                  last ? null : new RateGuardedInput(request, limits, startNanos, size),
                  budget,
                  held);
          buffer = null;
        }
      }
    }
    if (ready != null) {
      InputStream body = ready;
      request.getComponents().getThreadPool().execute(() -> handler.accept(body));
    }
  }

  /** Done without the handler: what was claimed is given back, the client answered. */
  private void fail(int status, String reason) {
    done = true;
    buffer = null;
    if (budget != null) {
      budget.giveBack(held);
    }
    held = 0;
    Responses.error(response, callback, status, reason);
  }

  private void scheduleCheck() {
    request
        .getComponents()
        .getScheduler()
        .schedule(this::check, BodyReceiver.CHECK_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void check() {
    synchronized (this) {
      if (done) {
        return;
      }
      long elapsed = System.nanoTime() - startNanos;
      long due = limits.bytesDueAfter(elapsed);
      if (size >= due) {
        scheduleCheck();
        return;
      }
      if (size == 0) {
        fail(
            408,
            "no request body within " + limits.bodyTimeout().toMillis() + " ms of the headers");
        return;
      }
      fail(
          408,
          "request body arrived too slowly: "
              + size
              + " bytes in "
              + elapsed / 1_000_000
              + " ms (at least "
              + limits.minBodyRate()
              + " bytes/s after "
              + limits.bodyTimeout().toMillis()
              + " ms)");
    }
  }
}

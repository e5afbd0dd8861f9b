package io.symbolicate.api.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * A request body read by a handler's thread, held to the minimum rate
 * ({@link ServerLimits#bytesDueAfter}) while it waits, not only when bytes come: a read that gets
 * nothing gives up once the body falls behind, so a client that stalls holds the thread (and
 * whatever admission slot the handler took) for the grace and a little more, never the
 * connection's idle timeout.
 */
final class RateGuardedInput extends InputStream {
  /** Request attribute set once the body fell behind: the server answers 408 if the handler did not. */
  static final String TOO_SLOW = RateGuardedInput.class.getName() + ".tooSlow";

  private final Request request;
  private final ServerLimits limits;
  private long startNanos;
  private long graceNanos;
  private long received;
  private Content.Chunk chunk;
  private boolean eof;
  private IOException failure;

  RateGuardedInput(Request request, ServerLimits limits, long startNanos, long receivedBefore) {
    this.request = request;
    this.limits = limits;
    this.startNanos = startNanos;
    this.graceNanos = limits.bodyTimeout().toNanos();
    this.received = receivedBefore;
  }

  /** Counts the minimum rate from now, after {@code grace} ({@link Request#holdBodyToRate}). */
  void restart(Duration grace) {
    startNanos = System.nanoTime();
    graceNanos = Math.min(graceNanos, grace.toNanos());
    received = 0;
  }

  /** Bytes due {@code elapsedNanos} after the start: none within the grace, then the minimum rate. */
  private long dueAfter(long elapsedNanos) {
    return elapsedNanos <= graceNanos ? 0 : (long) (elapsedNanos / 1e9 * limits.minBodyRate());
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (failure != null) {
        throw failure;
      }
      if (chunk != null) {
        ByteBuffer b = chunk.getByteBuffer();
        if (b.hasRemaining()) {
          int n = Math.min(len, b.remaining());
          b.get(buf, off, n);
          count(n);
          return n;
        }
        boolean last = chunk.isLast();
        chunk.release();
        chunk = null;
        if (last) {
          eof = true;
        }
      }
      if (eof) {
        return -1;
      }
      Content.Chunk c = request.read();
      if (c == null) {
        await();
        continue;
      }
      if (Content.Chunk.isFailure(c)) {
        Throwable t = c.getFailure();
        failure = t instanceof IOException io ? io : new IOException(t);
        throw failure;
      }
      chunk = c;
    }
  }

  /** Waits for more of the body until the moment it falls behind the minimum rate. */
  private void await() throws IOException {
    CountDownLatch arrived = new CountDownLatch(1);
    request.demand(arrived::countDown);
    long waitNanos = deadlineNanos() - (System.nanoTime() - startNanos);
    try {
      if (waitNanos > 0 && arrived.await(waitNanos, TimeUnit.NANOSECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = new IOException("interrupted while reading the request body");
      throw failure;
    }
    request.setAttribute(TOO_SLOW, Boolean.TRUE);
    failure = new SlowBodyException(received, dueAfter(System.nanoTime() - startNanos));
    throw failure;
  }

  /** Nanoseconds after the start by which more than {@link #received} bytes are due. */
  private long deadlineNanos() {
    long grace = graceNanos;
    double atRate = (received + 1) * 1e9 / limits.minBodyRate();
    return Math.max(grace, (long) Math.min(Long.MAX_VALUE / 2.0, atRate));
  }

  private void count(int n) throws IOException {
    received += n;
    long due = dueAfter(System.nanoTime() - startNanos);
    if (received < due) {
      request.setAttribute(TOO_SLOW, Boolean.TRUE);
      failure = new SlowBodyException(received, due);
      throw failure;
    }
  }

  @Override
  public int available() {
    return chunk == null ? 0 : chunk.getByteBuffer().remaining();
  }

  /**
   * Whether the whole body has now been received: drops what is left of it, at most {@code
   * maxBytes}, waiting at most {@code wait} for bytes still on their way; false if more is still
   * to come (or the body failed). For an answer given before the body was read.
   */
  boolean dropRest(long maxBytes, Duration wait) {
    close();
    long deadline = System.nanoTime() + wait.toNanos();
    long dropped = 0;
    while (!eof) {
      if (failure != null || dropped > maxBytes) {
        return false;
      }
      Content.Chunk c = request.read();
      if (c == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        CountDownLatch arrived = new CountDownLatch(1);
        request.demand(arrived::countDown);
        try {
          if (!arrived.await(left, TimeUnit.NANOSECONDS)) {
            return false;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
        continue;
      }
      if (Content.Chunk.isFailure(c)) {
        return false;
      }
      dropped += c.remaining();
      eof = c.isLast();
      c.release();
    }
    return true;
  }

  @Override
  public void close() {
    if (chunk != null) {
      chunk.release();
      chunk = null;
    }
  }

  /** The client sent its body slower than the minimum rate. */
  static final class SlowBodyException extends IOException {
    SlowBodyException(long received, long due) {
      super("request body arrived too slowly: " + received + " bytes, " + due + " due by now");
    }
  }
}

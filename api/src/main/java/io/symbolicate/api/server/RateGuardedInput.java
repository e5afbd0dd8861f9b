package io.symbolicate.api.server;

import java.io.FilterInputStream;
import java.io.IOException;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * A request body read by a handler's thread: each read checks the body keeps the minimum rate
 * ({@link ServerLimits#bytesDueAfter}), so a client trickling its body holds the thread no
 * longer than the grace and a little more. A read that gets nothing at all ends with the
 * connection's idle timeout.
 */
final class RateGuardedInput extends FilterInputStream {
  /** Request attribute set once the body fell behind: the server answers 408 if the handler did not. */
  static final String TOO_SLOW = RateGuardedInput.class.getName() + ".tooSlow";

  private final Request request;
  private final ServerLimits limits;
  private final long startNanos;
  private long received;

  RateGuardedInput(Request request, ServerLimits limits, long startNanos, long receivedBefore) {
    super(Content.Source.asInputStream(request));
    this.request = request;
    this.limits = limits;
    this.startNanos = startNanos;
    this.received = receivedBefore;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    int n = super.read(buf, off, len);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  private void count(int n) throws IOException {
    received += n;
    long due = limits.bytesDueAfter(System.nanoTime() - startNanos);
    if (received < due) {
      request.setAttribute(TOO_SLOW, Boolean.TRUE);
      throw new SlowBodyException(received, due);
    }
  }

  /** The client sent its body slower than the minimum rate. */
  static final class SlowBodyException extends IOException {
    SlowBodyException(long received, long due) {
      super("request body arrived too slowly: " + received + " bytes, " + due + " due by now");
    }
  }
}

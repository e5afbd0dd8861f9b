package io.symbolicate.api.server;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * A streamed body whose start the server received before the handler ran ({@link BodyStart}):
 * those bytes first (their claim on the receive budget given back once read, or at the end), then
 * the rest from the connection at the minimum rate; nothing more when the body was whole.
 */
final class StartedBody extends InputStream {
  private byte[] first;
  private final int size;
  private int pos;
  private final RateGuardedInput rest;
  private final ReadsWholeBody.ReceiveBudget budget;
  private long held;

  StartedBody(
      byte[] first,
      int size,
      RateGuardedInput rest,
      ReadsWholeBody.ReceiveBudget budget,
      long held) {
    this.first = first;
    this.size = size;
    this.rest = rest;
    this.budget = budget;
    this.held = held;
  }

  /** The rest keeps the minimum rate from now after {@code grace} ({@link Request#holdBodyToRate}). */
  void restart(Duration grace) {
    if (rest != null) {
      rest.restart(grace);
    }
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
    if (pos < size) {
      int n = Math.min(len, size - pos);
      System.arraycopy(first, pos, buf, off, n);
      pos += n;
      if (pos == size) {
        giveBack();
      }
      return n;
    }
    return rest == null ? -1 : rest.read(buf, off, len);
  }

  @Override
  public int available() {
    return pos < size ? size - pos : rest == null ? 0 : rest.available();
  }

  /** As {@link RateGuardedInput#dropRest}: the start was received, the rest maybe not. */
  boolean dropRest(long maxBytes, Duration wait) {
    giveBack();
    pos = size;
    return rest == null || rest.dropRest(maxBytes, wait);
  }

  @Override
  public void close() {
    giveBack();
    if (rest != null) {
      rest.close();
    }
  }

  private void giveBack() {
    first = null;
    if (budget != null && held > 0) {
      budget.giveBack(held);
    }
    held = 0;
  }
}

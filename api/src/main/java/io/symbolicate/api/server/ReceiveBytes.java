package io.symbolicate.api.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A byte budget for bodies being received, on its own: granted within {@code max}, or to a body
 * that holds all of what is claimed (so one body alone always gets through).
 */
public final class ReceiveBytes implements ReadsWholeBody.ReceiveBudget {
  private final long max;
  private final AtomicLong claimed = new AtomicLong();

  public ReceiveBytes(long max) {
    this.max = max;
  }

  @Override
  public boolean tryClaim(long held, long more) {
    long now;
    do {
      now = claimed.get();
      if (now != held && now + more > max) {
        return false;
      }
    } while (!claimed.compareAndSet(now, now + more));
    return true;
  }

  @Override
  public void giveBack(long bytes) {
    claimed.addAndGet(-bytes);
  }

  /** Bytes held now by bodies being received. */
  public long claimed() {
    return claimed.get();
  }
}

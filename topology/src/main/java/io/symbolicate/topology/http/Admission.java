package io.symbolicate.topology.http;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/** At most N requests symbolicated at once; the rest are refused at once (503), never queued. */
public final class Admission {
  private final int max;
  private final Semaphore permits;
  private final AtomicLong refused = new AtomicLong();

  public Admission(int maxInFlight) {
    this.max = maxInFlight;
    this.permits = new Semaphore(maxInFlight);
  }

  /** True if admitted; the caller must {@link #release()} after. */
  public boolean tryEnter() {
    if (permits.tryAcquire()) {
      return true;
    }
    refused.incrementAndGet();
    return false;
  }

  public void release() {
    permits.release();
  }

  /** Requests admitted and not finished. */
  public int inFlight() {
    return max - permits.availablePermits();
  }

  public long refused() {
    return refused.get();
  }
}

package io.symbolicate.topology.http;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most N requests symbolicated at once, and together claiming at most a budget of heap; the
 * rest are refused at once (503), never queued. A request alone is always admitted, whatever
 * it claims, so the largest body the API accepts can be answered when nothing else runs.
 */
public final class Admission {
  private final int max;
  private final long maxBytes;
  private final Semaphore permits;
  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  public Admission(int maxInFlight, long maxBytes) {
    this.max = maxInFlight;
    this.maxBytes = maxBytes;
    this.permits = new Semaphore(maxInFlight);
  }

  /** True if admitted; the caller must {@link #release(long)} the same {@code bytes} after. */
  public boolean tryEnter(long bytes) {
    if (!permits.tryAcquire()) {
      refused.incrementAndGet();
      return false;
    }
    if (!tryClaimMore(0, bytes)) {
      permits.release();
      return false;
    }
    return true;
  }

  /**
   * Claims {@code more} for an admitted request that holds {@code held} (0 while it is being
   * admitted): granted within the budget, or when that request is alone. Refused, it still
   * holds {@code held}.
   */
  public boolean tryClaimMore(long held, long more) {
    long now;
    do {
      now = claimed.get();
      if (now != held && now + more > maxBytes) {
        refused.incrementAndGet();
        return false;
      }
    } while (!claimed.compareAndSet(now, now + more));
    return true;
  }

  /** Gives back part of an admitted request's claim (it goes on holding the rest). */
  public void giveBack(long bytes) {
    claimed.addAndGet(-bytes);
  }

  public void release(long bytes) {
    claimed.addAndGet(-bytes);
    permits.release();
  }

  /** Requests admitted and not finished. */
  public int inFlight() {
    return max - permits.availablePermits();
  }

  /** Heap the requests in flight claimed. */
  public long claimedBytes() {
    return claimed.get();
  }

  public long refused() {
    return refused.get();
  }
}

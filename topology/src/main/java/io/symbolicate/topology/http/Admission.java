package io.symbolicate.topology.http;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most N requests symbolicated at once, and together claiming at most a budget of heap; the
 * rest are refused at once (503), never queued. A request alone is always admitted, whatever
 * it claims, so the largest body the API accepts can be answered when nothing else runs.
 *
 * <p>A finished request gives back its permit before its answer is written (a client that sends
 * its next request as soon as it has read the answer finds the permit free), but the answer's
 * bytes stay claimed until they are written ({@link #writing}): a client that reads slowly holds
 * its answer for up to the response time limit, and answers held that way must not pile up
 * beyond the budget. A request is alone only when no answer is being written either.
 */
public final class Admission {
  private final int max;
  private final long maxBytes;
  private final Semaphore permits;
  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong writing = new AtomicLong();
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
      long written = writing.get();
      if ((now != held || written > 0) && now + written + more > maxBytes) {
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

  /**
   * Ends an admitted request that claimed {@code bytes} and now writes an answer of
   * {@code answerBytes}: its permit and claim are given back, and the answer stays claimed until
   * {@link #written}.
   */
  public void writing(long bytes, long answerBytes) {
    writing.addAndGet(answerBytes);
    release(bytes);
  }

  /** An answer of {@code answerBytes} has been written (or its client went away). */
  public void written(long answerBytes) {
    writing.addAndGet(-answerBytes);
  }

  /** Requests admitted and not finished. */
  public int inFlight() {
    return max - permits.availablePermits();
  }

  /** Heap the requests in flight claimed. */
  public long claimedBytes() {
    return claimed.get();
  }

  /** Bytes of answers being written. */
  public long writingBytes() {
    return writing.get();
  }

  public long refused() {
    return refused.get();
  }
}

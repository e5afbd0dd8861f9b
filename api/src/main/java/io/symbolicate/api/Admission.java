package io.symbolicate.api;

import io.symbolicate.api.server.ReadsWholeBody;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most N requests symbolicated at once, and together claiming at most a budget of heap; the
 * rest are refused at once (503), never queued. A request alone is always admitted, whatever
 * it claims, so the largest body the API accepts can be answered when nothing else runs.
 *
 * <p>Only work and bytes that exist count: bodies still arriving claim the bytes received so far
 * from the same budget ({@link #tryClaim}, by the server as chunks come), and a request takes
 * its permit and its heap claim only once its body is whole. A client that announces a length
 * and sends nothing, or sends a byte a second, holds no permit and only what it sent.
 *
 * <p>A request keeps its permit, and as much of its claim as its answer takes, while the answer
 * is written: a client that reads slowly holds its answer (and a handler thread) for up to the
 * response time limit, and answers held that way must neither pile up beyond the budget nor
 * take every thread. Both are given back just before the answer's last byte is sent, so a client
 * that sends its next request as soon as it has read the answer finds them free
 * ({@link #answering}, {@link #answered}).
 */
public final class Admission implements ReadsWholeBody.ReceiveBudget {
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
      if (now != held && now + more > maxBytes) {
        refused.incrementAndGet();
        return false;
      }
    } while (!claimed.compareAndSet(now, now + more));
    return true;
  }

  /** Claims bytes of a body as they arrive (no permit): {@link #tryClaimMore}. */
  @Override
  public boolean tryClaim(long held, long more) {
    return tryClaimMore(held, more);
  }

  /** Gives back part of an admitted request's claim (it goes on holding the rest). */
  @Override
  public void giveBack(long bytes) {
    claimed.addAndGet(-bytes);
  }

  public void release(long bytes) {
    claimed.addAndGet(-bytes);
    permits.release();
  }

  /**
   * An admitted request that claimed {@code claim} starts writing its answer of
   * {@code answerBytes}: it keeps its permit and only as much of the claim as the answer takes
   * (the parsed request and the answer's tree are garbage by now). Returns what it holds, which
   * {@link #answered} gives back.
   */
  public long answering(long claim, long answerBytes) {
    long keep = Math.min(claim, answerBytes);
    giveBack(claim - keep);
    writing.addAndGet(answerBytes);
    return keep;
  }

  /** The answer of {@link #answering} is (all but) written: its permit and {@code held} are free. */
  public void answered(long held, long answerBytes) {
    writing.addAndGet(-answerBytes);
    release(held);
  }

  /** Requests admitted and not finished (being symbolicated, or their answers written). */
  public int inFlight() {
    return max - permits.availablePermits();
  }

  /** Heap the requests in flight claimed. */
  public long claimedBytes() {
    return claimed.get();
  }

  /** Bytes of answers being written (the part of {@link #claimedBytes} they hold). */
  public long writingBytes() {
    return writing.get();
  }

  public long refused() {
    return refused.get();
  }
}

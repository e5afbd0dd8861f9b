package io.symbolicate.api.server;

/**
 * A handler whose request body the server reads whole, without a thread, before the handler
 * runs: a slow client then holds a connection and the bytes it actually sent, never a thread or
 * an admission permit. Bodies announced larger than {@link #maxBodyBytes} (or growing beyond it)
 * go to the handler as a stream, for it to refuse.
 */
public interface ReadsWholeBody {
  long maxBodyBytes();

  /** The Retry-After of a refusal for lack of budget. */
  int retryAfterSeconds();

  /** Claims, as they arrive, the bytes of bodies being received; shared with the work admission. */
  ReceiveBudget receiveBudget();

  /** Heap held by bodies still arriving; {@link #tryClaim} may refuse beyond the budget. */
  interface ReceiveBudget {
    /**
     * Claims {@code more} for a body that holds {@code held} so far: false (nothing claimed) when
     * that exceeds the budget and others hold some of it too.
     */
    boolean tryClaim(long held, long more);

    void giveBack(long bytes);
  }
}

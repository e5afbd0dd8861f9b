package io.symbolicate.symbols.testing;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;

/**
 * The rule every fuzz target applies (docs/fuzzing.md): the code under test answers an input with
 * a result or with one of its documented exceptions. Anything else is a finding: another
 * throwable (rethrown as it is, so Jazzer keys the finding on its stack), an input that makes the
 * code allocate more heap than {@link #allocationBudget} allows (the house rule: nothing is
 * allocated from a count the input claims), or a hang (the targets' {@code @Timeout}).
 *
 * <p>Shared with the other modules' fuzz targets through this module's test jar.
 */
public final class Fuzzing {
  /** Heap any one input may cost, whatever its size (tables, parsers and their buffers). */
  public static final long BASE_ALLOCATION_BUDGET = 64L << 20;

  /** ... plus this much per input byte (decoded arrays are a small multiple of their bytes). */
  public static final long ALLOCATION_PER_INPUT_BYTE = 4096;

  /** Seconds one input may take; a target's {@code @Timeout}, which Jazzer's -timeout follows. */
  public static final int TIMEOUT_SECONDS = 10;

  private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  private Fuzzing() {}

  /** The code under test: returns normally or throws. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  /** Bytes of heap an input of {@code inputBytes} may make the code under test allocate. */
  public static long allocationBudget(int inputBytes) {
    return BASE_ALLOCATION_BUDGET + ALLOCATION_PER_INPUT_BYTE * inputBytes;
  }

  /**
   * Runs {@code body} on {@code input}: returns when it returns or throws one of
   * {@code documented}; rethrows anything else; fails when it allocated over the budget.
   */
  @SafeVarargs
  public static void expect(byte[] input, Body body, Class<? extends Throwable>... documented)
      throws Exception {
    long allocated = run(body, documented);
    if (allocated > allocationBudget(input.length)) {
      // the first run of a code path also counts what loading (and, when fuzzing, instrumenting)
      // its classes allocated on this thread: only a second run over the budget is the input's
      allocated = run(body, documented);
      if (allocated > allocationBudget(input.length)) {
        throw new AllocationBudgetExceeded(input.length, allocated);
      }
    }
  }

  /** Runs the body once; returns the heap it allocated on this thread. */
  @SafeVarargs
  private static long run(Body body, Class<? extends Throwable>... documented) throws Exception {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    try {
      body.run();
    } catch (Exception | Error e) {
      if (!isDocumented(e, documented)) {
        throw e;
      }
    }
    return THREADS.getCurrentThreadAllocatedBytes() - before;
  }

  @SafeVarargs
  private static boolean isDocumented(Throwable t, Class<? extends Throwable>... documented) {
    for (Class<? extends Throwable> c : documented) {
      if (c.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** An invariant of a result (e.g. our own output decodes again) that does not hold. */
  public static void check(boolean condition, String what) {
    if (!condition) {
      throw new InvariantViolated(what);
    }
  }

  /** An input that cost more heap than it may: a finding. */
  public static final class AllocationBudgetExceeded extends AssertionError {
    AllocationBudgetExceeded(int inputBytes, long allocated) {
      super(
          "an input of "
              + inputBytes
              + " bytes allocated "
              + allocated
              + " bytes of heap (budget "
              + allocationBudget(inputBytes)
              + ")");
    }
  }

  /** A broken invariant of a result: a finding. */
  public static final class InvariantViolated extends AssertionError {
    InvariantViolated(String what) {
      super(what);
    }
  }
}

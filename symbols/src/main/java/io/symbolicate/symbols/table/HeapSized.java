package io.symbolicate.symbols.table;

/**
 * A decoded page that knows (an estimate of) the heap it holds, so a cache bounded in bytes can
 * weigh it honestly: decoded pages are often many times their encoded size.
 */
public interface HeapSized {

  /** Estimated bytes of heap retained by this object, including what it may still memoise. */
  long heapBytes();
}

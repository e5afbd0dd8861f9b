package io.symbolicate.symbols.nativecode;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The unwind records of a .sym (STACK CFI INIT, STACK CFI deltas, STACK WIN of types 0 and 4,
 * FUNC parameter sizes) as the builder collects them: encoded entries off the heap, a primitive
 * index of address, extent and offset on it. {@link #order()} gives them by address with file
 * order kept among equal addresses; the page writer puts each in the page holding its address.
 *
 * <p>Entry encoding (also the page's): kind byte, then INIT: var size, blob rules; DELTA: blob
 * rules; WIN: byte type, var size, blob fields; PARAM: var parameter size.
 */
final class UnwindRecords implements AutoCloseable {
  static final int CFI_INIT = 0;
  static final int CFI_DELTA = 1;
  static final int WIN = 2;
  static final int PARAM = 3;

  private final ChunkedBytes store;
  private final ByteWriter rec = new ByteWriter(256);
  private long[] addr = new long[1024];
  private long[] end = new long[1024]; // exclusive end (0: reaches 2^64), addr + 1 for points
  private long[] off = new long[1024];
  private int[] len = new int[1024];
  private int count;
  private boolean sorted = true;

  UnwindRecords(IntFunction<ByteBuffer> allocate) {
    this.store = new ChunkedBytes(allocate);
  }

  long heldBytes() {
    return store.heldBytes();
  }

  int count() {
    return count;
  }

  /** Heap of the index as allocated: 28 bytes a record. */
  long heapBytes() {
    return 28L * addr.length;
  }

  /** Heap the next add would allocate when the arrays double. */
  long growthBytes() {
    return count == addr.length ? 28L * addr.length : 0;
  }

  void cfiInit(long address, long size, byte[] buf, int o, int n) {
    rec.reset();
    rec.writeByte(CFI_INIT);
    rec.writeVar(size);
    rec.writeBlob(buf, o, n);
    add(address, size == 0 ? address + 1 : address + size);
  }

  void cfiDelta(long address, byte[] buf, int o, int n) {
    rec.reset();
    rec.writeByte(CFI_DELTA);
    rec.writeBlob(buf, o, n);
    add(address, address + 1);
  }

  void win(int type, long rva, long size, byte[] buf, int o, int n) {
    rec.reset();
    rec.writeByte(WIN);
    rec.writeByte(type);
    rec.writeVar(size);
    rec.writeBlob(buf, o, n);
    add(rva, size == 0 ? rva + 1 : rva + size);
  }

  void param(long address, long parameterSize) {
    rec.reset();
    rec.writeByte(PARAM);
    rec.writeVar(parameterSize);
    add(address, address + 1);
  }

  private void add(long a, long e) {
    if (count == addr.length) {
      int n = count * 2;
      addr = Arrays.copyOf(addr, n);
      end = Arrays.copyOf(end, n);
      off = Arrays.copyOf(off, n);
      len = Arrays.copyOf(len, n);
    }
    if (count > 0 && Unsigned.lt(a, addr[count - 1])) {
      sorted = false;
    }
    addr[count] = a;
    // a range that wraps past 2^64 is cut there: its end reads as "to the top" (0)
    end[count] = Unsigned.lt(e, a) ? 0 : e;
    off[count] = store.append(rec.array(), 0, rec.size());
    len[count] = rec.size();
    count++;
  }

  long address(int i) {
    return addr[i];
  }

  long end(int i) {
    return end[i];
  }

  int length(int i) {
    return len[i];
  }

  void read(int i, byte[] dst) {
    store.read(off[i], dst, 0, len[i]);
  }

  /** Indexes by unsigned address, file order among equal addresses. */
  int[] order() {
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = i;
    }
    if (!sorted) {
      long[] keys = new long[count];
      for (int i = 0; i < count; i++) {
        // sortable as signed: flip the sign bit
        keys[i] = addr[i] ^ Long.MIN_VALUE;
      }
      // a stable merge sort of primitive indexes (file order kept among equal keys): boxing a
      // million Integers for Arrays.sort cost more than the rest of the unwind work
      mergeSort(out, new int[count], keys, 0, count);
    }
    return out;
  }

  private static final int INSERTION_RUN = 24;

  /** Sorts {@code a[from, to)} by {@code keys}, stable; {@code tmp} is scratch of a's length. */
  private static void mergeSort(int[] a, int[] tmp, long[] keys, int from, int to) {
    if (to - from <= INSERTION_RUN) {
      for (int i = from + 1; i < to; i++) {
        int x = a[i];
        long k = keys[x];
        int j = i - 1;
        while (j >= from && keys[a[j]] > k) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = x;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(a, tmp, keys, from, mid);
    mergeSort(a, tmp, keys, mid, to);
    if (keys[a[mid - 1]] <= keys[a[mid]]) {
      return; // already in order (the usual case: records come in runs by address)
    }
    System.arraycopy(a, from, tmp, from, to - from);
    int i = from;
    int j = mid;
    for (int o = from; o < to; o++) {
      // ties take the left half first: that keeps file order
      if (j >= to || (i < mid && keys[tmp[i]] <= keys[tmp[j]])) {
        a[o] = tmp[i++];
      } else {
        a[o] = tmp[j++];
      }
    }
  }

  @Override
  public void close() {
    store.close();
  }
}

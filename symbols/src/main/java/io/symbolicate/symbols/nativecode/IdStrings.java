package io.symbolicate.symbols.nativecode;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

/**
 * A .sym file's FILE or INLINE_ORIGIN names by id while its table is built: the bytes in a
 * {@link ChunkedBytes} (off the heap), the ids in an open-addressing index. A big file has tens
 * of thousands of long demangled origin names (71k, 32 MB in a 130 MB file); as one array and
 * one map entry each they were ~40 MB of old-generation heap for the whole conversion.
 *
 * <p>The ids come from the file, so a hostile one could pick them to share one run of slots and
 * make every insert probe them all (quadratic). The hash mixes a random seed per instance into
 * murmur3's finaliser, so no id sequence collides on purpose. (Pages list ids sorted, so the
 * seed never shows in a table.)
 *
 * <p>Real ids are dense (0 to the count), and the page writer looks each up once per page it
 * lands in (millions of lookups for a big file): ids below {@link #denseLimit} also have their
 * entry in a plain array, which is a fraction of the hash slots' size and stays in cache. The
 * array grows only with the names really stored, never with an id the file claims.
 */
final class IdStrings implements AutoCloseable {
  private final ChunkedBytes bytes;
  private final int seed = ThreadLocalRandom.current().nextInt();
  private int[] slotId = new int[1024];
  private int[] slotEntry = new int[1024]; // entry index + 1; 0: empty slot
  private int[] dense = new int[0]; // entry + 1 by id, for ids below its length; 0: none
  private long[] offset = new long[512];
  private int[] length = new int[512];
  private int count;
  private long probes;
  private boolean closed;

  IdStrings() {
    this(ChunkedBytes.DIRECT);
  }

  /** With another allocator for the name bytes (tests: one that runs out). */
  IdStrings(IntFunction<ByteBuffer> allocate) {
    this.bytes = new ChunkedBytes(allocate);
  }

  int size() {
    return count;
  }

  /** Slots looked at beyond the first, over all lookups and inserts so far (tests: hashing quality). */
  long extraProbes() {
    return probes;
  }

  /** Heap bytes of the id index (its arrays as allocated). */
  long heapBytes() {
    return 4L * slotId.length
        + 4L * slotEntry.length
        + 8L * offset.length
        + 4L * length.length
        + 4L * dense.length;
  }

  /** Bytes of direct memory held now. */
  long heldBytes() {
    return bytes.heldBytes();
  }

  /** Keeps the first name given for {@code id}; returns false when it already had one. */
  boolean putIfAbsent(int id, byte[] buf, int off, int len) {
    checkOpen();
    int slot = slotOf(id);
    if (slotEntry[slot] != 0) {
      return false;
    }
    if (count == offset.length) {
      offset = Arrays.copyOf(offset, count * 2);
      length = Arrays.copyOf(length, count * 2);
    }
    offset[count] = bytes.append(buf, off, len);
    length[count] = len;
    slotId[slot] = id;
    slotEntry[slot] = ++count;
    if (count * 2 > slotId.length) {
      grow();
    }
    if (id >= 0) {
      // the array doubles or stays: a sparse (hostile) id sequence cannot make it regrow often
      if (id >= dense.length && id < denseLimit() && 2L * dense.length <= denseLimit()) {
        growDense(id);
      }
      if (id < dense.length) {
        dense[id] = count;
      }
    }
    return true;
  }

  /** Ids below this many may sit in the dense array: twice the names stored, and a start. */
  private int denseLimit() {
    return 2 * count + DENSE_START;
  }

  static final int DENSE_START = 1024;

  /** Grows the dense array to hold {@code id} and fills it from the slots it did not cover. */
  private void growDense(int id) {
    int old = dense.length;
    int n = (int) Math.min(denseLimit(), Math.max(id + 1L, 2L * old)); // >= 2 * old
    dense = Arrays.copyOf(dense, n);
    for (int s = 0; s < slotId.length; s++) {
      int sid = slotId[s];
      if (slotEntry[s] != 0 && sid >= old && sid < n) {
        dense[sid] = slotEntry[s];
      }
    }
  }

  /** The entry of {@code id}, or -1 when it has none: for {@link #entryLength} and {@link #readEntry}. */
  int entry(int id) {
    checkOpen();
    if (id >= 0 && id < dense.length) {
      return dense[id] - 1;
    }
    return slotEntry[slotOf(id)] - 1;
  }

  /** The name's length in bytes, or -1 when {@code id} has none. */
  int length(int id) {
    int e = entry(id);
    return e < 0 ? -1 : length[e];
  }

  /** The length of an {@link #entry}'s name. */
  int entryLength(int entry) {
    return length[entry];
  }

  /** Copies the name of {@code id} (which has one, {@link #length} bytes) into {@code dst}. */
  void read(int id, byte[] dst) {
    readEntry(entry(id), dst, 0);
  }

  /** Copies an {@link #entry}'s name into {@code dst} at {@code off}. */
  void readEntry(int entry, byte[] dst, int off) {
    checkOpen();
    bytes.read(offset[entry], dst, off, length[entry]);
  }

  /** Releases the names; {@link #size} still answers, anything else throws. */
  @Override
  public void close() {
    closed = true;
    bytes.close();
    slotId = new int[0];
    slotEntry = new int[0];
    dense = new int[0];
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("names already released");
    }
  }

  /** The slot holding {@code id}, or the empty slot where it would go. */
  private int slotOf(int id) {
    int mask = slotId.length - 1;
    int s = mix(id ^ seed) & mask;
    while (slotEntry[s] != 0 && slotId[s] != id) {
      s = (s + 1) & mask;
      probes++;
    }
    return s;
  }

  /** murmur3's 32-bit finaliser: every input bit moves about half of the output bits. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h;
  }

  private void grow() {
    int[] oldId = slotId;
    int[] oldEntry = slotEntry;
    slotId = new int[oldId.length * 2];
    slotEntry = new int[oldId.length * 2];
    for (int i = 0; i < oldId.length; i++) {
      if (oldEntry[i] != 0) {
        int s = slotOf(oldId[i]);
        slotId[s] = oldId[i];
        slotEntry[s] = oldEntry[i];
      }
    }
  }
}

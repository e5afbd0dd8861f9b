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
 */
final class IdStrings implements AutoCloseable {
  private final ChunkedBytes bytes;
  private final int seed = ThreadLocalRandom.current().nextInt();
  private int[] slotId = new int[1024];
  private int[] slotEntry = new int[1024]; // entry index + 1; 0: empty slot
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
    return 4L * slotId.length + 4L * slotEntry.length + 8L * offset.length + 4L * length.length;
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
    return true;
  }

  /** The name's length in bytes, or -1 when {@code id} has none. */
  int length(int id) {
    checkOpen();
    int e = slotEntry[slotOf(id)];
    return e == 0 ? -1 : length[e - 1];
  }

  /** Copies the name of {@code id} (which has one, {@link #length} bytes) into {@code dst}. */
  void read(int id, byte[] dst) {
    checkOpen();
    int e = slotEntry[slotOf(id)] - 1;
    bytes.read(offset[e], dst, 0, length[e]);
  }

  /** Releases the names; {@link #size} still answers, anything else throws. */
  @Override
  public void close() {
    closed = true;
    bytes.close();
    slotId = new int[0];
    slotEntry = new int[0];
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

package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/**
 * A .sym file's FILE or INLINE_ORIGIN names by id while its table is built: the bytes in a
 * {@link ChunkedBytes} (off the heap), the ids in an open-addressing index. A big file has tens
 * of thousands of long demangled origin names (71k, 32 MB in a 130 MB file); as one array and
 * one map entry each they were ~40 MB of old-generation heap for the whole conversion.
 */
final class IdStrings implements AutoCloseable {
  private final ChunkedBytes bytes = new ChunkedBytes();
  private int[] slotId = new int[1024];
  private int[] slotEntry = new int[1024]; // entry index + 1; 0: empty slot
  private long[] offset = new long[512];
  private int[] length = new int[512];
  private int count;

  int size() {
    return count;
  }

  /** Keeps the first name given for {@code id}; returns false when it already had one. */
  boolean putIfAbsent(int id, byte[] buf, int off, int len) {
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
    int e = slotEntry[slotOf(id)];
    return e == 0 ? -1 : length[e - 1];
  }

  /** Copies the name of {@code id} (which has one, {@link #length} bytes) into {@code dst}. */
  void read(int id, byte[] dst) {
    int e = slotEntry[slotOf(id)] - 1;
    bytes.read(offset[e], dst, 0, length[e]);
  }

  @Override
  public void close() {
    bytes.close();
  }

  /** The slot holding {@code id}, or the empty slot where it would go. */
  private int slotOf(int id) {
    int mask = slotId.length - 1;
    int h = id * 0x9E3779B9;
    int s = (h ^ h >>> 16) & mask;
    while (slotEntry[s] != 0 && slotId[s] != id) {
      s = (s + 1) & mask;
    }
    return s;
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

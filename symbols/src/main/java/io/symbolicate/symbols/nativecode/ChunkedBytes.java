package io.symbolicate.symbols.nativecode;

import java.util.ArrayList;
import java.util.List;

/**
 * Append-only byte store in fixed 4 MB chunks: grows without the doubling copies of one big
 * array, which matters when converting under a small heap.
 */
final class ChunkedBytes {
  private static final int SHIFT = 22;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private final List<byte[]> chunks = new ArrayList<>();
  private long size;

  long size() {
    return size;
  }

  /** Appends and returns the offset of the first byte. */
  long append(byte[] src, int off, int len) {
    long at = size;
    while (len > 0) {
      int ci = (int) (size >>> SHIFT);
      if (ci == chunks.size()) {
        chunks.add(new byte[CHUNK]);
      }
      int within = (int) (size & MASK);
      int n = Math.min(len, CHUNK - within);
      System.arraycopy(src, off, chunks.get(ci), within, n);
      off += n;
      len -= n;
      size += n;
    }
    return at;
  }

  /** Copies {@code len} bytes at {@code at} into {@code dst}. */
  void read(long at, byte[] dst, int off, int len) {
    while (len > 0) {
      byte[] c = chunks.get((int) (at >>> SHIFT));
      int within = (int) (at & MASK);
      int n = Math.min(len, CHUNK - within);
      System.arraycopy(c, within, dst, off, n);
      off += n;
      len -= n;
      at += n;
    }
  }

  void clear() {
    chunks.clear();
    size = 0;
  }
}

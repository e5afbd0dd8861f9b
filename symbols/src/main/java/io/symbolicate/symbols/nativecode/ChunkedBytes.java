package io.symbolicate.symbols.nativecode;

import java.util.ArrayList;
import java.util.List;

/**
 * Append-only byte store in fixed 256 KB chunks: grows without the doubling copies of one big
 * array, which matters when converting under a small heap. Chunks stay below half a G1 region
 * (1 MB regions in a 512 MB heap), so they are ordinary young objects, not humongous ones that
 * start a concurrent marking cycle each; chunks read for the last time can be freed one by one.
 */
final class ChunkedBytes {
  static final int SHIFT = 18;
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

  /** Index of the chunk holding byte {@code at}. */
  static int chunkOf(long at) {
    return (int) (at >>> SHIFT);
  }

  /** Number of chunks (freed ones included). */
  int chunks() {
    return chunks.size();
  }

  /** Drops one chunk that will not be read again (reading it afterwards throws). */
  void free(int chunk) {
    chunks.set(chunk, null);
  }

  void clear() {
    chunks.clear();
    size = 0;
  }
}

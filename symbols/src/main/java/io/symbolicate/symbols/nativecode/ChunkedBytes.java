package io.symbolicate.symbols.nativecode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Append-only byte store in fixed 256 KB chunks outside the Java heap. The native converter keeps
 * every accepted FUNC and PUBLIC record here until it cuts pages, and the FILE and INLINE_ORIGIN
 * names ({@link IdStrings}): 62 MB at its peak for a 130 MB .sym. On the heap that filled the old
 * generation of a 512 MB process for the whole conversion; G1 shrank the young generation to make
 * room, and young collections, which stop the stream threads, came five times as often while a
 * file loaded (docs/benchmarks.md, session 18). Off the heap they are neither copied nor in the
 * way. Chunks are released as soon as they are no longer needed ({@link #free}, {@link #close});
 * one not released is still freed when the collector finds it unreachable.
 */
final class ChunkedBytes implements AutoCloseable {
  static final int SHIFT = 18;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private final List<ByteBuffer> chunks = new ArrayList<>();
  private final IntFunction<ByteBuffer> allocate;
  private long size;

  /** The allocator of every store outside tests. */
  static final IntFunction<ByteBuffer> DIRECT = ByteBuffer::allocateDirect;

  ChunkedBytes() {
    this(DIRECT);
  }

  /** With another allocator (tests: one that runs out). */
  ChunkedBytes(IntFunction<ByteBuffer> allocate) {
    this.allocate = allocate;
  }

  long size() {
    return size;
  }

  /** Appends and returns the offset of the first byte. */
  long append(byte[] src, int off, int len) {
    long at = size;
    while (len > 0) {
      int ci = (int) (size >>> SHIFT);
      if (ci == chunks.size()) {
        chunks.add(newChunk());
      }
      int within = (int) (size & MASK);
      int n = Math.min(len, CHUNK - within);
      chunks.get(ci).put(within, src, off, n);
      off += n;
      len -= n;
      size += n;
    }
    return at;
  }

  /**
   * A new chunk. The JVM's direct-memory limit (-XX:MaxDirectMemorySize, by default the max heap)
   * is the instance's, not the file's: running into it is an I/O failure (the loader retries it
   * later and never caches it as malformed), and the heap is untouched.
   */
  private ByteBuffer newChunk() {
    try {
      return allocate.apply(CHUNK);
    } catch (OutOfMemoryError e) {
      throw new OutOfDirectMemory(
          "not enough direct memory for this file's records ("
              + (heldBytes() >> 20)
              + " MB held by this store; the JVM's limit is -XX:MaxDirectMemorySize,"
              + " by default the max heap): "
              + e.getMessage(),
          e);
    }
  }

  /** The JVM's direct-memory limit was reached (unchecked: appends come from parser callbacks). */
  static final class OutOfDirectMemory extends UncheckedIOException {
    OutOfDirectMemory(String message, OutOfMemoryError cause) {
      super(new IOException(message, cause));
    }
  }

  /** Copies {@code len} bytes at {@code at} into {@code dst}. */
  void read(long at, byte[] dst, int off, int len) {
    while (len > 0) {
      ByteBuffer c = chunks.get((int) (at >>> SHIFT));
      if (c == null) {
        throw new IllegalStateException("chunk " + (at >>> SHIFT) + " was freed");
      }
      int within = (int) (at & MASK);
      int n = Math.min(len, CHUNK - within);
      c.get(within, dst, off, n);
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

  /** Bytes of chunks held now (not yet freed). */
  long heldBytes() {
    long n = 0;
    for (ByteBuffer c : chunks) {
      n += c == null ? 0 : CHUNK;
    }
    return n;
  }

  /** Releases one chunk that will not be read again (reading it afterwards throws). */
  void free(int chunk) {
    DirectBuffers.release(chunks.set(chunk, null));
  }

  /** Releases every chunk (closing twice is harmless). */
  @Override
  public void close() {
    // out of the list first: no chunk is reachable from here once it is released
    List<ByteBuffer> held = new ArrayList<>(chunks);
    chunks.clear();
    size = 0;
    for (ByteBuffer c : held) {
      DirectBuffers.release(c);
    }
  }
}

package io.symbolicate.symbols.objects;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates a compressed section (zlib or zstd) into exactly the size its header declares: a
 * declared size over the cap is refused before anything is allocated, and data that inflates to
 * more or fewer bytes than declared is refused. The output buffer grows as data comes, so a
 * small file that claims a huge size costs only what it really inflates to.
 *
 * <p>A section over an eighth of the heap is inflated off the heap (a direct buffer), so a big
 * debug file's sections (ceph-osd's {@code .debug_info}: 381 MB) do not need a heap several times
 * their size; the JVM's direct-memory limit (by default the heap's size) bounds those, and a
 * section it cannot hold is refused with a reason.
 */
final class SectionDecompressor {
  /** Largest section we inflate: a buffer's limit. */
  static long maxSectionSize() {
    return Integer.MAX_VALUE - 16;
  }

  /** Sections over this many bytes are inflated off the heap. */
  static long maxHeapSection() {
    return Runtime.getRuntime().maxMemory() / 8;
  }

  private SectionDecompressor() {}

  /** Inflates zlib data into a heap array or, for a big section, a direct buffer. */
  static ByteBuffer zlibBuffer(ByteBuffer compressed, long declared, String name) {
    return zlibBuffer(compressed, declared, name, maxHeapSection());
  }

  static ByteBuffer zlibBuffer(ByteBuffer compressed, long declared, String name, long heapMax) {
    if (declared <= heapMax) {
      return ByteBuffer.wrap(zlib(compressed, declared, name));
    }
    ByteBuffer out = startDirect(compressed, declared, name);
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(compressed.duplicate());
      while (true) {
        if (!out.hasRemaining()) {
          if (out.capacity() == declared) {
            if (!inflater.finished() && inflater.inflate(new byte[1]) > 0) {
              throw beyond(name, declared);
            }
            return out.flip();
          }
          out = growDirect(out, declared, name);
        }
        int got = inflater.inflate(out);
        if (got == 0) {
          if (inflater.needsDictionary()) {
            throw new ObjectFormatException("section " + name + ": zlib stream needs a dictionary");
          }
          throw shorter(name, declared, out.position());
        }
      }
    } catch (DataFormatException e) {
      throw new ObjectFormatException(
          "section " + name + ": corrupt zlib data: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  /** Inflates zstd data into a heap array or, for a big section, a direct buffer. */
  static ByteBuffer zstdBuffer(ByteBuffer compressed, long declared, String name) {
    return zstdBuffer(compressed, declared, name, maxHeapSection());
  }

  static ByteBuffer zstdBuffer(ByteBuffer compressed, long declared, String name, long heapMax) {
    if (declared <= heapMax) {
      return ByteBuffer.wrap(zstd(compressed, declared, name));
    }
    ByteBuffer out = startDirect(compressed, declared, name);
    byte[] chunk = new byte[1 << 16];
    try (InputStream in = new ZstdInputStreamNoFinalizer(new BufferInput(compressed.duplicate()))) {
      while (true) {
        if (!out.hasRemaining()) {
          if (out.capacity() == declared) {
            if (in.read() >= 0) {
              throw beyond(name, declared);
            }
            return out.flip();
          }
          out = growDirect(out, declared, name);
        }
        int got = in.read(chunk, 0, Math.min(chunk.length, out.remaining()));
        if (got < 0) {
          throw shorter(name, declared, out.position());
        }
        out.put(chunk, 0, got);
      }
    } catch (IOException e) {
      throw new ObjectFormatException(
          "section " + name + ": corrupt zstd data: " + e.getMessage(), e);
    }
  }

  static byte[] zlib(ByteBuffer compressed, long declared, String name) {
    byte[] out = start(compressed, declared, name);
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(compressed.duplicate());
      int n = 0;
      while (true) {
        if (n == out.length) {
          if (out.length == declared) {
            if (!inflater.finished() && inflater.inflate(new byte[1]) > 0) {
              throw beyond(name, declared);
            }
            return out;
          }
          out = grow(out, declared);
        }
        int got = inflater.inflate(out, n, out.length - n);
        n += got;
        if (got == 0) {
          if (inflater.needsDictionary()) {
            throw new ObjectFormatException("section " + name + ": zlib stream needs a dictionary");
          }
          throw shorter(name, declared, n);
        }
      }
    } catch (DataFormatException e) {
      throw new ObjectFormatException(
          "section " + name + ": corrupt zlib data: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  static byte[] zstd(ByteBuffer compressed, long declared, String name) {
    byte[] out = start(compressed, declared, name);
    try (InputStream in = new ZstdInputStreamNoFinalizer(new BufferInput(compressed.duplicate()))) {
      int n = 0;
      while (true) {
        if (n == out.length) {
          if (out.length == declared) {
            if (in.read() >= 0) {
              throw beyond(name, declared);
            }
            return out;
          }
          out = grow(out, declared);
        }
        int got = in.read(out, n, out.length - n);
        if (got < 0) {
          throw shorter(name, declared, n);
        }
        n += got;
      }
    } catch (IOException e) {
      throw new ObjectFormatException(
          "section " + name + ": corrupt zstd data: " + e.getMessage(), e);
    }
  }

  private static byte[] start(ByteBuffer compressed, long declared, String name) {
    checkDeclared(declared, name);
    long first = Math.min(declared, 4L * compressed.remaining() + 65536);
    return new byte[(int) first];
  }

  private static ByteBuffer startDirect(ByteBuffer compressed, long declared, String name) {
    checkDeclared(declared, name);
    return allocateDirect(Math.min(declared, 4L * compressed.remaining() + 65536), name);
  }

  private static ByteBuffer growDirect(ByteBuffer out, long declared, String name) {
    ByteBuffer bigger =
        allocateDirect(Math.min(declared, Math.max(65536L, 2L * out.capacity())), name);
    return bigger.put(out.flip());
  }

  private static ByteBuffer allocateDirect(long size, String name) {
    try {
      return ByteBuffer.allocateDirect((int) size);
    } catch (OutOfMemoryError e) {
      // thrown by the direct-memory reservation before anything is allocated
      throw new ObjectFormatException(
          "section " + name + ": " + size + " bytes of direct memory not available: " + e, e);
    }
  }

  private static void checkDeclared(long declared, String name) {
    if (declared < 0 || declared > maxSectionSize()) {
      throw new ObjectFormatException(
          "section "
              + name
              + " declares an uncompressed size of "
              + Long.toUnsignedString(declared)
              + " bytes, over the limit of "
              + maxSectionSize());
    }
  }

  private static byte[] grow(byte[] out, long declared) {
    return Arrays.copyOf(out, (int) Math.min(declared, Math.max(65536L, 2L * out.length)));
  }

  private static ObjectFormatException beyond(String name, long declared) {
    return new ObjectFormatException(
        "section " + name + " inflates beyond its declared size of " + declared + " bytes");
  }

  private static ObjectFormatException shorter(String name, long declared, int got) {
    return new ObjectFormatException(
        "section "
            + name
            + " inflates to "
            + got
            + " bytes, fewer than its declared "
            + declared
            + " (truncated or corrupt)");
  }
}

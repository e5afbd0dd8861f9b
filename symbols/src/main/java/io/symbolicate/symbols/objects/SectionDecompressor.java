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
 */
final class SectionDecompressor {
  /** Largest section we inflate: a Java array, and at most a quarter of the heap. */
  static long maxSectionSize() {
    return Math.min(Integer.MAX_VALUE - 16, Runtime.getRuntime().maxMemory() / 4);
  }

  private SectionDecompressor() {}

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
    if (declared < 0 || declared > maxSectionSize()) {
      throw new ObjectFormatException(
          "section "
              + name
              + " declares an uncompressed size of "
              + Long.toUnsignedString(declared)
              + " bytes, over the limit of "
              + maxSectionSize());
    }
    long first = Math.min(declared, 4L * compressed.remaining() + 65536);
    return new byte[(int) first];
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

package io.symbolicate.symbols.io;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Opens debug files for parsing: transparently gunzips (by magic bytes, not by name) and caps
 * the number of bytes a parser may read, so a small gzip bomb cannot claim gigabytes.
 */
public final class BoundedInput {
  /** Default cap on decompressed input: 4 GiB, far above real symbol files, far below a bomb. */
  public static final long DEFAULT_MAX_BYTES = 4L << 30;

  private BoundedInput() {}

  public static InputStream open(Path file, long maxBytes) throws IOException {
    return wrap(Files.newInputStream(file), maxBytes);
  }

  /** Wraps a raw stream: gunzips if it starts with the gzip magic, then caps what can be read. */
  public static InputStream wrap(InputStream raw, long maxBytes) throws IOException {
    return wrap(raw, maxBytes, null);
  }

  /**
   * The most a parser that holds its whole input in the heap (a ProGuard mapping, a sourcemap)
   * may read in this JVM: a quarter of the max heap, since parsing takes a few times the input,
   * and never more than {@code configured}. A bigger input then fails with a reason instead of
   * an {@link OutOfMemoryError} that would take other work down with it.
   */
  public static long inHeapLimit(long configured) {
    return Math.min(configured, Runtime.getRuntime().maxMemory() / 4);
  }

  /**
   * As {@link #wrap(InputStream, long)}, capped at {@link #inHeapLimit(long) inHeapLimit(configured)};
   * {@code what} names the input in the error when the heap is the tighter bound.
   */
  public static InputStream wrapInHeap(InputStream raw, long configured, String what) throws IOException {
    long limit = inHeapLimit(configured);
    return wrap(raw, limit, limit < configured
        ? "a " + what + " larger than " + limit + " bytes (decompressed) does not fit this JVM's heap: it reads at"
            + " most a quarter of its max heap into memory (raise -Xmx to read it)"
        : null);
  }

  private static InputStream wrap(InputStream raw, long maxBytes, String heapReason) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    InputStream body = (b0 == 0x1f && b1 == 0x8b) ? new GZIPInputStream(in, 1 << 16) : in;
    return new Capped(body, maxBytes, heapReason);
  }

  /** Thrown when input exceeds the configured cap (or, for in-heap parsers, the heap's). */
  public static final class TooLargeException extends IOException {
    public TooLargeException(long maxBytes) {
      super("input exceeds the configured limit of " + maxBytes + " bytes (decompressed)");
    }

    TooLargeException(String message) {
      super(message);
    }
  }

  private static final class Capped extends FilterInputStream {
    private final long max;
    private final String heapReason;
    private long count;

    Capped(InputStream in, long max, String heapReason) {
      super(in);
      this.max = max;
      this.heapReason = heapReason;
    }

    private TooLargeException tooLarge() {
      return heapReason == null ? new TooLargeException(max) : new TooLargeException(heapReason);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0 && ++count > max) {
        throw tooLarge();
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n = super.read(buf, off, len);
      if (n > 0) {
        count += n;
        if (count > max) {
          throw tooLarge();
        }
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = super.skip(n);
      count += s;
      if (count > max) {
        throw tooLarge();
      }
      return s;
    }
  }
}

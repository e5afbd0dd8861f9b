package io.symbolicate.symbols.io;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens debug files for parsing: transparently gunzips (by magic bytes, not by name) and caps
 * the number of bytes a parser may read, so a small gzip bomb cannot claim gigabytes.
 */
public final class DebugFileInput {
  /** Default cap on decompressed input: 4 GiB, far above real symbol files, far below a bomb. */
  public static final long DEFAULT_MAX_BYTES = 4L << 30;

  private DebugFileInput() {}

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
  public static InputStream wrapInHeap(InputStream raw, long configured, String what)
      throws IOException {
    long limit = inHeapLimit(configured);
    return wrap(
        raw,
        limit,
        limit < configured
            ? "a "
                + what
                + " larger than "
                + limit
                + " bytes (decompressed) does not fit this JVM's heap: it reads at"
                + " most a quarter of its max heap into memory (raise -Xmx to read it)"
            : null);
  }

  private static InputStream wrap(InputStream raw, long maxBytes, String heapReason)
      throws IOException {
    WatchedInput source = new WatchedInput(raw);
    BufferedInputStream in = new BufferedInputStream(source, 1 << 16);
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    if (b0 != 0x1f || b1 != 0x8b) {
      return new Capped(in, maxBytes, heapReason, null);
    }
    try {
      return new Capped(new GZIPInputStream(in, 1 << 16), maxBytes, heapReason, source);
    } catch (EOFException | ZipException e) {
      throw source.failure() != null ? e : new CorruptInputException(e);
    }
  }

  /**
   * The input is gzip, and its compressed stream is truncated or corrupt: the file's fault, not
   * the connection's (a broken connection fails with the source's own error).
   */
  public static final class CorruptInputException extends IOException {
    CorruptInputException(IOException cause) {
      super("compressed input is truncated or corrupt: " + cause.getMessage(), cause);
    }
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
    private final WatchedInput gzipSource; // null: not gzip
    private long count;

    Capped(InputStream in, long max, String heapReason, WatchedInput gzipSource) {
      super(in);
      this.max = max;
      this.heapReason = heapReason;
      this.gzipSource = gzipSource;
    }

    private TooLargeException tooLarge() {
      return heapReason == null ? new TooLargeException(max) : new TooLargeException(heapReason);
    }

    /** The decompressor's own EOF or zip error is the file's fault; the source's failures stay as they are. */
    private IOException classified(IOException e) {
      return gzipSource != null
              && gzipSource.failure() == null
              && (e instanceof EOFException || e instanceof ZipException)
          ? new CorruptInputException(e)
          : e;
    }

    @Override
    public int read() throws IOException {
      int b;
      try {
        b = super.read();
      } catch (IOException e) {
        throw classified(e);
      }
      if (b >= 0 && ++count > max) {
        throw tooLarge();
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n;
      try {
        n = super.read(buf, off, len);
      } catch (IOException e) {
        throw classified(e);
      }
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
      long s;
      try {
        s = super.skip(n);
      } catch (IOException e) {
        throw classified(e);
      }
      count += s;
      if (count > max) {
        throw tooLarge();
      }
      return s;
    }
  }
}

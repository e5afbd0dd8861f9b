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
    BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    InputStream body = (b0 == 0x1f && b1 == 0x8b) ? new GZIPInputStream(in, 1 << 16) : in;
    return new Capped(body, maxBytes);
  }

  /** Thrown when input exceeds the configured cap. */
  public static final class TooLargeException extends IOException {
    public TooLargeException(long maxBytes) {
      super("input exceeds the configured limit of " + maxBytes + " bytes (decompressed)");
    }
  }

  private static final class Capped extends FilterInputStream {
    private final long max;
    private long count;

    Capped(InputStream in, long max) {
      super(in);
      this.max = max;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0 && ++count > max) {
        throw new TooLargeException(max);
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n = super.read(buf, off, len);
      if (n > 0) {
        count += n;
        if (count > max) {
          throw new TooLargeException(max);
        }
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = super.skip(n);
      count += s;
      if (count > max) {
        throw new TooLargeException(max);
      }
      return s;
    }
  }
}

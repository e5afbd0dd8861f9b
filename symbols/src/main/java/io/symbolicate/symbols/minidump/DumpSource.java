package io.symbolicate.symbols.minidump;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes of a dump, read in bounded ranges: a 2 GB full-memory dump is never loaded whole.
 * Every read is checked against the size; a range outside it is a {@link MinidumpException}.
 */
public abstract class DumpSource implements Closeable {
  /** Largest single range read at once (a stream, a list, a window of memory). */
  public static final int MAX_READ_BYTES = 64 << 20;

  public abstract long size();

  /** Copies {@code len} bytes at {@code offset}; the range must lie inside the dump. */
  protected abstract void readFully(long offset, byte[] dst, int dstOff, int len)
      throws IOException;

  /** Reads [offset, offset + len) after checking it against the dump's size. */
  public final byte[] read(long offset, long len, String what) throws MinidumpException {
    check(offset, len, what);
    if (len > MAX_READ_BYTES) {
      throw new MinidumpException(
          what + " is " + len + " bytes, over the " + MAX_READ_BYTES + "-byte limit of one read");
    }
    byte[] out = new byte[(int) len];
    try {
      readFully(offset, out, 0, (int) len);
    } catch (IOException e) {
      throw new MinidumpException("cannot read " + what + ": " + e.getMessage(), e);
    }
    return out;
  }

  /** Throws unless [offset, offset + len) lies inside the dump. */
  public final void check(long offset, long len, String what) throws MinidumpException {
    if (offset < 0 || len < 0 || offset > size() || len > size() - offset) {
      throw new MinidumpException(
          what
              + " at offset "
              + offset
              + " ("
              + len
              + " bytes) lies outside the "
              + size()
              + "-byte dump");
    }
  }

  public final boolean contains(long offset, long len) {
    return offset >= 0 && len >= 0 && offset <= size() && len <= size() - offset;
  }

  public static DumpSource of(byte[] bytes) {
    return new ArrayDumpSource(bytes);
  }

  public static DumpSource open(Path path) throws IOException {
    return new FileDumpSource(FileChannel.open(path, StandardOpenOption.READ));
  }

  @Override
  public void close() throws IOException {}

  private static final class ArrayDumpSource extends DumpSource {
    private final byte[] bytes;

    ArrayDumpSource(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public long size() {
      return bytes.length;
    }

    @Override
    protected void readFully(long offset, byte[] dst, int dstOff, int len) {
      System.arraycopy(bytes, (int) offset, dst, dstOff, len);
    }
  }

  /** Ranged positional reads; safe for concurrent readers. */
  private static final class FileDumpSource extends DumpSource {
    private final FileChannel channel;
    private final long size;

    FileDumpSource(FileChannel channel) throws IOException {
      this.channel = channel;
      this.size = channel.size();
    }

    @Override
    public long size() {
      return size;
    }

    @Override
    protected void readFully(long offset, byte[] dst, int dstOff, int len) throws IOException {
      ByteBuffer buf = ByteBuffer.wrap(dst, dstOff, len);
      long pos = offset;
      while (buf.hasRemaining()) {
        int n = channel.read(buf, pos);
        if (n < 0) {
          throw new IOException("file shrank while reading at " + pos);
        }
        pos += n;
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}

package io.symbolicate.symbols.objects;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads a buffer (often memory-mapped) as a stream, for the stream decoders, without copying. */
final class BufferInput extends InputStream {
  private final ByteBuffer buf;

  BufferInput(ByteBuffer buf) {
    this.buf = buf;
  }

  @Override
  public int read() {
    return buf.hasRemaining() ? buf.get() & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (!buf.hasRemaining()) {
      return -1;
    }
    int n = Math.min(len, buf.remaining());
    buf.get(b, off, n);
    return n;
  }
}

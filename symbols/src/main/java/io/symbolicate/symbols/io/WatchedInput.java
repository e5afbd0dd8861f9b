package io.symbolicate.symbols.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A stream that remembers the first failure of its source, so that a reader above it (a
 * decompressor, a parser) can tell the source's errors (a client gone, a network cut) from its
 * own (a corrupt body).
 */
public final class WatchedInput extends FilterInputStream {
  private IOException failure;

  public WatchedInput(InputStream in) {
    super(in);
  }

  /** The source's first failure, or null. */
  public IOException failure() {
    return failure;
  }

  @Override
  public int read() throws IOException {
    try {
      return super.read();
    } catch (IOException e) {
      remember(e);
      throw e;
    }
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    try {
      return super.read(buf, off, len);
    } catch (IOException e) {
      remember(e);
      throw e;
    }
  }

  private void remember(IOException e) {
    if (failure == null) {
      failure = e;
    }
  }
}

package io.symbolicate.connectors.loader;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * Paces the reader of a debug file: every read gives the {@link LoadPacer} a chance to sleep,
 * so the parser downstream of it (gunzip, parse, build) runs at the pacer's CPU share.
 */
final class PacedInput extends FilterInputStream {
  private final LoadPacer pacer;

  PacedInput(InputStream in, LoadPacer pacer) {
    super(in);
    this.pacer = pacer;
  }

  @Override
  public int read() throws IOException {
    return super
        .read(); // parsers read in blocks; a clock read per byte would cost more than it saves
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    pace();
    return super.read(b, off, len);
  }

  private void pace() throws InterruptedIOException {
    try {
      pacer.pace();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("load interrupted");
    }
  }
}

package io.symbolicate.api.collect;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts what passes and refuses (413, with the given code and what the limit is called) once
 * more than {@code max} bytes came: the body as sent, the body decompressed, or one dump.
 */
final class SizeLimitedInput extends FilterInputStream {
  private final long max;
  private final String code;
  private final String what;
  private long count;

  SizeLimitedInput(InputStream in, long max, String code, String what) {
    super(in);
    this.max = max;
    this.code = code;
    this.what = what;
  }

  long count() {
    return count;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      add(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      add(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    byte[] buf = new byte[(int) Math.min(8192, Math.max(1, n))];
    long left = n;
    while (left > 0) {
      int r = read(buf, 0, (int) Math.min(buf.length, left));
      if (r < 0) {
        break;
      }
      left -= r;
    }
    return n - left;
  }

  private void add(int n) throws SubmitException {
    count += n;
    if (count > max) {
      throw SubmitException.tooLarge(code, what + " is more than the limit of " + max + " bytes");
    }
  }

  @Override
  public boolean markSupported() {
    return false;
  }
}

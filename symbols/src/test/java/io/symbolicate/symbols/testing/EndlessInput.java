package io.symbolicate.symbols.testing;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A head, then spaces without end, held nowhere: input larger than any cap, for the tests of caps. */
public final class EndlessInput extends InputStream {
  private final byte[] head;
  private int pos;

  public EndlessInput() {
    this("");
  }

  public EndlessInput(String head) {
    this.head = head.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public int read() {
    return pos < head.length ? head[pos++] & 0xff : ' ';
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (pos < head.length) {
      int n = Math.min(len, head.length - pos);
      System.arraycopy(head, pos, b, off, n);
      pos += n;
      return n;
    }
    Arrays.fill(b, off, off + len, (byte) ' ');
    return len;
  }
}

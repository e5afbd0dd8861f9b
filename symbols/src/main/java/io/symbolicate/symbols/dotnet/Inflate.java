package io.symbolicate.symbols.dotnet;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Raw deflate with a stated size, as embedded PDBs and embedded sources store it: the output is
 * exactly that size or refused, and grows with what inflates (a claimed size is a limit, never an
 * allocation).
 */
final class Inflate {
  private Inflate() {}

  static byte[] exactly(byte[] data, int offset, int length, long size, long max, String what) {
    if (size < 0 || size > max) {
      throw new PortablePdbException(
          what + " claims " + size + " bytes inflated, more than the limit of " + max);
    }
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(data, offset, length);
      // buffers grow with the input, not with the size it claims
      int start = (int) Math.min(size, Math.min(1 << 16, 4L * length + 64));
      ByteArrayOutputStream out = new ByteArrayOutputStream(start);
      byte[] buf = new byte[(int) Math.min(1 << 16, 4L * length + 256)];
      long total = 0;
      while (!inflater.finished()) {
        int n = inflater.inflate(buf);
        if (n == 0 && !inflater.finished()) {
          // no progress: input ran out, or a preset dictionary we do not have
          throw new PortablePdbException(
              what + " is truncated: " + total + " of " + size + " bytes inflated");
        }
        total += n;
        if (total > size) {
          throw new PortablePdbException(what + " inflates past its stated " + size + " bytes");
        }
        out.write(buf, 0, n);
      }
      if (total != size) {
        throw new PortablePdbException(
            what + " inflates to " + total + " bytes, not its stated " + size);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new PortablePdbException(what + " is not valid deflate data: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }
}

package io.symbolicate.symbols.cfi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A PE image for tests and fuzzing whose RVAs are offsets into one byte array. */
final class FlatImage implements RvaReader {
  private final byte[] data;

  FlatImage(byte[] data) {
    this.data = data;
  }

  @Override
  public ByteBuffer bytes(long rva, long length, String what) {
    if (rva < 0 || length < 0 || rva > data.length || length > data.length - rva) {
      throw new CfiException(
          what
              + " at RVA 0x"
              + Long.toHexString(rva)
              + " of "
              + length
              + " bytes runs past the image");
    }
    return ByteBuffer.wrap(data, (int) rva, (int) length).slice().order(ByteOrder.LITTLE_ENDIAN);
  }
}

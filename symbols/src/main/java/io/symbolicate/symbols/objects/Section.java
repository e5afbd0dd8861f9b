package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One section's bytes, decompressed, with the address it is loaded at (which {@code .eh_frame}'s
 * pc-relative pointers need). {@code data} is read-only, positioned at 0, in the file's byte
 * order; readers {@code duplicate()} it before moving its position.
 */
public record Section(String name, long address, ByteBuffer data) {
  public Section {
    data = data.asReadOnlyBuffer().order(data.order());
  }

  public static Section of(String name, long address, byte[] bytes, ByteOrder order) {
    return new Section(name, address, ByteBuffer.wrap(bytes).order(order));
  }

  public int size() {
    return data.limit();
  }
}

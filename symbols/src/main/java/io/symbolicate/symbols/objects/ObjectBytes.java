package io.symbolicate.symbols.objects;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes of an object file without holding them in the heap: a file is memory-mapped (whole
 * when it fits one mapping, else region by region on demand), a byte array is wrapped. Every
 * slice is bounds-checked against the file's size.
 */
final class ObjectBytes {
  private final Path path; // null: in memory
  private final long base; // where this view starts in the file (a slice of a fat file)
  private final long size;
  private final ByteBuffer whole; // null: file larger than one mapping

  private ObjectBytes(Path path, long size, ByteBuffer whole) {
    this(path, 0, size, whole);
  }

  private ObjectBytes(Path path, long base, long size, ByteBuffer whole) {
    this.path = path;
    this.base = base;
    this.size = size;
    this.whole = whole;
  }

  /** The bytes {@code [offset, offset + length)} as a file of their own (a fat file's slice). */
  ObjectBytes sub(long offset, long length, String what) {
    check(offset, length, what);
    return new ObjectBytes(path, base + offset, length, whole);
  }

  static ObjectBytes of(byte[] bytes) {
    return new ObjectBytes(null, bytes.length, ByteBuffer.wrap(bytes));
  }

  static ObjectBytes of(ByteBuffer bytes) {
    return new ObjectBytes(null, bytes.remaining(), bytes.slice());
  }

  static ObjectBytes map(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      ByteBuffer whole =
          size <= Integer.MAX_VALUE ? ch.map(FileChannel.MapMode.READ_ONLY, 0, size) : null;
      return new ObjectBytes(file, size, whole);
    }
  }

  long size() {
    return size;
  }

  /** {@code length} bytes at {@code offset}, in {@code order}, position 0. */
  ByteBuffer slice(long offset, long length, ByteOrder order, String what) {
    check(offset, length, what);
    if (length > Integer.MAX_VALUE - 16) {
      throw new ObjectFormatException(what + " of " + length + " bytes is larger than 2 GiB");
    }
    ByteBuffer out;
    if (whole != null) {
      out = whole.slice((int) (base + offset), (int) length);
    } else {
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
        out = ch.map(FileChannel.MapMode.READ_ONLY, base + offset, length);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out.order(order);
  }

  /** Fails unless {@code [offset, offset + length)} lies inside the file. */
  void check(long offset, long length, String what) {
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      throw new ObjectFormatException(
          what
              + " at offset "
              + Long.toUnsignedString(offset)
              + " of "
              + Long.toUnsignedString(length)
              + " bytes lies outside the file ("
              + size
              + " bytes)");
    }
  }
}

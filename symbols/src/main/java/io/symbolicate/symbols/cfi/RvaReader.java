package io.symbolicate.symbols.cfi;

import java.nio.ByteBuffer;

/**
 * The bytes of a PE image by RVA ({@code PeFile::rvaBytes}): {@code length} little-endian bytes
 * at {@code rva}, all within one section's bytes in the file, or an exception naming {@code
 * what} and why they are not there.
 */
@FunctionalInterface
public interface RvaReader {
  ByteBuffer bytes(long rva, long length, String what);
}

package io.symbolicate.symbols.dotnet;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The {@code #Strings}, {@code #Blob} and {@code #GUID} heaps (II.24.2.3-5), bounds-checked. */
final class Heaps {
  /** A blob's bytes: absolute offset and length in the file's array. */
  record Blob(int offset, int length) {
    BlobReader reader(byte[] data) {
      return new BlobReader(data, offset, length);
    }
  }

  private final byte[] data;
  private final MetadataRoot.Stream strings;
  private final MetadataRoot.Stream blobs;
  private final MetadataRoot.Stream guids;

  Heaps(byte[] data, MetadataRoot root) {
    this.data = data;
    this.strings = root.stream("#Strings");
    this.blobs = root.stream("#Blob");
    this.guids = root.stream("#GUID");
  }

  /** The NUL-terminated UTF-8 string at {@code offset} of {@code #Strings}. */
  String string(int offset) {
    if (strings == null) {
      throw new PortablePdbException("no #Strings stream");
    }
    if (offset < 0 || offset >= strings.length()) {
      if (offset == 0) {
        return "";
      }
      throw new PortablePdbException(
          "string offset " + offset + " past the #Strings heap of " + strings.length() + " bytes");
    }
    int from = strings.offset() + offset;
    int end = strings.offset() + strings.length();
    int to = from;
    while (to < end && data[to] != 0) {
      to++;
    }
    return utf8(from, to - from, "string at #Strings offset " + offset);
  }

  /** The blob at {@code offset} of {@code #Blob}: its compressed length, then its bytes. */
  Blob blob(int offset) {
    if (blobs == null) {
      throw new PortablePdbException("no #Blob stream");
    }
    if (offset < 0 || offset >= blobs.length()) {
      throw new PortablePdbException(
          "blob offset " + offset + " past the #Blob heap of " + blobs.length() + " bytes");
    }
    BlobReader r = new BlobReader(data, blobs.offset() + offset, blobs.length() - offset);
    int length = r.unsigned();
    if (length > r.remaining()) {
      throw new PortablePdbException(
          "blob at offset "
              + offset
              + " claims "
              + length
              + " bytes, the heap has "
              + r.remaining()
              + " left");
    }
    return new Blob(r.position(), length);
  }

  /** The 16 bytes of GUID {@code index} (1-based; 0 is no GUID and returns null). */
  byte[] guid(int index) {
    if (index == 0) {
      return null;
    }
    if (guids == null) {
      throw new PortablePdbException("no #GUID stream");
    }
    if (index < 0 || index > guids.length() / 16) {
      throw new PortablePdbException(
          "GUID index " + index + " past the #GUID heap of " + guids.length() / 16 + " GUIDs");
    }
    byte[] g = new byte[16];
    System.arraycopy(data, guids.offset() + (index - 1) * 16, g, 0, 16);
    return g;
  }

  String utf8(int offset, int length, String what) {
    // most names are ASCII: no decoder needed for them
    boolean ascii = true;
    for (int i = offset; i < offset + length && ascii; i++) {
      ascii = data[i] >= 0;
    }
    if (ascii) {
      return new String(data, offset, length, StandardCharsets.US_ASCII);
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(data, offset, length))
          .toString();
    } catch (CharacterCodingException e) {
      throw new PortablePdbException(what + " is not UTF-8");
    }
  }
}

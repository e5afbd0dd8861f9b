package io.symbolicate.symbols.dotnet;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ECMA-335 metadata root (II.24.2.1): signature {@code BSJB}, version string and the stream
 * headers, each stream's range checked against the root's bytes. Portable PDBs and .NET images
 * share it.
 */
final class MetadataRoot {
  static final int SIGNATURE = 0x424A5342; // "BSJB"

  /** More streams than any writer emits; a header claiming more is refused. */
  static final int MAX_STREAMS = 16;

  /** A stream's bytes: an absolute offset into the array and a length. */
  record Stream(int offset, int length) {}

  final String version;
  final Map<String, Stream> streams;

  private MetadataRoot(String version, Map<String, Stream> streams) {
    this.version = version;
    this.streams = streams;
  }

  static boolean looksLikeMetadata(byte[] data) {
    return data.length >= 4 && LittleEndian.i32(data, 0) == SIGNATURE;
  }

  /** The root at {@code offset} of {@code length} bytes in {@code data}. */
  static MetadataRoot parse(byte[] data, int offset, int length) {
    if (offset < 0 || length < 0 || offset > data.length - length) {
      throw new PortablePdbException("metadata root runs past the end of the file");
    }
    BlobReader r = new BlobReader(data, offset, length);
    if (length < 16 || r.u32() != SIGNATURE) {
      throw new PortablePdbException("not ECMA-335 metadata: no BSJB signature");
    }
    r.skip(8); // major, minor, reserved
    int versionLength = r.u32();
    if (versionLength < 0 || versionLength > 255 || versionLength > r.remaining()) {
      throw new PortablePdbException(
          "metadata version string of " + Integer.toUnsignedString(versionLength) + " bytes");
    }
    int vAt = r.position();
    int n = 0;
    while (n < versionLength && data[vAt + n] != 0) {
      n++;
    }
    String version = new String(data, vAt, n, StandardCharsets.UTF_8);
    r.skip(versionLength);
    r.skip(2); // flags
    int count = r.u8() | (r.u8() << 8);
    if (count > MAX_STREAMS) {
      throw new PortablePdbException("metadata root claims " + count + " streams");
    }
    Map<String, Stream> streams = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      long at = r.u32() & 0xffffffffL;
      long size = r.u32() & 0xffffffffL;
      int nameAt = r.position();
      int len = 0;
      while (len < 32 && len < r.remaining() && data[nameAt + len] != 0) {
        len++;
      }
      if (len == 32 || len == r.remaining()) {
        throw new PortablePdbException("stream header " + i + " has an unterminated name");
      }
      String name = new String(data, nameAt, len, StandardCharsets.US_ASCII);
      r.skip(Math.min(r.remaining(), (len + 4) & ~3));
      if (at > length || size > length - at) {
        throw new PortablePdbException(
            "stream "
                + name
                + " at "
                + at
                + " of "
                + size
                + " bytes runs past the metadata's "
                + length
                + " bytes");
      }
      // the first of two same-named streams wins, as in the CLR
      streams.putIfAbsent(name, new Stream(offset + (int) at, (int) size));
    }
    return new MetadataRoot(version, streams);
  }

  Stream stream(String name) {
    return streams.get(name);
  }
}

package io.symbolicate.symbols.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * An ELF {@code .gnu_debuglink}: the file name of the separate debug file and the CRC-32 of that
 * file's bytes (the zlib polynomial, as GDB computes it), so a found file can be checked.
 */
public record DebugLink(String fileName, long crc) {
  /** The link of {@code elf}, if it has one. */
  public static Optional<DebugLink> of(ElfFile elf) {
    Optional<Section> section = elf.section(".gnu_debuglink");
    if (section.isEmpty()) {
      return Optional.empty();
    }
    ByteBuffer data = section.get().data();
    int end = 0;
    while (end < data.limit() && data.get(end) != 0) {
      end++;
    }
    if (end == data.limit() || end == 0) {
      throw new ObjectFormatException(".gnu_debuglink has no NUL-terminated file name");
    }
    int crcAt = (end + 1 + 3) & ~3; // the name and its NUL padded to 4
    if (crcAt + 4 > data.limit()) {
      throw new ObjectFormatException(".gnu_debuglink is too short for its CRC");
    }
    String name = ElfFile.string(data, 0, ".gnu_debuglink file name");
    return Optional.of(new DebugLink(name, data.getInt(crcAt) & 0xffffffffL));
  }

  /** The CRC-32 a debug link records for {@code file}. */
  public static long crcOf(Path file) throws IOException {
    CRC32 crc = new CRC32();
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        crc.update(buf, 0, n);
      }
    }
    return crc.getValue();
  }

  /** Whether {@code file} is the one this link names by its CRC. */
  public boolean matches(Path file) throws IOException {
    return crcOf(file) == crc;
  }
}

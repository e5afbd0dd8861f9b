package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * An ELF {@code .gnu_debugaltlink}: the DWZ supplementary file this file's DWARF refers to
 * ({@code DW_FORM_GNU_ref_alt}, {@code DW_FORM_GNU_strp_alt}), by file name and build id.
 */
public record DebugAltLink(String fileName, String buildId) {
  public static Optional<DebugAltLink> of(ElfFile elf) {
    Optional<Section> section = elf.section(".gnu_debugaltlink");
    if (section.isEmpty()) {
      return Optional.empty();
    }
    ByteBuffer data = section.get().data();
    int end = 0;
    while (end < data.limit() && data.get(end) != 0) {
      end++;
    }
    if (end == data.limit()) {
      throw new ObjectFormatException(".gnu_debugaltlink has no NUL-terminated file name");
    }
    byte[] id = new byte[data.limit() - end - 1];
    data.get(end + 1, id);
    return Optional.of(
        new DebugAltLink(ElfFile.string(data, 0, ".gnu_debugaltlink file name"), Hex.lower(id)));
  }
}

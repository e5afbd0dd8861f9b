package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.util.Optional;

/** The notes of an ELF file; for now the one identity needs, {@code NT_GNU_BUILD_ID}. */
final class ElfNotes {
  static final int NT_GNU_BUILD_ID = 3;

  private ElfNotes() {}

  /**
   * The build id: from the first note section (any {@code SHT_NOTE}, since debug companions and
   * odd linkers name them differently) or, in a file without section headers, a {@code PT_NOTE}
   * segment.
   */
  static Optional<byte[]> buildId(ElfFile elf) {
    for (ElfSectionHeader s : elf.sections()) {
      if (s.type() == ElfSectionHeader.SHT_NOTE && s.hasData()) {
        Optional<byte[]> id =
            find(elf.section(s.name()).map(Section::data).orElse(elf.rawData(s)), s.addressAlign());
        if (id.isPresent()) {
          return id;
        }
      }
    }
    for (ElfProgramHeader p : elf.programHeaders()) {
      if (p.type() == ElfProgramHeader.PT_NOTE && p.fileSize() > 0) {
        Optional<byte[]> id =
            find(elf.fileBytes(p.offset(), p.fileSize(), "note segment"), p.align());
        if (id.isPresent()) {
          return id;
        }
      }
    }
    return Optional.empty();
  }

  /** Walks {@code Elf_Nhdr} entries: namesz, descsz, type, then name and desc padded. */
  private static Optional<byte[]> find(ByteBuffer notes, long align) {
    int pad = align == 8 ? 8 : 4;
    int at = 0;
    int limit = notes.limit();
    while (limit - at >= 12) {
      long namesz = notes.getInt(at) & 0xffffffffL;
      long descsz = notes.getInt(at + 4) & 0xffffffffL;
      int type = notes.getInt(at + 8);
      long nameAt = at + 12L;
      long descAt = nameAt + roundUp(namesz, pad);
      long end = descAt + roundUp(descsz, pad);
      if (descAt + descsz > limit) {
        return Optional.empty(); // truncated note: ignore the rest, as readelf does
      }
      if (type == NT_GNU_BUILD_ID
          && namesz == 4
          && notes.get((int) nameAt) == 'G'
          && notes.get((int) nameAt + 1) == 'N'
          && notes.get((int) nameAt + 2) == 'U'
          && descsz > 0) {
        byte[] id = new byte[(int) descsz];
        notes.get((int) descAt, id);
        return Optional.of(id);
      }
      if (end > limit) {
        return Optional.empty();
      }
      at = (int) end;
    }
    return Optional.empty();
  }

  private static long roundUp(long n, int pad) {
    return (n + pad - 1) & -pad;
  }
}

package io.symbolicate.symbols.objects;

/**
 * One ELF section header as the file states it ({@code Elf32_Shdr}/{@code Elf64_Shdr}), with its
 * name resolved from the section-name string table. Sizes and offsets are unsigned; {@link
 * ElfFile} bounds-checks them before it reads the data.
 */
public record ElfSectionHeader(
    int index,
    String name,
    int type,
    long flags,
    long address,
    long offset,
    long size,
    int link,
    int info,
    long addressAlign,
    long entrySize) {
  public static final int SHT_NULL = 0;
  public static final int SHT_PROGBITS = 1;
  public static final int SHT_SYMTAB = 2;
  public static final int SHT_STRTAB = 3;
  public static final int SHT_NOTE = 7;
  public static final int SHT_NOBITS = 8;
  public static final int SHT_DYNSYM = 11;
  public static final long SHF_ALLOC = 0x2;
  public static final long SHF_EXECINSTR = 0x4;
  public static final long SHF_COMPRESSED = 0x800;

  /** Whether the file holds this section's bytes (not {@code SHT_NOBITS}, not empty). */
  public boolean hasData() {
    return type != SHT_NOBITS && type != SHT_NULL && size != 0;
  }

  public boolean compressed() {
    return (flags & SHF_COMPRESSED) != 0;
  }
}

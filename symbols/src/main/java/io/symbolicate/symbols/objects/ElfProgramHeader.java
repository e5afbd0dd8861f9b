package io.symbolicate.symbols.objects;

/** One ELF program header (segment) as the file states it ({@code Elf32_Phdr}/{@code Elf64_Phdr}). */
public record ElfProgramHeader(
    int type,
    int flags,
    long offset,
    long virtualAddress,
    long physicalAddress,
    long fileSize,
    long memorySize,
    long align) {
  public static final int PT_LOAD = 1;
  public static final int PT_DYNAMIC = 2;
  public static final int PT_INTERP = 3;
  public static final int PT_NOTE = 4;
  public static final int PT_GNU_EH_FRAME = 0x6474e550;
  public static final int PF_X = 1;
}

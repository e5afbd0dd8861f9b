package io.symbolicate.symbols.objects;

import java.util.Optional;

/**
 * The sections of one object file that the DWARF and unwind readers need, already decompressed:
 * the seam between the containers (ELF, Mach-O) and the readers ({@code symbols.dwarf}, {@code
 * symbols.cfi}), so a reader never knows which container it reads.
 */
public interface ObjectSections {
  /**
   * A section by its ELF name ({@code .debug_info}, {@code .eh_frame}, {@code .eh_frame_hdr});
   * Mach-O containers answer for their equivalents ({@code __debug_info} as {@code .debug_info},
   * {@code __eh_frame} as {@code .eh_frame}, {@code __unwind_info} as {@code __unwind_info}).
   * Empty when the file has no such section or it is empty (SHT_NOBITS).
   */
  Optional<Section> section(String name);

  /** Byte order of the file's data. */
  boolean littleEndian();

  /** 4 or 8: the size of an address in the file's machine. */
  int addressSize();
}

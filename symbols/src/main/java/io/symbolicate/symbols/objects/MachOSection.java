package io.symbolicate.symbols.objects;

/** One Mach-O section header ({@code section}/{@code section_64}) as the file states it. */
public record MachOSection(
    String segment, String name, long address, long size, long offset, int flags) {
  static final int SECTION_TYPE = 0xff;
  static final int S_ZEROFILL = 1;
  static final int S_GB_ZEROFILL = 0xc;
  static final int S_THREAD_LOCAL_ZEROFILL = 0x12;
  static final int S_ATTR_PURE_INSTRUCTIONS = 0x80000000;
  static final int S_ATTR_SOME_INSTRUCTIONS = 0x400;

  /** Whether the section holds machine instructions ({@code __text}, {@code __stubs}, ...). */
  public boolean code() {
    return (flags & (S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS)) != 0;
  }

  /**
   * Whether the file holds the section's bytes: not zero-fill, and not a dSYM's copy of the
   * executable's sections (those keep their size but have no bytes: offset 0).
   */
  public boolean hasData() {
    int type = flags & SECTION_TYPE;
    return size != 0
        && offset != 0
        && type != S_ZEROFILL
        && type != S_GB_ZEROFILL
        && type != S_THREAD_LOCAL_ZEROFILL;
  }
}

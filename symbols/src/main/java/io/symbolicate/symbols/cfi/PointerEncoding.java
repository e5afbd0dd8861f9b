package io.symbolicate.symbols.cfi;

/**
 * {@code DW_EH_PE_*} pointer encodings of {@code .eh_frame}: a value format (low nibble), an
 * application (pc-, text-, data-, function-relative, aligned) and the indirect bit. The bases come
 * from the section's load address and, when the caller knows them, {@code .text} and {@code
 * .got}.
 */
final class PointerEncoding {
  static final int OMIT = 0xFF;
  static final int ABSPTR = 0x00;
  static final int ULEB128 = 0x01;
  static final int UDATA2 = 0x02;
  static final int UDATA4 = 0x03;
  static final int UDATA8 = 0x04;
  static final int SLEB128 = 0x09;
  static final int SDATA2 = 0x0A;
  static final int SDATA4 = 0x0B;
  static final int SDATA8 = 0x0C;
  static final int PCREL = 0x10;
  static final int TEXTREL = 0x20;
  static final int DATAREL = 0x30;
  static final int FUNCREL = 0x40;
  static final int ALIGNED = 0x50;
  static final int INDIRECT = 0x80;

  /** Where pointers are relative to; a null base makes pointers relative to it unreadable. */
  record Bases(long section, Long text, Long data) {}

  private PointerEncoding() {}

  /** Reads an encoding byte; unknown formats or applications are errors (gimli's rule). */
  static int read(SectionCursor in) {
    int e = in.u8();
    if (!valid(e)) {
      throw new CfiException("unknown pointer encoding 0x" + Integer.toHexString(e));
    }
    return e;
  }

  static boolean valid(int e) {
    if (e == OMIT) {
      return true;
    }
    int format = e & 0x0F;
    int application = e & 0x70;
    boolean formatOk =
        format == ABSPTR
            || (format >= ULEB128 && format <= UDATA8)
            || (format >= SLEB128 && format <= SDATA8);
    return formatOk && application <= ALIGNED;
  }

  /**
   * A pointer read with {@code encoding}; the indirect bit is ignored (the value is the address
   * of the pointer, which unwinding never needs to follow: gimli and Breakpad do the same for FDE
   * addresses). {@code sectionOffset} is the section offset of the cursor, for pc-relative values.
   */
  static long pointer(int encoding, SectionCursor in, Bases bases, Long funcBase, int addressSize) {
    if (encoding == OMIT) {
      throw new CfiException("an omitted pointer where one is required");
    }
    long base =
        switch (encoding & 0x70) {
          case ABSPTR -> 0;
          case PCREL -> bases.section() + in.position();
          case TEXTREL -> require(bases.text(), "text-relative pointer without .text");
          case DATAREL -> require(bases.data(), "data-relative pointer without .got");
          case FUNCREL -> require(funcBase, "function-relative pointer outside an FDE");
          case ALIGNED -> {
            // Breakpad's reading: skip to the next address-size boundary, then an absolute pointer
            long misalign = (bases.section() + in.position()) & (addressSize - 1);
            in.skip(misalign == 0 ? 0 : addressSize - misalign);
            yield 0;
          }
          default ->
              throw new CfiException(
                  "unsupported pointer encoding 0x" + Integer.toHexString(encoding));
        };
    long value =
        (encoding & 0x70) == ALIGNED ? in.address(addressSize) : value(encoding, in, addressSize);
    return mask(base + value, addressSize);
  }

  /** The value alone, without its application (an FDE's address range). */
  static long value(int encoding, SectionCursor in, int addressSize) {
    return switch (encoding & 0x0F) {
      case ABSPTR -> in.address(addressSize);
      case ULEB128 -> in.uleb();
      case UDATA2 -> in.u16();
      case UDATA4 -> in.u32();
      case UDATA8 -> in.u64();
      case SLEB128 -> in.sleb();
      case SDATA2 -> (short) in.u16();
      case SDATA4 -> (int) in.u32();
      case SDATA8 -> in.u64();
      default ->
          throw new CfiException("unknown pointer format 0x" + Integer.toHexString(encoding));
    };
  }

  static long mask(long v, int addressSize) {
    return addressSize >= 8 ? v : v & ((1L << (addressSize * 8)) - 1);
  }

  private static long require(Long base, String reason) {
    if (base == null) {
      throw new CfiException(reason);
    }
    return base;
  }
}

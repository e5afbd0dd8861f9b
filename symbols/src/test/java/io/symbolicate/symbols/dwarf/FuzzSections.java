package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sections cut out of one byte string, for the fuzz target: a flags byte (bit 0 inlines, bit 1
 * big-endian, bit 2 four-byte addresses), then for each of {@link #NAMES} a two-byte
 * little-endian length and that many bytes (the last section takes what is left).
 */
final class FuzzSections implements ObjectSections {
  static final String[] NAMES = {
    ".debug_info",
    ".debug_abbrev",
    ".debug_line",
    ".debug_str",
    ".debug_line_str",
    ".debug_str_offsets",
    ".debug_addr",
    ".debug_ranges",
    ".debug_rnglists"
  };

  /**
   * The sections of the split DWARF target: an executable's skeleton ({@code .debug_*}) and a
   * {@code .dwp} package ({@code .debug_cu_index} and the {@code .debug_*.dwo} sections).
   */
  static final String[] SPLIT_NAMES = {
    ".debug_info",
    ".debug_abbrev",
    ".debug_str",
    ".debug_str_offsets",
    ".debug_addr",
    ".debug_line",
    ".debug_ranges",
    ".debug_rnglists",
    ".debug_cu_index",
    ".debug_info.dwo",
    ".debug_abbrev.dwo",
    ".debug_str.dwo",
    ".debug_str_offsets.dwo",
    ".debug_line.dwo",
    ".debug_rnglists.dwo"
  };

  private final Map<String, Section> sections = new HashMap<>();
  final boolean inlines;
  private final boolean little;
  private final int addressSize;

  FuzzSections(byte[] data) {
    this(data, NAMES);
  }

  FuzzSections(byte[] data, String[] names) {
    int flags = data.length > 0 ? data[0] : 0;
    inlines = (flags & 1) != 0;
    little = (flags & 2) == 0;
    addressSize = (flags & 4) != 0 ? 4 : 8;
    ByteOrder order = little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    int pos = 1;
    for (int i = 0; i < names.length && pos < data.length; i++) {
      int len;
      if (i == names.length - 1 || pos + 2 > data.length) {
        len = data.length - pos;
      } else {
        len = (data[pos] & 0xff) | (data[pos + 1] & 0xff) << 8;
        pos += 2;
        len = Math.min(len, data.length - pos);
      }
      byte[] b = new byte[len];
      System.arraycopy(data, pos, b, 0, len);
      pos += len;
      sections.put(names[i], Section.of(names[i], 0, b, order));
    }
  }

  /** The fuzz input of real sections (the seed corpus is made this way). */
  static byte[] encode(ObjectSections from, int flags) {
    return encode(from, flags, NAMES);
  }

  static byte[] encode(ObjectSections from, int flags, String[] names) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(flags);
    for (int i = 0; i < names.length; i++) {
      byte[] b =
          from.section(names[i])
              .map(
                  s -> {
                    byte[] a = new byte[s.size()];
                    s.data().duplicate().get(0, a);
                    return a;
                  })
              .orElse(new byte[0]);
      if (i < names.length - 1) {
        int len = Math.min(b.length, 0xffff);
        out.write(len & 0xff);
        out.write(len >> 8);
        out.write(b, 0, len);
      } else {
        out.write(b, 0, b.length);
      }
    }
    return out.toByteArray();
  }

  @Override
  public Optional<Section> section(String name) {
    return Optional.ofNullable(sections.get(name));
  }

  @Override
  public boolean littleEndian() {
    return little;
  }

  @Override
  public int addressSize() {
    return addressSize;
  }
}

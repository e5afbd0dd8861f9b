package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A throwaway thin 64-bit little-endian Mach-O section reader for the DWARF tests ({@code
 * __DWARF,__debug_info} answered as {@code .debug_info}), until the objects package's Mach-O
 * reader lands.
 */
final class TestMachO implements ObjectSections {
  private final Map<String, Section> sections = new HashMap<>();
  long textAddress;

  TestMachO(Path path) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
    if (b.getInt(0) != 0xfeedfacf) {
      throw new IOException("not a thin 64-bit little-endian Mach-O");
    }
    int ncmds = b.getInt(16);
    int at = 32;
    for (int i = 0; i < ncmds; i++) {
      int cmd = b.getInt(at);
      int size = b.getInt(at + 4);
      if (cmd == 0x19) {
        String segment = name(b, at + 8);
        if (segment.equals("__TEXT")) {
          textAddress = b.getLong(at + 24);
        }
        int nsects = b.getInt(at + 64);
        for (int s = 0; s < nsects; s++) {
          int h = at + 72 + 80 * s;
          String sect = name(b, h);
          long addr = b.getLong(h + 32);
          int len = (int) b.getLong(h + 40);
          int off = b.getInt(h + 48);
          if (segment.equals("__DWARF") && sect.startsWith("__debug_") && off > 0) {
            byte[] data = new byte[len];
            b.get(off, data);
            String elf = "." + sect.substring(2);
            if (elf.equals(".debug_str_offs")) {
              elf = ".debug_str_offsets";
            }
            sections.put(elf, Section.of(elf, addr, data, ByteOrder.LITTLE_ENDIAN));
          }
        }
      }
      at += size;
    }
  }

  private static String name(ByteBuffer b, int at) {
    byte[] n = new byte[16];
    b.get(at, n);
    int len = 0;
    while (len < 16 && n[len] != 0) {
      len++;
    }
    return new String(n, 0, len, StandardCharsets.US_ASCII);
  }

  @Override
  public Optional<Section> section(String name) {
    return Optional.ofNullable(sections.get(name));
  }

  @Override
  public boolean littleEndian() {
    return true;
  }

  @Override
  public int addressSize() {
    return 8;
  }
}

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
 * A throwaway ELF64 little-endian section reader for the DWARF tests (uncompressed sections and
 * the function symbols of {@code .symtab}), until the objects package's ELF reader lands.
 */
final class TestElf implements ObjectSections {
  private final Map<String, Section> sections = new HashMap<>();
  final Map<Long, String> functionSymbols = new HashMap<>();

  TestElf(Path path) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(0x28);
    int shentsize = b.getShort(0x3a) & 0xffff;
    int shnum = b.getShort(0x3c) & 0xffff;
    int shstrndx = b.getShort(0x3e) & 0xffff;
    int strtabOff = (int) b.getLong((int) (shoff + (long) shstrndx * shentsize + 0x18));
    Map<String, int[]> raw = new HashMap<>();
    for (int i = 0; i < shnum; i++) {
      int h = (int) (shoff + (long) i * shentsize);
      String name = cstring(b, strtabOff + b.getInt(h));
      int type = b.getInt(h + 4);
      long addr = b.getLong(h + 0x10);
      int off = (int) b.getLong(h + 0x18);
      int size = (int) b.getLong(h + 0x20);
      int link = b.getInt(h + 0x28);
      if (type == 8 || size == 0) {
        continue; // NOBITS
      }
      byte[] data = new byte[size];
      b.get(off, data);
      sections.put(name, Section.of(name, addr, data, ByteOrder.LITTLE_ENDIAN));
      raw.put(name, new int[] {off, size, link});
    }
    int[] symtab = raw.get(".symtab");
    int[] strtab = raw.get(".strtab");
    if (symtab != null && strtab != null) {
      for (int s = symtab[0]; s + 24 <= symtab[0] + symtab[1]; s += 24) {
        int info = b.get(s + 4) & 0xff;
        long value = b.getLong(s + 8);
        if ((info & 0xf) == 2 && value != 0) {
          functionSymbols.putIfAbsent(value, cstring(b, strtab[0] + b.getInt(s)));
        }
      }
    }
  }

  private static String cstring(ByteBuffer b, int at) {
    int e = at;
    while (b.get(e) != 0) {
      e++;
    }
    byte[] s = new byte[e - at];
    b.get(at, s);
    return new String(s, StandardCharsets.UTF_8);
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

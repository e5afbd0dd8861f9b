package io.symbolicate.symbols.objects;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small ELF files of any class and byte order for tests: the fixtures are all 64-bit
 * little-endian x86-64/aarch64, so 32-bit and big-endian layouts are checked on files of our own.
 */
final class ElfBuilder {
  private record Sec(String name, int type, long flags, long addr, byte[] data) {}

  private final boolean is64;
  private final ByteOrder order;
  private final int machine;
  private final int type;
  private final List<Sec> sections = new ArrayList<>();

  ElfBuilder(boolean is64, ByteOrder order, int machine, int type) {
    this.is64 = is64;
    this.order = order;
    this.machine = machine;
    this.type = type;
  }

  ElfBuilder section(String name, int shType, long flags, long addr, byte[] data) {
    sections.add(new Sec(name, shType, flags, addr, data));
    return this;
  }

  byte[] build() {
    ByteArrayOutputStream names = new ByteArrayOutputStream();
    names.write(0);
    List<Integer> nameOffsets = new ArrayList<>();
    for (Sec s : sections) {
      nameOffsets.add(names.size());
      names.writeBytes((s.name + "\0").getBytes(StandardCharsets.UTF_8));
    }
    int shstrName = names.size();
    names.writeBytes(".shstrtab\0".getBytes(StandardCharsets.UTF_8));
    byte[] shstr = names.toByteArray();

    int ehsize = is64 ? 64 : 52;
    int shentsize = is64 ? 64 : 40;
    int offset = ehsize;
    List<Integer> offsets = new ArrayList<>();
    for (Sec s : sections) {
      offsets.add(offset);
      if (s.type != ElfSectionHeader.SHT_NOBITS) {
        offset += s.data.length;
      }
    }
    int shstrOffset = offset;
    offset += shstr.length;
    offset = (offset + 7) & ~7;
    int shoff = offset;
    int shnum = sections.size() + 2;
    ByteBuffer b = ByteBuffer.allocate(shoff + shnum * shentsize).order(order);
    b.put(
        new byte[] {
          0x7f,
          'E',
          'L',
          'F',
          (byte) (is64 ? 2 : 1),
          (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2),
          1
        });
    b.position(16);
    b.putShort((short) type).putShort((short) machine).putInt(1);
    if (is64) {
      b.putLong(0).putLong(0).putLong(shoff);
    } else {
      b.putInt(0).putInt(0).putInt(shoff);
    }
    b.putInt(0).putShort((short) ehsize).putShort((short) 0).putShort((short) 0);
    b.putShort((short) shentsize).putShort((short) shnum).putShort((short) (shnum - 1));
    for (int i = 0; i < sections.size(); i++) {
      Sec s = sections.get(i);
      if (s.type != ElfSectionHeader.SHT_NOBITS) {
        b.put(offsets.get(i), s.data);
      }
    }
    b.put(shstrOffset, shstr);
    b.position(shoff + shentsize); // section 0 stays null
    for (int i = 0; i < sections.size(); i++) {
      Sec s = sections.get(i);
      header(b, nameOffsets.get(i), s.type, s.flags, s.addr, offsets.get(i), s.data.length);
    }
    header(b, shstrName, ElfSectionHeader.SHT_STRTAB, 0, 0, shstrOffset, shstr.length);
    return b.array();
  }

  private void header(
      ByteBuffer b, int name, int type, long flags, long addr, long off, long size) {
    b.putInt(name).putInt(type);
    if (is64) {
      b.putLong(flags).putLong(addr).putLong(off).putLong(size).putInt(0).putInt(0);
      b.putLong(1).putLong(0);
    } else {
      b.putInt((int) flags).putInt((int) addr).putInt((int) off).putInt((int) size);
      b.putInt(0).putInt(0).putInt(1).putInt(0);
    }
  }
}

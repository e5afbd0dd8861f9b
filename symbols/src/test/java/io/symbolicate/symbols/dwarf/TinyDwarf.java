package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A tiny little-endian DWARF writer for tests: raw bytes per section, LEB128 and fixed ints. */
final class TinyDwarf implements ObjectSections {
  static final class Bytes {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u8(int v) {
      out.write(v);
      return this;
    }

    Bytes u16(int v) {
      return u8(v & 0xff).u8(v >>> 8 & 0xff);
    }

    Bytes u32(long v) {
      return u16((int) (v & 0xffff)).u16((int) (v >>> 16 & 0xffff));
    }

    Bytes u64(long v) {
      return u32(v & 0xffffffffL).u32(v >>> 32);
    }

    Bytes uleb(long v) {
      do {
        int b = (int) (v & 0x7f);
        v >>>= 7;
        out.write(v != 0 ? b | 0x80 : b);
      } while (v != 0);
      return this;
    }

    Bytes str(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.write(b, 0, b.length);
      return u8(0);
    }

    Bytes bytes(byte[] b) {
      out.write(b, 0, b.length);
      return this;
    }

    int size() {
      return out.size();
    }

    byte[] toArray() {
      return out.toByteArray();
    }
  }

  /** A DWARF 4 compile unit header (32-bit) around {@code dies}, 8-byte addresses. */
  static byte[] unit4(byte[] dies) {
    return new Bytes().u32(2 + 4 + 1 + dies.length).u16(4).u32(0).u8(8).bytes(dies).toArray();
  }

  private final Map<String, Section> sections = new HashMap<>();

  TinyDwarf put(String name, byte[] data) {
    sections.put(name, Section.of(name, 0, data, ByteOrder.LITTLE_ENDIAN));
    return this;
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

package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A fat (universal) Mach-O file: one slice per architecture, big-endian headers. */
final class FatFile {
  static final int FAT_MAGIC = 0xcafebabe;
  static final int FAT_MAGIC_64 = 0xcafebabf;

  /**
   * More slices than any real fat file has; Java class files share FAT_MAGIC and read as a fat
   * header with their version (45 and up) as the count.
   */
  static final int MAX_SLICES = 30;

  /** One architecture's slice. */
  record Slice(String arch, int cpuType, int cpuSubtype, long offset, long size) {}

  private FatFile() {}

  static boolean isFat(ObjectBytes bytes) {
    if (bytes.size() < 8) {
      return false;
    }
    ByteBuffer h = bytes.slice(0, 8, ByteOrder.BIG_ENDIAN, "fat header");
    int magic = h.getInt(0);
    return (magic == FAT_MAGIC || magic == FAT_MAGIC_64)
        && Integer.compareUnsigned(h.getInt(4), MAX_SLICES) < 0;
  }

  static List<Slice> slices(ObjectBytes bytes) {
    ByteBuffer h = bytes.slice(0, 8, ByteOrder.BIG_ENDIAN, "fat header");
    boolean wide = h.getInt(0) == FAT_MAGIC_64;
    int n = h.getInt(4);
    if (n < 0 || n >= MAX_SLICES) {
      throw new ObjectFormatException("fat file claims " + Integer.toUnsignedString(n) + " slices");
    }
    int entry = wide ? 32 : 20;
    ByteBuffer t = bytes.slice(8, (long) n * entry, ByteOrder.BIG_ENDIAN, "fat arch table");
    List<Slice> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int at = i * entry;
      int cpu = t.getInt(at);
      int sub = t.getInt(at + 4);
      long offset = wide ? t.getLong(at + 8) : t.getInt(at + 8) & 0xffffffffL;
      long size = wide ? t.getLong(at + 16) : t.getInt(at + 12) & 0xffffffffL;
      String arch = MachOArch.name(cpu, sub);
      bytes.check(offset, size, "fat slice " + arch);
      out.add(new Slice(arch, cpu, sub, offset, size));
    }
    return out;
  }

  /** The slice of {@code arch}; with a null arch, the only slice. */
  static Slice choose(List<Slice> slices, String arch) {
    if (arch == null) {
      if (slices.size() == 1) {
        return slices.get(0);
      }
      throw new ObjectFormatException(
          "fat Mach-O file with " + names(slices) + ": choose one architecture");
    }
    for (Slice s : slices) {
      if (s.arch().equals(arch)) {
        return s;
      }
    }
    throw new ObjectFormatException(
        "fat Mach-O file has no " + arch + " slice (it has " + names(slices) + ")");
  }

  static String names(List<Slice> slices) {
    return slices.stream().map(Slice::arch).collect(Collectors.joining(", "));
  }
}

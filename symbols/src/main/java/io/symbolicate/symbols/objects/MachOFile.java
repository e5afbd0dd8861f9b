package io.symbolicate.symbols.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A thin Mach-O file (32 or 64-bit, either byte order), or one architecture's slice of a fat
 * file: header, load commands, segments and sections, {@code LC_UUID} and {@code LC_SYMTAB}. As
 * {@link ObjectSections} it answers ELF names: {@code .debug_info} is {@code __debug_info} (in a
 * dSYM's {@code __DWARF} segment), {@code .eh_frame} is {@code __eh_frame}; Mach-O names such as
 * {@code __unwind_info} are answered as they are.
 */
public final class MachOFile implements ObjectSections {
  public static final int MH_OBJECT = 1;
  public static final int MH_EXECUTE = 2;
  public static final int MH_CORE = 4;
  public static final int MH_DYLIB = 6;
  public static final int MH_DYLINKER = 7;
  public static final int MH_BUNDLE = 8;
  public static final int MH_DSYM = 0xa;

  static final int LC_SEGMENT = 0x1;
  static final int LC_SYMTAB = 0x2;
  static final int LC_SEGMENT_64 = 0x19;
  static final int LC_UUID = 0x1b;

  private final ObjectBytes bytes;
  private final boolean is64;
  private final ByteOrder order;
  private final int cpuType;
  private final int cpuSubtype;
  private final int fileType;
  private final List<MachOSegment> segments = new ArrayList<>();
  private final List<MachOSection> sections = new ArrayList<>();
  private byte[] uuid;
  private long symoff;
  private long nsyms;
  private long stroff;
  private long strsize;

  /** A thin Mach-O file or the slice of {@code arch} (null: the only one) of a fat file. */
  public static MachOFile open(Path file, String arch) throws IOException {
    return select(ObjectBytes.map(file), arch);
  }

  /** As {@link #open(Path, String)} for a file held in memory. */
  public static MachOFile parse(byte[] data, String arch) {
    return select(ObjectBytes.of(data), arch);
  }

  static MachOFile select(ObjectBytes bytes, String arch) {
    if (!FatFile.isFat(bytes)) {
      MachOFile thin = new MachOFile(bytes);
      if (arch != null && !arch.equals(thin.arch())) {
        throw new ObjectFormatException("the Mach-O file is " + thin.arch() + ", not " + arch);
      }
      return thin;
    }
    List<FatFile.Slice> slices = FatFile.slices(bytes);
    FatFile.Slice chosen = FatFile.choose(slices, arch);
    return new MachOFile(bytes.sub(chosen.offset(), chosen.size(), "fat slice " + chosen.arch()));
  }

  static boolean isMachO(int beMagic) {
    return beMagic == 0xfeedface
        || beMagic == 0xfeedfacf
        || beMagic == 0xcefaedfe
        || beMagic == 0xcffaedfe;
  }

  MachOFile(ObjectBytes bytes) {
    this.bytes = bytes;
    if (bytes.size() < 28) {
      throw new ObjectFormatException("not a Mach-O file: " + bytes.size() + " bytes");
    }
    int magic = bytes.slice(0, 4, ByteOrder.BIG_ENDIAN, "Mach-O magic").getInt(0);
    switch (magic) {
      case 0xfeedface -> {
        is64 = false;
        order = ByteOrder.BIG_ENDIAN;
      }
      case 0xfeedfacf -> {
        is64 = true;
        order = ByteOrder.BIG_ENDIAN;
      }
      case 0xcefaedfe -> {
        is64 = false;
        order = ByteOrder.LITTLE_ENDIAN;
      }
      case 0xcffaedfe -> {
        is64 = true;
        order = ByteOrder.LITTLE_ENDIAN;
      }
      default ->
          throw new ObjectFormatException("not a Mach-O file: magic " + Integer.toHexString(magic));
    }
    int headerSize = is64 ? 32 : 28;
    ByteBuffer h = bytes.slice(0, headerSize, order, "Mach-O header");
    cpuType = h.getInt(4);
    cpuSubtype = h.getInt(8);
    fileType = h.getInt(12);
    long ncmds = h.getInt(16) & 0xffffffffL;
    long sizeofcmds = h.getInt(20) & 0xffffffffL;
    ByteBuffer cmds = bytes.slice(headerSize, sizeofcmds, order, "Mach-O load commands");
    if (ncmds > sizeofcmds / 8) {
      throw new ObjectFormatException(
          "Mach-O claims " + ncmds + " load commands in " + sizeofcmds + " bytes");
    }
    int at = 0;
    for (long i = 0; i < ncmds; i++) {
      if (cmds.limit() - at < 8) {
        throw new ObjectFormatException("Mach-O load command " + i + " is truncated");
      }
      int cmd = cmds.getInt(at);
      long cmdsize = cmds.getInt(at + 4) & 0xffffffffL;
      if (cmdsize < 8 || cmdsize > cmds.limit() - at) {
        throw new ObjectFormatException(
            "Mach-O load command " + i + " has size " + cmdsize + ", outside its table");
      }
      ByteBuffer c = cmds.slice(at, (int) cmdsize).order(order);
      switch (cmd) {
        case LC_SEGMENT -> segment(c, false);
        case LC_SEGMENT_64 -> segment(c, true);
        case LC_UUID -> {
          need(c, 24, "LC_UUID");
          uuid = new byte[16];
          c.get(8, uuid);
        }
        case LC_SYMTAB -> {
          need(c, 24, "LC_SYMTAB");
          symoff = c.getInt(8) & 0xffffffffL;
          nsyms = c.getInt(12) & 0xffffffffL;
          stroff = c.getInt(16) & 0xffffffffL;
          strsize = c.getInt(20) & 0xffffffffL;
        }
        default -> {}
      }
      at += (int) cmdsize;
    }
  }

  private void segment(ByteBuffer c, boolean wide) {
    int headerSize = wide ? 72 : 56;
    int sectionSize = wide ? 80 : 68;
    need(c, headerSize, wide ? "LC_SEGMENT_64" : "LC_SEGMENT");
    String segname = name(c, 8);
    long vmaddr = wide ? c.getLong(24) : c.getInt(24) & 0xffffffffL;
    long vmsize = wide ? c.getLong(32) : c.getInt(28) & 0xffffffffL;
    long fileoff = wide ? c.getLong(40) : c.getInt(32) & 0xffffffffL;
    long filesize = wide ? c.getLong(48) : c.getInt(36) & 0xffffffffL;
    long nsects = c.getInt(wide ? 64 : 48) & 0xffffffffL;
    if (nsects > (c.limit() - headerSize) / sectionSize) {
      throw new ObjectFormatException(
          "segment " + segname + " claims " + nsects + " sections, more than its command holds");
    }
    segments.add(new MachOSegment(segname, vmaddr, vmsize, fileoff, filesize));
    for (int i = 0; i < nsects; i++) {
      int s = headerSize + i * sectionSize;
      String sectname = name(c, s);
      String sectSegment = name(c, s + 16);
      long addr = wide ? c.getLong(s + 32) : c.getInt(s + 32) & 0xffffffffL;
      long size = wide ? c.getLong(s + 40) : c.getInt(s + 36) & 0xffffffffL;
      long offset = c.getInt(s + (wide ? 48 : 40)) & 0xffffffffL;
      int flags = c.getInt(s + (wide ? 64 : 56));
      sections.add(new MachOSection(sectSegment, sectname, addr, size, offset, flags));
    }
  }

  private static void need(ByteBuffer c, int size, String what) {
    if (c.limit() < size) {
      throw new ObjectFormatException(what + " is " + c.limit() + " bytes, shorter than " + size);
    }
  }

  /** A fixed 16-byte name, NUL-padded. */
  private static String name(ByteBuffer c, int at) {
    int n = 0;
    while (n < 16 && c.get(at + n) != 0) {
      n++;
    }
    byte[] b = new byte[n];
    c.get(at, b);
    return new String(b, StandardCharsets.UTF_8);
  }

  public boolean is64() {
    return is64;
  }

  @Override
  public boolean littleEndian() {
    return order == ByteOrder.LITTLE_ENDIAN;
  }

  public ByteOrder order() {
    return order;
  }

  @Override
  public int addressSize() {
    return is64 ? 8 : 4;
  }

  public int cpuType() {
    return cpuType;
  }

  public int cpuSubtype() {
    return cpuSubtype;
  }

  /** The architecture's name ({@code x86_64}, {@code arm64}, {@code armv7}, {@code x86}, ...). */
  public String arch() {
    return MachOArch.name(cpuType, cpuSubtype);
  }

  /** {@link #MH_EXECUTE}, {@link #MH_DYLIB}, {@link #MH_DSYM}, ... */
  public int fileType() {
    return fileType;
  }

  public Optional<byte[]> uuid() {
    return Optional.ofNullable(uuid).map(byte[]::clone);
  }

  public List<MachOSegment> segments() {
    return Collections.unmodifiableList(segments);
  }

  public List<MachOSection> sections() {
    return Collections.unmodifiableList(sections);
  }

  /** {@code symoff, nsyms, stroff, strsize} of {@code LC_SYMTAB}; all 0 without one. */
  long[] symtab() {
    return new long[] {symoff, nsyms, stroff, strsize};
  }

  /** {@code length} bytes at {@code offset} of this (slice of the) file. */
  ByteBuffer fileBytes(long offset, long length, String what) {
    return bytes.slice(offset, length, order, what);
  }

  /** The Mach-O section name an ELF section name maps to: {@code .debug_str_offsets} → {@code __debug_str_offs}. */
  static String machOName(String elfName) {
    if (!elfName.startsWith(".")) {
      return elfName;
    }
    String n = "__" + elfName.substring(1);
    return n.length() > 16 ? n.substring(0, 16) : n;
  }

  /** The first section named {@code name} (Mach-O spelling) that has bytes in the file. */
  public Optional<MachOSection> sectionHeader(String name) {
    for (MachOSection s : sections) {
      if (s.name().equals(name) && s.hasData()) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  @Override
  public Optional<Section> section(String name) {
    return sectionHeader(machOName(name))
        .map(
            s ->
                new Section(
                    name,
                    s.address(),
                    bytes.slice(s.offset(), s.size(), order, "section " + s.name())));
  }
}

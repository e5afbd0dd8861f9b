package io.symbolicate.symbols.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An ELF file, 32 or 64-bit, either byte order: its header, section headers (with names) and
 * program headers, and its sections decompressed on demand ({@code SHF_COMPRESSED} zlib and zstd,
 * legacy {@code .zdebug_*} answered under their {@code .debug_*} names). A file is memory-mapped,
 * never read into the heap; only decompressed sections are (and are kept, so each is inflated
 * once): on the heap, or off it for a section over an eighth of the heap.
 */
public final class ElfFile implements ObjectSections {
  public static final int ET_REL = 1;
  public static final int ET_EXEC = 2;
  public static final int ET_DYN = 3;
  public static final int ET_CORE = 4;

  public static final int EM_386 = 3;
  public static final int EM_MIPS = 8;
  public static final int EM_PPC = 20;
  public static final int EM_PPC64 = 21;
  public static final int EM_S390 = 22;
  public static final int EM_ARM = 40;
  public static final int EM_SPARCV9 = 43;
  public static final int EM_X86_64 = 62;
  public static final int EM_AARCH64 = 183;
  public static final int EM_RISCV = 243;

  static final int ELFCOMPRESS_ZLIB = 1;
  static final int ELFCOMPRESS_ZSTD = 2;
  private static final int SHN_XINDEX = 0xffff;

  private final ObjectBytes bytes;
  private final boolean is64;
  private final ByteOrder order;
  private final int type;
  private final int machine;
  private final long flags;
  private final long entry;
  private final List<ElfSectionHeader> sections;
  private final List<ElfProgramHeader> programHeaders;
  private final Map<String, ElfSectionHeader> byName;
  private final Map<String, Optional<Section>> inflated = new ConcurrentHashMap<>();

  /**
   * Bytes the compressed sections of this file may inflate to, all together: {@link
   * #INFLATE_RATIO} times the file's size. zlib cannot pass 1032:1 and debug info compresses
   * about 5:1, so only a bomb (or many headers sharing one compressed blob) reaches it.
   */
  private final AtomicLong inflateBudget;

  /** Most bytes per byte of file its compressed sections may declare, together. */
  static final long INFLATE_RATIO = 1024;

  /** Maps {@code file} and reads its headers. */
  public static ElfFile open(Path file) throws IOException {
    return new ElfFile(ObjectBytes.map(file));
  }

  /** Reads the headers of an ELF file held in memory. */
  public static ElfFile parse(byte[] data) {
    return new ElfFile(ObjectBytes.of(data));
  }

  static ElfFile parse(ObjectBytes data) {
    return new ElfFile(data);
  }

  /** Whether {@code head} starts with the ELF magic. */
  public static boolean isElf(byte[] head) {
    return head.length >= 4
        && head[0] == 0x7f
        && head[1] == 'E'
        && head[2] == 'L'
        && head[3] == 'F';
  }

  private ElfFile(ObjectBytes bytes) {
    this.bytes = bytes;
    this.inflateBudget = new AtomicLong(INFLATE_RATIO * bytes.size() + (1 << 20));
    if (bytes.size() < 16) {
      throw new ObjectFormatException("not an ELF file: " + bytes.size() + " bytes");
    }
    ByteBuffer ident = bytes.slice(0, 16, ByteOrder.LITTLE_ENDIAN, "ELF identification");
    if (ident.get(0) != 0x7f || ident.get(1) != 'E' || ident.get(2) != 'L' || ident.get(3) != 'F') {
      throw new ObjectFormatException("not an ELF file: no ELF magic");
    }
    is64 =
        switch (ident.get(4)) {
          case 1 -> false;
          case 2 -> true;
          default -> throw new ObjectFormatException("ELF class " + ident.get(4) + " is unknown");
        };
    order =
        switch (ident.get(5)) {
          case 1 -> ByteOrder.LITTLE_ENDIAN;
          case 2 -> ByteOrder.BIG_ENDIAN;
          default ->
              throw new ObjectFormatException("ELF data encoding " + ident.get(5) + " is unknown");
        };
    int headerSize = is64 ? 64 : 52;
    ByteBuffer h = bytes.slice(0, headerSize, order, "ELF header");
    type = u16(h, 16);
    machine = u16(h, 18);
    entry = addr(h, 24);
    long phoff = is64 ? h.getLong(32) : u32(h, 28);
    long shoff = is64 ? h.getLong(40) : u32(h, 32);
    flags = u32(h, is64 ? 48 : 36);
    int phentsize = u16(h, is64 ? 54 : 42);
    int phnum = u16(h, is64 ? 56 : 44);
    int shentsize = u16(h, is64 ? 58 : 46);
    long shnum = u16(h, is64 ? 60 : 48);
    long shstrndx = u16(h, is64 ? 62 : 50);

    programHeaders = readProgramHeaders(phoff, phentsize, phnum);

    List<long[]> raw = new ArrayList<>();
    if (shoff != 0) {
      int minEntry = is64 ? 64 : 40;
      if (shentsize < minEntry) {
        throw new ObjectFormatException(
            "ELF section header size " + shentsize + " is below " + minEntry);
      }
      long[] first = readSectionHeader(shoff, shentsize);
      if (shnum == 0) {
        shnum = first[5]; // extended numbering: the count is in section 0's sh_size
      }
      if (shstrndx == SHN_XINDEX) {
        shstrndx = first[6];
      }
      if (shnum < 0 || shnum > (bytes.size() - shoff) / shentsize) {
        throw new ObjectFormatException(
            "ELF claims "
                + Long.toUnsignedString(shnum)
                + " section headers at offset "
                + shoff
                + ", more than the file holds");
      }
      for (long i = 0; i < shnum; i++) {
        raw.add(readSectionHeader(shoff + i * shentsize, shentsize));
      }
    }
    ByteBuffer names = null;
    if (shstrndx != 0 && shstrndx < raw.size()) {
      long[] s = raw.get((int) shstrndx);
      if (s[1] != ElfSectionHeader.SHT_NOBITS && s[5] > 0) {
        names = bytes.slice(s[4], s[5], order, "section name table");
      }
    }
    List<ElfSectionHeader> list = new ArrayList<>(raw.size());
    Map<String, ElfSectionHeader> index = new HashMap<>();
    for (int i = 0; i < raw.size(); i++) {
      long[] s = raw.get(i);
      String name = names == null ? "" : string(names, s[0], "section name");
      ElfSectionHeader sh =
          new ElfSectionHeader(
              i, name, (int) s[1], s[2], s[3], s[4], s[5], (int) s[6], (int) s[7], s[8], s[9]);
      list.add(sh);
      if (i != 0 && !name.isEmpty()) {
        index.putIfAbsent(name, sh);
      }
    }
    sections = Collections.unmodifiableList(list);
    byName = index;
  }

  private List<ElfProgramHeader> readProgramHeaders(long phoff, int phentsize, int phnum) {
    if (phoff == 0 || phnum == 0) {
      return List.of();
    }
    int minEntry = is64 ? 56 : 32;
    if (phentsize < minEntry) {
      throw new ObjectFormatException(
          "ELF program header size " + phentsize + " is below " + minEntry);
    }
    ByteBuffer t = bytes.slice(phoff, (long) phentsize * phnum, order, "program header table");
    List<ElfProgramHeader> out = new ArrayList<>(phnum);
    for (int i = 0; i < phnum; i++) {
      int o = i * phentsize;
      if (is64) {
        out.add(
            new ElfProgramHeader(
                t.getInt(o),
                t.getInt(o + 4),
                t.getLong(o + 8),
                t.getLong(o + 16),
                t.getLong(o + 24),
                t.getLong(o + 32),
                t.getLong(o + 40),
                t.getLong(o + 48)));
      } else {
        out.add(
            new ElfProgramHeader(
                t.getInt(o),
                t.getInt(o + 24),
                u32(t, o + 4),
                u32(t, o + 8),
                u32(t, o + 12),
                u32(t, o + 16),
                u32(t, o + 20),
                u32(t, o + 28)));
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** name, type, flags, addr, offset, size, link, info, addralign, entsize. */
  private long[] readSectionHeader(long at, int entsize) {
    ByteBuffer s = bytes.slice(at, entsize, order, "section header");
    if (is64) {
      return new long[] {
        u32(s, 0),
        u32(s, 4),
        s.getLong(8),
        s.getLong(16),
        s.getLong(24),
        s.getLong(32),
        u32(s, 40),
        u32(s, 44),
        s.getLong(48),
        s.getLong(56)
      };
    }
    return new long[] {
      u32(s, 0),
      u32(s, 4),
      u32(s, 8),
      u32(s, 12),
      u32(s, 16),
      u32(s, 20),
      u32(s, 24),
      u32(s, 28),
      u32(s, 32),
      u32(s, 36)
    };
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

  /** {@code e_type}: {@link #ET_REL}, {@link #ET_EXEC}, {@link #ET_DYN}, ... */
  public int type() {
    return type;
  }

  /** {@code e_machine}: {@link #EM_X86_64}, {@link #EM_AARCH64}, ... */
  public int machine() {
    return machine;
  }

  /** {@code e_flags} (the ARM EABI version and float ABI, MIPS ISA, ...). */
  public long flags() {
    return flags;
  }

  public long entry() {
    return entry;
  }

  public long fileSize() {
    return bytes.size();
  }

  public List<ElfSectionHeader> sections() {
    return sections;
  }

  public List<ElfProgramHeader> programHeaders() {
    return programHeaders;
  }

  /** The first section header of this name, as the file names it (no {@code .zdebug} mapping). */
  public Optional<ElfSectionHeader> sectionHeader(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** A section's bytes as the file stores them (compressed when it is); empty for NOBITS. */
  public ByteBuffer rawData(ElfSectionHeader header) {
    if (!header.hasData()) {
      return ByteBuffer.allocate(0).order(order);
    }
    return bytes.slice(header.offset(), header.size(), order, "section " + header.name());
  }

  /** {@code length} bytes of the file at {@code offset} (notes of program headers, ...). */
  public ByteBuffer fileBytes(long offset, long length, String what) {
    return bytes.slice(offset, length, order, what);
  }

  /**
   * The section decompressed. {@code .debug_X} is answered by {@code .zdebug_X} when only that
   * exists. Throws {@link ObjectFormatException} when the section lies outside the file or its
   * compressed data is corrupt or disagrees with its declared size.
   */
  @Override
  public Optional<Section> section(String name) {
    ElfSectionHeader h = byName.get(name);
    if (h == null && name.startsWith(".debug_")) {
      h = byName.get(".zdebug_" + name.substring(".debug_".length()));
    }
    if (h == null || !h.hasData()) {
      return Optional.empty();
    }
    ElfSectionHeader header = h;
    if (!header.compressed() && !header.name().startsWith(".zdebug_")) {
      return Optional.of(new Section(name, header.address(), rawData(header)));
    }
    Optional<Section> done = inflated.get(name);
    if (done == null) {
      done = Optional.of(new Section(name, header.address(), decompress(header)));
      inflated.put(name, done);
    }
    return done;
  }

  private ByteBuffer decompress(ElfSectionHeader header) {
    ByteBuffer raw = rawData(header);
    String name = header.name();
    ByteBuffer out;
    if (header.compressed()) {
      int chdrSize = is64 ? 24 : 12;
      if (raw.limit() < chdrSize) {
        throw new ObjectFormatException(
            "section " + name + " is compressed but shorter than its compression header");
      }
      int ctype = raw.getInt(0);
      long size = is64 ? raw.getLong(8) : u32(raw, 4);
      ByteBuffer data = raw.slice(chdrSize, raw.limit() - chdrSize);
      spend(size, name);
      out =
          switch (ctype) {
            case ELFCOMPRESS_ZLIB -> SectionDecompressor.zlibBuffer(data, size, name);
            case ELFCOMPRESS_ZSTD -> SectionDecompressor.zstdBuffer(data, size, name);
            default ->
                throw new ObjectFormatException(
                    "section " + name + " uses unknown compression type " + ctype);
          };
    } else {
      // GNU's legacy .zdebug: "ZLIB", the size as 8 bytes big-endian, a zlib stream; without
      // the magic the section is stored plain
      if (raw.limit() < 12
          || raw.get(0) != 'Z'
          || raw.get(1) != 'L'
          || raw.get(2) != 'I'
          || raw.get(3) != 'B') {
        return raw;
      }
      long size = raw.duplicate().order(ByteOrder.BIG_ENDIAN).getLong(4);
      spend(size, name);
      out = SectionDecompressor.zlibBuffer(raw.slice(12, raw.limit() - 12), size, name);
    }
    return out.order(order);
  }

  private void spend(long declared, String name) {
    if (declared < 0 || inflateBudget.addAndGet(-declared) < 0) {
      throw new ObjectFormatException(
          "section "
              + name
              + " declares "
              + Long.toUnsignedString(declared)
              + " bytes uncompressed: with the file's other compressed sections, more than "
              + INFLATE_RATIO
              + " times the file's size");
    }
  }

  /** A NUL-terminated string at {@code offset} of a string table. */
  static String string(ByteBuffer table, long offset, String what) {
    if (offset < 0 || offset >= table.limit()) {
      throw new ObjectFormatException(
          what + " at offset " + offset + " lies outside its string table");
    }
    int start = (int) offset;
    int end = start;
    while (end < table.limit() && table.get(end) != 0) {
      end++;
    }
    byte[] b = new byte[end - start];
    table.get(start, b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private long addr(ByteBuffer b, int at) {
    return is64 ? b.getLong(at) : u32(b, at);
  }

  static int u16(ByteBuffer b, int at) {
    return b.getShort(at) & 0xffff;
  }

  static long u32(ByteBuffer b, int at) {
    return b.getInt(at) & 0xffffffffL;
  }
}

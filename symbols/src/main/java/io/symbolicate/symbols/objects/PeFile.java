package io.symbolicate.symbols.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Windows PE/COFF image (PE32 or PE32+): the COFF and optional headers, the section table, the
 * data directories, the CodeView record of the debug directory and the export table. Every
 * offset, RVA and count the file states is checked against the file before it is used; nothing
 * is allocated from a claimed count. As {@link ObjectSections} it answers sections by their names
 * (DWARF sections of MinGW images carry long names through the COFF string table).
 */
public final class PeFile implements ObjectSections {
  public static final int MACHINE_I386 = 0x14c;
  public static final int MACHINE_AMD64 = 0x8664;
  public static final int MACHINE_ARM64 = 0xaa64;
  public static final int MACHINE_ARM = 0x1c0;
  public static final int MACHINE_ARMNT = 0x1c4;

  /** {@code IMAGE_FILE_DLL}. */
  static final int FILE_DLL = 0x2000;

  static final int DIR_EXPORT = 0;
  static final int DIR_EXCEPTION = 3;
  static final int DIR_DEBUG = 6;

  static final int DEBUG_TYPE_CODEVIEW = 2;

  /** The most debug directory entries read; real images have a handful. */
  static final int MAX_DEBUG_ENTRIES = 256;

  /** The most exports read by name; a DLL with more is refused rather than walked forever. */
  static final long MAX_EXPORTS = 1 << 20;

  /** The longest export name or CodeView path read. */
  static final int MAX_NAME = 1 << 16;

  private static final int SECTION_HEADER_SIZE = 40;
  private static final int DEBUG_ENTRY_SIZE = 28;

  private final ObjectBytes bytes;
  private final int machine;
  private final int characteristics;
  private final long timeDateStamp;
  private final boolean is64;
  private final long imageBase;
  private final long sizeOfImage;
  private final long[] dirRva = new long[16];
  private final long[] dirSize = new long[16];
  private final List<PeSection> sections = new ArrayList<>();

  /** Whether a file starts as a PE image does ({@code MZ}). */
  static boolean isPe(byte[] head) {
    return head.length >= 2 && head[0] == 'M' && head[1] == 'Z';
  }

  public static PeFile open(Path file) throws IOException {
    return new PeFile(ObjectBytes.map(file));
  }

  public static PeFile parse(byte[] data) {
    return new PeFile(ObjectBytes.of(data));
  }

  PeFile(ObjectBytes bytes) {
    this.bytes = bytes;
    if (bytes.size() < 64) {
      throw new ObjectFormatException("not a PE file: " + bytes.size() + " bytes");
    }
    ByteBuffer dos = le(0, 64, "DOS header");
    if (dos.get(0) != 'M' || dos.get(1) != 'Z') {
      throw new ObjectFormatException("not a PE file: no MZ signature");
    }
    long peOffset = dos.getInt(0x3c) & 0xffffffffL;
    ByteBuffer coff = le(peOffset, 24, "PE signature and COFF header");
    if (coff.getInt(0) != 0x00004550) {
      throw new ObjectFormatException(
          "an MZ file without a PE signature at " + peOffset + " (a DOS program?)");
    }
    machine = coff.getShort(4) & 0xffff;
    int sectionCount = coff.getShort(6) & 0xffff;
    timeDateStamp = coff.getInt(8) & 0xffffffffL;
    long symbolTable = coff.getInt(12) & 0xffffffffL;
    long symbolCount = coff.getInt(16) & 0xffffffffL;
    int optionalSize = coff.getShort(20) & 0xffff;
    characteristics = coff.getShort(22) & 0xffff;
    long optionalAt = peOffset + 24;
    ByteBuffer opt = le(optionalAt, optionalSize, "optional header");
    if (optionalSize < 2) {
      throw new ObjectFormatException("PE image without an optional header");
    }
    int magic = opt.getShort(0) & 0xffff;
    int dirsAt;
    int countAt;
    switch (magic) {
      case 0x10b -> {
        is64 = false;
        need(opt, 96, "PE32 optional header");
        imageBase = opt.getInt(28) & 0xffffffffL;
        countAt = 92;
        dirsAt = 96;
      }
      case 0x20b -> {
        is64 = true;
        need(opt, 112, "PE32+ optional header");
        imageBase = opt.getLong(24);
        countAt = 108;
        dirsAt = 112;
      }
      default ->
          throw new ObjectFormatException(
              "PE optional header magic 0x" + Integer.toHexString(magic) + " is not PE32 or PE32+");
    }
    sizeOfImage = opt.getInt(56) & 0xffffffffL;
    long dirCount = opt.getInt(countAt) & 0xffffffffL;
    int dirs = (int) Math.min(16, Math.min(dirCount, (optionalSize - dirsAt) / 8));
    for (int i = 0; i < dirs; i++) {
      dirRva[i] = opt.getInt(dirsAt + 8 * i) & 0xffffffffL;
      dirSize[i] = opt.getInt(dirsAt + 8 * i + 4) & 0xffffffffL;
    }
    ByteBuffer table =
        le(
            optionalAt + optionalSize,
            (long) sectionCount * SECTION_HEADER_SIZE,
            "section table of " + sectionCount + " sections");
    ByteBuffer strings = stringTable(symbolTable, symbolCount);
    for (int i = 0; i < sectionCount; i++) {
      int at = i * SECTION_HEADER_SIZE;
      String name = sectionName(table, at, strings);
      sections.add(
          new PeSection(
              name,
              table.getInt(at + 12) & 0xffffffffL,
              table.getInt(at + 8) & 0xffffffffL,
              table.getInt(at + 20) & 0xffffffffL,
              table.getInt(at + 16) & 0xffffffffL,
              table.getInt(at + 36)));
    }
  }

  /** The COFF string table (long section names), or null when there is none or it is bad. */
  private ByteBuffer stringTable(long symbolTable, long symbolCount) {
    if (symbolTable == 0) {
      return null;
    }
    long at = symbolTable + symbolCount * 18;
    if (at < symbolTable || at > bytes.size() - 4) {
      return null;
    }
    long size = le(at, 4, "COFF string table size").getInt(0) & 0xffffffffL;
    if (size < 4 || size > bytes.size() - at) {
      return null;
    }
    return le(at, size, "COFF string table");
  }

  private static String sectionName(ByteBuffer table, int at, ByteBuffer strings) {
    String raw = cString(table, at, 8);
    if (raw.startsWith("/") && strings != null) {
      try {
        int offset = Integer.parseInt(raw.substring(1));
        if (offset >= 4 && offset < strings.limit()) {
          return cString(strings, offset, Math.min(MAX_NAME, strings.limit() - offset));
        }
      } catch (NumberFormatException e) {
        return raw;
      }
    }
    return raw;
  }

  /** A NUL-terminated string of at most {@code max} bytes at {@code at}. */
  static String cString(ByteBuffer b, int at, int max) {
    int n = 0;
    while (n < max && at + n < b.limit() && b.get(at + n) != 0) {
      n++;
    }
    byte[] s = new byte[n];
    b.get(at, s);
    return new String(s, StandardCharsets.UTF_8);
  }

  private ByteBuffer le(long offset, long length, String what) {
    return bytes.slice(offset, length, ByteOrder.LITTLE_ENDIAN, what);
  }

  private static void need(ByteBuffer b, int size, String what) {
    if (b.limit() < size) {
      throw new ObjectFormatException(what + " is " + b.limit() + " bytes, shorter than " + size);
    }
  }

  /** {@code IMAGE_FILE_MACHINE_*}. */
  public int machine() {
    return machine;
  }

  /** The architecture as Breakpad names it: {@code x86}, {@code x86_64}, {@code arm64}, {@code arm}. */
  public String arch() {
    return switch (machine) {
      case MACHINE_I386 -> "x86";
      case MACHINE_AMD64 -> "x86_64";
      case MACHINE_ARM64 -> "arm64";
      case MACHINE_ARM, MACHINE_ARMNT -> "arm";
      default -> "unknown-0x" + Integer.toHexString(machine);
    };
  }

  public boolean is64() {
    return is64;
  }

  public boolean isDll() {
    return (characteristics & FILE_DLL) != 0;
  }

  public long timeDateStamp() {
    return timeDateStamp;
  }

  public long sizeOfImage() {
    return sizeOfImage;
  }

  public long imageBase() {
    return imageBase;
  }

  public List<PeSection> sections() {
    return Collections.unmodifiableList(sections);
  }

  /**
   * The code id as Breakpad writes it in {@code INFO CODE_ID} and as Microsoft's symbol server
   * names the image's folder: {@code TimeDateStamp} as 8 upper-case hex digits, then {@code
   * SizeOfImage} in upper-case hex without leading zeros ({@code 589DFD111A000}, as Breakpad's
   * dump_syms_regtest64.sym has it).
   */
  public String breakpadCodeId() {
    return String.format(Locale.ROOT, "%08X%X", timeDateStamp, sizeOfImage);
  }

  /** RVA and size of data directory {@code index} (0 and 0 when absent). */
  long[] directory(int index) {
    return new long[] {dirRva[index], dirSize[index]};
  }

  /** Whether the image has an exception directory ({@code .pdata}: x64 and arm64 unwind info). */
  public boolean hasExceptionDirectory() {
    return dirRva[DIR_EXCEPTION] != 0 && dirSize[DIR_EXCEPTION] > 0;
  }

  /**
   * RVA and size of the exception directory ({@code .pdata}: x64 and arm64 unwind info), 0 and 0
   * when absent.
   */
  public long[] exceptionDirectory() {
    return directory(DIR_EXCEPTION);
  }

  /** The section an RVA falls in. */
  public Optional<PeSection> sectionAt(long rva) {
    for (PeSection s : sections) {
      if (s.containsRva(rva)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /**
   * {@code length} bytes of the image at {@code rva}, as they are in the file; fails when they
   * are not all within one section's bytes in the file.
   */
  public ByteBuffer rvaBytes(long rva, long length, String what) {
    PeSection s =
        sectionAt(rva)
            .orElseThrow(
                () ->
                    new ObjectFormatException(
                        what + " at RVA 0x" + Long.toHexString(rva) + " is in no section"));
    long into = rva - s.virtualAddress();
    if (length < 0 || into > s.rawSize() || length > s.rawSize() - into) {
      throw new ObjectFormatException(
          what
              + " at RVA 0x"
              + Long.toHexString(rva)
              + " of "
              + length
              + " bytes runs past the bytes of section "
              + s.name());
    }
    return le(s.rawOffset() + into, length, what);
  }

  /** The bytes of a section from {@code rva} to the end of its bytes in the file. */
  ByteBuffer rvaTail(long rva, String what) {
    PeSection s =
        sectionAt(rva)
            .orElseThrow(
                () ->
                    new ObjectFormatException(
                        what + " at RVA 0x" + Long.toHexString(rva) + " is in no section"));
    long into = rva - s.virtualAddress();
    if (into >= s.rawSize()) {
      throw new ObjectFormatException(
          what + " at RVA 0x" + Long.toHexString(rva) + " lies past the bytes of " + s.name());
    }
    return le(s.rawOffset() + into, s.rawSize() - into, what);
  }

  /** The first CodeView {@code RSDS} record of the debug directory, if any. */
  public Optional<PeCodeView> codeView() {
    long rva = dirRva[DIR_DEBUG];
    long size = dirSize[DIR_DEBUG];
    if (rva == 0 || size < DEBUG_ENTRY_SIZE) {
      return Optional.empty();
    }
    long count = Math.min(size / DEBUG_ENTRY_SIZE, MAX_DEBUG_ENTRIES);
    ByteBuffer dir = rvaBytes(rva, count * DEBUG_ENTRY_SIZE, "debug directory");
    for (int i = 0; i < count; i++) {
      int at = i * DEBUG_ENTRY_SIZE;
      if (dir.getInt(at + 12) != DEBUG_TYPE_CODEVIEW) {
        continue;
      }
      long dataSize = dir.getInt(at + 16) & 0xffffffffL;
      long dataRva = dir.getInt(at + 20) & 0xffffffffL;
      long dataOffset = dir.getInt(at + 24) & 0xffffffffL;
      if (dataSize < 24) {
        continue;
      }
      dataSize = Math.min(dataSize, 24 + MAX_NAME);
      ByteBuffer cv =
          dataOffset != 0
              ? le(dataOffset, dataSize, "CodeView record")
              : rvaBytes(dataRva, dataSize, "CodeView record");
      if (cv.getInt(0) != 0x53445352) { // "RSDS"; older NB10 records carry no GUID
        continue;
      }
      byte[] guid = new byte[16];
      cv.get(4, guid);
      swapGuidFields(guid);
      long age = cv.getInt(20) & 0xffffffffL;
      String path = cString(cv, 24, (int) dataSize - 24);
      return Optional.of(new PeCodeView(guid, age, path));
    }
    return Optional.empty();
  }

  /**
   * The entries of the debug directory (at most {@link #MAX_DEBUG_ENTRIES}), in file order: .NET
   * readers look for the embedded Portable PDB (type 17) and the Portable PDB's CodeView stamp.
   */
  public List<PeDebugEntry> debugEntries() {
    long rva = dirRva[DIR_DEBUG];
    long size = dirSize[DIR_DEBUG];
    if (rva == 0 || size < DEBUG_ENTRY_SIZE) {
      return List.of();
    }
    long count = Math.min(size / DEBUG_ENTRY_SIZE, MAX_DEBUG_ENTRIES);
    ByteBuffer dir = rvaBytes(rva, count * DEBUG_ENTRY_SIZE, "debug directory");
    List<PeDebugEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int at = i * DEBUG_ENTRY_SIZE;
      entries.add(
          new PeDebugEntry(
              dir.getInt(at + 12),
              dir.getInt(at + 4) & 0xffffffffL,
              dir.getShort(at + 8) & 0xffff,
              dir.getShort(at + 10) & 0xffff,
              dir.getInt(at + 16) & 0xffffffffL,
              dir.getInt(at + 20) & 0xffffffffL,
              dir.getInt(at + 24) & 0xffffffffL));
    }
    return entries;
  }

  /**
   * The data of a debug directory entry: from its file offset when it has one, else from its RVA;
   * fails when the bytes are not all in the file.
   */
  public ByteBuffer debugEntryData(PeDebugEntry entry) {
    return entry.fileOffset() != 0
        ? le(entry.fileOffset(), entry.dataSize(), "debug entry data of type " + entry.type())
        : rvaBytes(entry.rva(), entry.dataSize(), "debug entry data of type " + entry.type());
  }

  /** The RVA and size of data directory {@code index} (0..15); zeros when the image has none. */
  public long[] dataDirectory(int index) {
    return new long[] {dirRva[index], dirSize[index]};
  }

  /** A GUID as stored (first three fields little-endian) to the order it is printed in. */
  public static void swapGuidFields(byte[] g) {
    reverse(g, 0, 4);
    reverse(g, 4, 2);
    reverse(g, 6, 2);
  }

  private static void reverse(byte[] b, int from, int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
      byte t = b[from + i];
      b[from + i] = b[from + j];
      b[from + j] = t;
    }
  }

  /**
   * The exported functions with names, by RVA (sorted, one per RVA, the first name in the export
   * table's order); forwarders (exports that name another DLL's function) are left out, as they
   * have no code here.
   */
  public List<ObjectSymbol> exports() {
    long rva = dirRva[DIR_EXPORT];
    long size = dirSize[DIR_EXPORT];
    if (rva == 0 || size < 40) {
      return List.of();
    }
    ByteBuffer dir = rvaBytes(rva, 40, "export directory");
    long functionCount = dir.getInt(20) & 0xffffffffL;
    long nameCount = dir.getInt(24) & 0xffffffffL;
    long functionsRva = dir.getInt(28) & 0xffffffffL;
    long namesRva = dir.getInt(32) & 0xffffffffL;
    long ordinalsRva = dir.getInt(36) & 0xffffffffL;
    if (nameCount == 0) {
      return List.of();
    }
    if (nameCount > MAX_EXPORTS || functionCount > MAX_EXPORTS) {
      throw new ObjectFormatException(
          "export table claims " + nameCount + " names and " + functionCount + " functions");
    }
    ByteBuffer functions = rvaBytes(functionsRva, functionCount * 4, "export address table");
    ByteBuffer names = rvaBytes(namesRva, nameCount * 4, "export name table");
    ByteBuffer ordinals = rvaBytes(ordinalsRva, nameCount * 2, "export ordinal table");
    TreeMap<Long, ObjectSymbol> byRva = new TreeMap<>();
    for (int i = 0; i < nameCount; i++) {
      int ordinal = ordinals.getShort(2 * i) & 0xffff;
      if (ordinal >= functionCount) {
        continue;
      }
      long target = functions.getInt(4 * ordinal) & 0xffffffffL;
      if (target == 0 || (target >= rva && target - rva < size)) {
        continue; // unused slot, or a forwarder string inside the export directory
      }
      long nameRva = names.getInt(4 * i) & 0xffffffffL;
      ByteBuffer tail = rvaTail(nameRva, "export name");
      String name = cString(tail, 0, Math.min(MAX_NAME, tail.limit()));
      byRva.putIfAbsent(target, new ObjectSymbol(name, target, 0));
    }
    return new ArrayList<>(byRva.values());
  }

  /** The section named {@code name}, if it has bytes in the file. */
  public Optional<PeSection> sectionHeader(String name) {
    for (PeSection s : sections) {
      if (s.name().equals(name) && s.rawSize() > 0) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  @Override
  public Optional<Section> section(String name) {
    return sectionHeader(name)
        .map(
            s -> {
              long size =
                  s.virtualSize() > 0 && s.virtualSize() < s.rawSize()
                      ? s.virtualSize()
                      : s.rawSize();
              return new Section(
                  name,
                  imageBase + s.virtualAddress(),
                  le(s.rawOffset(), size, "section " + s.name()));
            });
  }

  @Override
  public boolean littleEndian() {
    return true;
  }

  @Override
  public int addressSize() {
    return is64 ? 8 : 4;
  }
}

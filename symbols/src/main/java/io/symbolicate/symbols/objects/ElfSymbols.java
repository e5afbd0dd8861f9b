package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The function symbols of an ELF file's {@code .symtab} and {@code .dynsym}: defined {@code
 * STT_FUNC} (and {@code STT_GNU_IFUNC}) symbols with a non-zero address and a name, the ones
 * Breakpad's dump_syms turns into PUBLIC records.
 */
public final class ElfSymbols {
  static final int STT_FUNC = 2;
  static final int STT_GNU_IFUNC = 10;
  static final int SHN_UNDEF = 0;
  static final int SHN_LORESERVE = 0xff00;
  static final int SHN_ABS = 0xfff1;

  private ElfSymbols() {}

  /**
   * Functions of {@code .symtab} then {@code .dynsym}, sorted by address, one per address: the
   * first in table order (aliases such as C1/C2 constructors share an address; Breakpad and
   * Symbolicator keep the first too). Symbols of a MiniDebugInfo {@code .gnu_debugdata} are not included: see {@link
   * MiniDebugInfo}.
   */
  public static List<ObjectSymbol> functions(ElfFile elf) {
    Map<Long, ObjectSymbol> unique = new LinkedHashMap<>();
    for (int type : new int[] {ElfSectionHeader.SHT_SYMTAB, ElfSectionHeader.SHT_DYNSYM}) {
      for (ElfSectionHeader table : elf.sections()) {
        if (table.type() == type) {
          for (ObjectSymbol s : read(elf, table)) {
            unique.putIfAbsent(s.address(), s);
          }
        }
      }
    }
    List<ObjectSymbol> out = new ArrayList<>(unique.values());
    out.sort(Comparator.comparingLong(ObjectSymbol::address));
    return out;
  }

  /** Whether the file has a non-empty symbol table. */
  static boolean hasSymbols(ElfFile elf) {
    for (ElfSectionHeader s : elf.sections()) {
      if ((s.type() == ElfSectionHeader.SHT_SYMTAB || s.type() == ElfSectionHeader.SHT_DYNSYM)
          && s.hasData()
          && s.size() > (elf.is64() ? 24 : 16)) {
        return true;
      }
    }
    return false;
  }

  private static List<ObjectSymbol> read(ElfFile elf, ElfSectionHeader table) {
    if (!table.hasData()) {
      return List.of();
    }
    int entry = elf.is64() ? 24 : 16;
    if (table.link() <= 0 || table.link() >= elf.sections().size()) {
      throw new ObjectFormatException(
          "symbol table " + table.name() + " links to missing string table " + table.link());
    }
    ElfSectionHeader strtab = elf.sections().get(table.link());
    Optional<Section> strings = elf.section(strtab.name());
    ByteBuffer names =
        strtab.name().isEmpty() || strings.isEmpty() ? elf.rawData(strtab) : strings.get().data();
    ByteBuffer syms = elf.section(table.name()).map(Section::data).orElse(elf.rawData(table));
    int count = syms.limit() / entry;
    List<ObjectSymbol> out = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int at = i * entry;
      long nameOff;
      int info;
      int shndx;
      long value;
      long size;
      if (elf.is64()) {
        nameOff = syms.getInt(at) & 0xffffffffL;
        info = syms.get(at + 4) & 0xff;
        shndx = syms.getShort(at + 6) & 0xffff;
        value = syms.getLong(at + 8);
        size = syms.getLong(at + 16);
      } else {
        nameOff = syms.getInt(at) & 0xffffffffL;
        value = syms.getInt(at + 4) & 0xffffffffL;
        size = syms.getInt(at + 8) & 0xffffffffL;
        info = syms.get(at + 12) & 0xff;
        shndx = syms.getShort(at + 14) & 0xffff;
      }
      int type = info & 0xf;
      if ((type != STT_FUNC && type != STT_GNU_IFUNC)
          || shndx == SHN_UNDEF
          || value == 0
          || nameOff == 0
          || nameOff >= names.limit()) {
        continue;
      }
      String name = ElfFile.string(names, nameOff, "symbol name");
      if (!name.isEmpty()) {
        out.add(new ObjectSymbol(name, value, size));
      }
    }
    return out;
  }
}

package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The function symbols of a Mach-O {@code LC_SYMTAB}: symbols defined in a section of
 * instructions (so not the {@code GCC_except_table}s and constants also in {@code __TEXT}), debugger stabs and undefined symbols left out, with the leading
 * underscore the C compiler adds taken off (as Breakpad and Symbolicator show them).
 */
public final class MachOSymbols {
  static final int N_STAB = 0xe0;
  static final int N_TYPE = 0x0e;
  static final int N_SECT = 0x0e;

  private MachOSymbols() {}

  /** Functions sorted by address, one per address (the first in table order). */
  public static List<ObjectSymbol> functions(MachOFile macho) {
    long[] st = macho.symtab();
    long nsyms = st[1];
    if (nsyms == 0) {
      return List.of();
    }
    int entry = macho.is64() ? 16 : 12;
    ByteBuffer syms = macho.fileBytes(st[0], nsyms * entry, "Mach-O symbol table");
    ByteBuffer names = macho.fileBytes(st[2], st[3], "Mach-O string table");
    List<MachOSection> sections = macho.sections();
    Map<Long, ObjectSymbol> unique = new LinkedHashMap<>();
    for (int i = 0; i < nsyms; i++) {
      int at = i * entry;
      long strx = syms.getInt(at) & 0xffffffffL;
      int type = syms.get(at + 4) & 0xff;
      int sect = syms.get(at + 5) & 0xff;
      long value = macho.is64() ? syms.getLong(at + 8) : syms.getInt(at + 8) & 0xffffffffL;
      if ((type & N_STAB) != 0
          || (type & N_TYPE) != N_SECT
          || sect == 0
          || sect > sections.size()
          || !sections.get(sect - 1).code()
          || strx == 0
          || strx >= names.limit()) {
        continue;
      }
      String name = ElfFile.string(names, strx, "symbol name");
      if (name.startsWith("_")) {
        name = name.substring(1);
      }
      if (!name.isEmpty()) {
        unique.putIfAbsent(value, new ObjectSymbol(name, value, 0));
      }
    }
    List<ObjectSymbol> out = new ArrayList<>(unique.values());
    out.sort(Comparator.comparingLong(ObjectSymbol::address));
    return out;
  }
}

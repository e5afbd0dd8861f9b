package io.symbolicate.symbols.objects;

import io.symbolicate.symbols.pdb.PdbFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An opened object file, whatever its container: its identity, public symbols and sections.
 * {@link #elf()}, {@link #macho()} and {@link #pe()} give the container for what only it has.
 */
public final class ObjectFile implements ObjectSections {
  private final String name;
  private final ElfFile elf;
  private final MachOFile macho;
  private final PeFile pe;
  private final PdbFile pdb;

  private ObjectFile(String name, ElfFile elf, MachOFile macho, PeFile pe, PdbFile pdb) {
    this.name = name;
    this.elf = elf;
    this.macho = macho;
    this.pe = pe;
    this.pdb = pdb;
  }

  ObjectFile(String name, ElfFile elf) {
    this(name, elf, null, null, null);
  }

  ObjectFile(String name, MachOFile macho) {
    this(name, null, macho, null, null);
  }

  ObjectFile(String name, PeFile pe) {
    this(name, null, null, pe, null);
  }

  ObjectFile(String name, PdbFile pdb) {
    this(name, null, null, null, pdb);
  }

  /** The file's name (for a dSYM, the name of the DWARF file inside the bundle). */
  public String name() {
    return name;
  }

  public Optional<ElfFile> elf() {
    return Optional.ofNullable(elf);
  }

  public Optional<MachOFile> macho() {
    return Optional.ofNullable(macho);
  }

  public Optional<PeFile> pe() {
    return Optional.ofNullable(pe);
  }

  /** A PDB, which has no sections: {@link #section} answers nothing for it. */
  public Optional<PdbFile> pdb() {
    return Optional.ofNullable(pdb);
  }

  public ObjectIdentity identity() {
    if (pdb != null) {
      return PdbIdentity.of(pdb);
    }
    if (pe != null) {
      return PeIdentity.of(pe);
    }
    return elf != null ? ElfIdentity.of(elf) : MachOIdentity.of(macho);
  }

  /**
   * The function symbols Breakpad writes as PUBLIC records, sorted by address, one per address,
   * at the addresses the file states. For ELF: {@code .symtab}, {@code .dynsym}, then the
   * MiniDebugInfo symbol table; for PE: the named exports, at their RVAs.
   */
  public List<ObjectSymbol> publicSymbols() {
    if (pe != null) {
      return pe.exports();
    }
    if (pdb != null) {
      return PdbIdentity.publicSymbols(pdb);
    }
    if (macho != null) {
      return MachOSymbols.functions(macho);
    }
    Map<Long, ObjectSymbol> unique = new LinkedHashMap<>();
    for (ObjectSymbol s : ElfSymbols.functions(elf)) {
      unique.putIfAbsent(s.address(), s);
    }
    Optional<ElfFile> mini = MiniDebugInfo.of(elf);
    if (mini.isPresent()) {
      for (ObjectSymbol s : ElfSymbols.functions(mini.get())) {
        unique.putIfAbsent(s.address(), s);
      }
    }
    List<ObjectSymbol> out = new ArrayList<>(unique.values());
    out.sort(Comparator.comparingLong(ObjectSymbol::address));
    return out;
  }

  /** The ELF {@code .gnu_debuglink}, if any. */
  public Optional<DebugLink> debugLink() {
    return elf == null ? Optional.empty() : DebugLink.of(elf);
  }

  /** The ELF {@code .gnu_debugaltlink} (DWZ supplementary file), if any. */
  public Optional<DebugAltLink> debugAltLink() {
    return elf == null ? Optional.empty() : DebugAltLink.of(elf);
  }

  @Override
  public Optional<Section> section(String sectionName) {
    if (pdb != null) {
      return Optional.empty();
    }
    if (pe != null) {
      return pe.section(sectionName);
    }
    return elf != null ? elf.section(sectionName) : macho.section(sectionName);
  }

  @Override
  public boolean littleEndian() {
    if (pe != null || pdb != null) {
      return true;
    }
    return elf != null ? elf.littleEndian() : macho.littleEndian();
  }

  @Override
  public int addressSize() {
    if (pe != null) {
      return pe.addressSize();
    }
    if (pdb != null) {
      return pdb.arch().equals("x86") || pdb.arch().equals("arm") ? 4 : 8;
    }
    return elf != null ? elf.addressSize() : macho.addressSize();
  }
}
